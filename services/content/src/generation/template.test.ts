import { draftCourseSchema, draftQuestionSchema, generateCourseSchema } from '@portal/contracts';
import { templateGenerator } from './generators';
import { AUTHOR_DRAFT, CLOSING_TITLE, INTRO_TITLE, goalModules } from './template';

const call = { userId: 'u', signal: new AbortController().signal };

async function draftOf(input: Parameters<typeof generateCourseSchema.parse>[0]) {
  const req = generateCourseSchema.parse(input);
  const gen = templateGenerator();
  const outline = await gen.outline(req, call);
  const modules = [];
  for (let i = 0; i < outline.modules.length; i++) {
    modules.push({
      ...outline.modules[i],
      lessons: await gen.lessons(req, outline, i, call),
      quiz: await gen.quiz(req, outline, i, call),
    });
  }
  return draftCourseSchema.parse({ title: outline.title, description: outline.description, modules });
}

const goals = ['Распознавать фишинг', 'Создавать надёжные пароли', 'Сообщать об инцидентах'];

describe('the template generator', () => {
  it('three goals make five modules: an introduction, one titled by each goal, the closing assessment', async () => {
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Офис', goals });
    expect(draft.modules.map((m) => m.title)).toEqual([INTRO_TITLE, ...goals, CLOSING_TITLE]);
    expect(draft.modules.slice(1, 4).every((m) => m.lessons.length === 2)).toBe(true);
    expect(draft.modules[0].quiz).toBeNull();
    expect(draft.modules.slice(1).every((m) => m.quiz && m.quiz.questions.length > 0)).toBe(true);
    for (const m of draft.modules)
      for (const q of m.quiz?.questions ?? []) expect(draftQuestionSchema.safeParse(q).success).toBe(true);
  });

  it('prompts the author about each lesson with its goal and audience, and a media placeholder', async () => {
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Новые сотрудники', goals, lessonsPerModule: 3 });
    const lesson = draft.modules[2].lessons[0];
    const texts = lesson.blocks.flatMap((b) => ('text' in b ? [b.text] : []));
    expect(texts.join('\n')).toContain('Создавать надёжные пароли');
    expect(texts.join('\n')).toContain('Новые сотрудники');
    expect(lesson.blocks.some((b) => b.type === 'image' || b.type === 'video')).toBe(true);
    expect(draft.modules[2].lessons).toHaveLength(3);
  });

  it('writes no teaching text in goal lessons: every text and media placeholder is marked as the author’s draft', async () => {
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Офис', goals, withQuizzes: false });
    const lessons = draft.modules.slice(1, -1).flatMap((m) => m.lessons);
    expect(lessons).toHaveLength(6);
    for (const lesson of lessons) {
      expect(lesson.blocks[0].type).toBe('heading');
      for (const block of lesson.blocks) {
        if (block.type === 'text') expect(block.text.startsWith(`${AUTHOR_DRAFT}: `)).toBe(true);
        if ('suggestion' in block) expect(block.suggestion.startsWith(`${AUTHOR_DRAFT}: `)).toBe(true);
      }
    }
    // The closing lesson without a test asks the author too, rather than lecturing the learner.
    const closing = draft.modules.at(-1)?.lessons[0].blocks.at(-1);
    expect(closing).toMatchObject({ type: 'text', text: expect.stringMatching(new RegExp(`^${AUTHOR_DRAFT}: `)) });
  });

  it('leaves quiz questions as numbered blanks with placeholder options, never asking about the course itself', async () => {
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Офис', goals });
    const quizzes = draft.modules.flatMap((m) => (m.quiz ? [m.quiz] : []));
    expect(quizzes).toHaveLength(4);
    for (const quiz of quizzes) {
      quiz.questions.forEach((q, i) => {
        expect(q.question.startsWith(`Вопрос ${i + 1} — заполните формулировку`)).toBe(true);
        expect(q.explanation.startsWith(`${AUTHOR_DRAFT}: `)).toBe(true);
        for (const option of q.options) expect(option).toMatch(/^Вариант ответа \d — заполните$/);
      });
      expect(new Set(quiz.questions.map((q) => q.type)).size).toBe(3);
    }
    const asked = JSON.stringify(quizzes);
    for (const aboutStructure of [
      'Какой цели служит',
      'входит в программу',
      'С какого модуля',
      'Какие уроки входят',
      'Тема курса',
    ])
      expect(asked).not.toContain(aboutStructure);
    // The final test has a blank for each goal, saying which goal it is for.
    const final = draft.modules.at(-1)?.quiz;
    expect(final?.title).toBe('Итоговый тест');
    expect(final?.questions.map((q) => goals.find((g) => q.question.includes(g)))).toEqual(goals);
  });

  it('never writes the author’s wish into a regenerated lesson, module or quiz', async () => {
    const gen = templateGenerator();
    const wish = 'Добавь примеры из розничных продаж';
    const course = { title: 'Безопасность', description: '', moduleTitles: goals };
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Офис', goals });
    const module = draft.modules[1];
    const quiz = module.quiz;
    if (!quiz) throw new Error('quiz expected');
    const proposals = [
      await gen.regenerate(course, { kind: 'lesson', moduleTitle: module.title, ...module.lessons[0] }, wish, call),
      await gen.regenerate(course, { kind: 'module', ...module }, wish, call),
      await gen.regenerate(course, { kind: 'quiz', title: quiz.title, questions: quiz.questions }, wish, call),
    ];
    expect(proposals.map((p) => p.kind)).toEqual(['lesson', 'module', 'quiz']);
    for (const proposal of proposals) {
      const written = JSON.stringify(proposal);
      expect(written).not.toContain(wish);
      expect(written).not.toContain('Пожелание');
    }
  });

  it('without quizzes makes none, and keeps the structure', async () => {
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Офис', goals, withQuizzes: false });
    expect(draft.modules).toHaveLength(5);
    expect(draft.modules.every((m) => m.quiz === null)).toBe(true);
  });

  it('modulesCount groups goals round-robin when smaller and numbers reused goals when larger', () => {
    expect(goalModules(goals, 2)).toEqual([
      { title: 'Распознавать фишинг; Сообщать об инцидентах', goals: ['Распознавать фишинг', 'Сообщать об инцидентах'] },
      { title: 'Создавать надёжные пароли', goals: ['Создавать надёжные пароли'] },
    ]);
    expect(goalModules(['Цель'], 3).map((m) => m.title)).toEqual(['Цель', 'Цель (часть 2)', 'Цель (часть 3)']);
  });

  it('keeps long goals within the draft limits', async () => {
    const long = 'Очень длинная цель '.repeat(15).trim().slice(0, 300);
    const draft = await draftOf({
      topic: 'Т'.repeat(200),
      audience: 'А'.repeat(500),
      goals: [long, `${long.slice(0, 290)} вторая`],
    });
    expect(draft.modules[1].title.length).toBeLessThanOrEqual(200);
  });

  it('regeneration proposes something different from the current node', async () => {
    const gen = templateGenerator();
    const course = { title: 'Безопасность', description: '', moduleTitles: ['Пароли'] };
    const draft = await draftOf({ topic: 'Безопасность', audience: 'Офис', goals });
    const lesson = draft.modules[1].lessons[0];
    const proposal = await gen.regenerate(course, { kind: 'lesson', moduleTitle: goals[0], ...lesson }, '', call);
    expect(proposal.kind).toBe('lesson');
    if (proposal.kind !== 'lesson') return;
    expect(JSON.stringify({ t: proposal.title, b: proposal.blocks })).not.toBe(
      JSON.stringify({ t: lesson.title, b: lesson.blocks }),
    );
    const quiz = draft.modules[1].quiz;
    if (!quiz) throw new Error('quiz expected');
    const quizProposal = await gen.regenerate(course, { kind: 'quiz', title: quiz.title, questions: quiz.questions }, '', call);
    if (quizProposal.kind !== 'quiz') throw new Error('quiz proposal expected');
    expect(quizProposal.questions.map((q) => q.question)).not.toEqual(quiz.questions.map((q) => q.question));
  });
});
