import {
  GENERATION_MSG,
  GENERATION_STAGE_LABELS,
  draftModuleSchema,
  draftQuizSchema,
  type GenerationJob,
} from '@portal/contracts';
import { phaseOfJob, previewOfProposal, progressOf, selectionAfterAccept, withAccepted } from './proposal';
import type { EditorCourse, EditorLesson } from './structure';

const job = (patch: Partial<GenerationJob>): GenerationJob => ({
  id: 'job-1',
  kind: 'lesson',
  status: 'running',
  stage: 'structure',
  progress: 0,
  source: 'template',
  notice: GENERATION_MSG.templateNotice,
  error: null,
  courseId: 'c1',
  targetId: 'l1',
  proposal: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});

const lesson = (id: string, moduleId: string, title: string, text: string): EditorLesson => ({
  id,
  moduleId,
  title,
  description: '',
  status: 'draft',
  blocks: [{ id: `${id}-b1`, type: 'heading', order: 1, lessonId: id, content: { text } }],
  loaded: true,
  blocksCount: 1,
});

const course = (modules: Array<[string, EditorLesson[]]>): EditorCourse => ({
  id: 'c1',
  title: 'Курс',
  description: '',
  price: 0,
  duration: 0,
  level: 'Начальный',
  status: 'draft',
  modules: modules.map(([id, lessons]) => ({ id, title: `Модуль ${id}`, description: '', status: 'draft', lessons })),
});

describe('the preview of a proposal', () => {
  test('a lesson reads as its title and blocks, media as placeholders with their suggestion', () => {
    const preview = previewOfProposal({
      kind: 'lesson',
      title: 'Основы',
      blocks: [
        { type: 'heading', text: 'Что такое дроби' },
        { type: 'text', text: 'Дробь — часть целого.' },
        { type: 'image', suggestion: 'Пицца, разрезанная на 8 частей' },
        { type: 'audio', suggestion: 'Короткое объяснение' },
      ],
    });

    expect(preview).toEqual({
      kind: 'lesson',
      title: 'Основы',
      rows: [
        { kind: 'heading', text: 'Что такое дроби' },
        { kind: 'text', text: 'Дробь — часть целого.' },
        { kind: 'media', media: 'image', label: 'Изображение', suggestion: 'Пицца, разрезанная на 8 частей' },
        { kind: 'media', media: 'audio', label: 'Аудио', suggestion: 'Короткое объяснение' },
      ],
    });
  });

  test('a module lists its lessons with their blocks in order', () => {
    const draft = draftModuleSchema.parse({
      title: 'Модуль 2',
      description: 'Про практику',
      lessons: [
        { title: 'Урок А', blocks: [{ type: 'text', text: 'первый' }] },
        { title: 'Урок Б', description: 'второй урок', blocks: [{ type: 'video', suggestion: 'Разбор задачи' }] },
      ],
    });

    const preview = previewOfProposal({ kind: 'module', ...draft });

    expect(preview.kind).toBe('module');
    if (preview.kind !== 'module') return;
    expect(preview.description).toBe('Про практику');
    expect(preview.lessons.map((l) => [l.title, l.description, l.rows])).toEqual([
      ['Урок А', '', [{ kind: 'text', text: 'первый' }]],
      ['Урок Б', 'второй урок', [{ kind: 'media', media: 'video', label: 'Видео', suggestion: 'Разбор задачи' }]],
    ]);
  });

  test('a quiz marks exactly the correct options of every question type, with explanations and numbers', () => {
    const draft = draftQuizSchema.parse({
      title: 'Проверка',
      questions: [
        { type: 'single_choice', question: 'Сколько?', options: ['1', '2', '3'], correctAnswers: [1], explanation: 'Два.' },
        { type: 'multiple_choice', question: 'Какие?', options: ['а', 'б', 'в'], correctAnswers: [0, 2], explanation: 'А и В.' },
        { type: 'true_false', question: 'Земля круглая?', correctAnswer: 'true', explanation: 'Да.' },
        { type: 'true_false', question: 'Снег чёрный?', correctAnswer: 'false', explanation: 'Нет.' },
      ],
    });

    const preview = previewOfProposal({ kind: 'quiz', title: draft.title, questions: draft.questions });

    expect(preview.kind).toBe('quiz');
    if (preview.kind !== 'quiz') return;
    const marked = preview.questions.map((q) => [q.number, q.options.filter((o) => o.correct).map((o) => o.text)]);
    expect(marked).toEqual([
      [1, ['2']],
      [2, ['а', 'в']],
      [3, ['Верно']],
      [4, ['Неверно']],
    ]);
    expect(preview.questions.map((q) => q.explanation)).toEqual(['Два.', 'А и В.', 'Да.', 'Нет.']);
    expect(preview.questions[2].typeLabel).toBe('Верно или неверно');
  });
});

describe('progress and steps of a job', () => {
  test('the bar gets a whole number within 0..100 and the stage label', () => {
    expect(progressOf({ progress: 42.6, stage: 'lessons' })).toEqual({ value: 43, label: GENERATION_STAGE_LABELS.lessons });
    expect(progressOf({ progress: 140, stage: 'done' }).value).toBe(100);
    expect(progressOf({ progress: -3, stage: 'structure' }).value).toBe(0);
    expect(progressOf({ progress: Number.NaN, stage: 'saving' })).toEqual({ value: 0, label: 'Сохраняем черновик' });
  });

  test('a running job keeps polling, a proposal is shown, failures and cancellations say the server’s words', () => {
    const proposal = { kind: 'lesson' as const, title: 'Т', blocks: [{ type: 'text' as const, text: 'x' }] };

    expect(phaseOfJob(job({ status: 'running', progress: 30 })).step).toBe('running');
    expect(phaseOfJob(job({ status: 'succeeded', stage: 'done', progress: 100, proposal }))).toMatchObject({
      step: 'proposal',
      proposal,
    });
    expect(phaseOfJob(job({ status: 'failed', error: GENERATION_MSG.invalidOutput }))).toMatchObject({
      step: 'failed',
      message: GENERATION_MSG.invalidOutput,
      stale: false,
    });
    expect(phaseOfJob(job({ status: 'cancelled', error: GENERATION_MSG.cancelled }))).toEqual({
      step: 'cancelled',
      message: GENERATION_MSG.cancelled,
    });
    // A success without anything to accept cannot be previewed.
    expect(phaseOfJob(job({ status: 'succeeded', proposal: null }))).toMatchObject({
      step: 'failed',
      message: GENERATION_MSG.notAProposal,
    });
  });
});

describe('an accepted proposal in the editor', () => {
  const editor = course([
    ['m1', [lesson('l1', 'm1', 'Первый', 'старый заголовок'), lesson('l2', 'm1', 'Второй', 'не трогать')]],
    ['m2', [lesson('l3', 'm2', 'Третий', 'правка, ещё не сохранённая')]],
  ]);

  test('a lesson takes the server’s version; every other lesson stays as edited here', () => {
    const server = course([
      ['m1', [lesson('l1', 'm1', 'Первый (новый)', 'новый заголовок'), lesson('l2', 'm1', 'Второй', 'не трогать')]],
      ['m2', [lesson('l3', 'm2', 'Третий', 'то, что на сервере')]],
    ]);

    const next = withAccepted(editor, server, { kind: 'lesson', id: 'l1', title: 'Первый' });

    expect(next.modules[0].lessons[0]).toMatchObject({ id: 'l1', title: 'Первый (новый)' });
    expect(next.modules[0].lessons[0].blocks[0].content).toEqual({ text: 'новый заголовок' });
    expect(next.modules[0].lessons[1]).toBe(editor.modules[0].lessons[1]);
    expect(next.modules[1]).toBe(editor.modules[1]);
  });

  test('a module is replaced whole, with new lessons; the selection moves to its first lesson when the old one is gone', () => {
    const server = course([
      ['m1', [lesson('n1', 'm1', 'Новый 1', 'a'), lesson('n2', 'm1', 'Новый 2', 'b')]],
      ['m2', [lesson('l3', 'm2', 'Третий', 'то, что на сервере')]],
    ]);
    const target = { kind: 'module' as const, id: 'm1', title: 'Модуль m1' };

    const next = withAccepted(editor, server, target);

    expect(next.modules.map((m) => m.lessons.map((l) => l.id))).toEqual([['n1', 'n2'], ['l3']]);
    expect(next.modules[1]).toBe(editor.modules[1]);
    expect(selectionAfterAccept('l1', next, target)).toBe('n1');
    expect(selectionAfterAccept('l3', next, target)).toBe('l3');
    expect(selectionAfterAccept(null, next, target)).toBeNull();
  });

  test('a quiz changes only the question count of the blocks holding it', () => {
    const quizBlock = (lessonId: string, quizId: string, questionsCount: number) => ({
      id: `${lessonId}-q`,
      type: 'quiz' as const,
      order: 2,
      lessonId,
      content: { quizId, questionsCount },
    });
    const withQuiz = (l: EditorLesson, quizId: string, count: number): EditorLesson => ({
      ...l,
      blocks: [...l.blocks, quizBlock(l.id, quizId, count)],
    });
    const here = course([
      [
        'm1',
        [withQuiz(lesson('l1', 'm1', 'Первый', 'правка здесь'), 'q1', 3), withQuiz(lesson('l2', 'm1', 'Второй', 'x'), 'q2', 4)],
      ],
    ]);
    const server = course([
      [
        'm1',
        [withQuiz(lesson('l1', 'm1', 'Первый', 'на сервере'), 'q1', 6), withQuiz(lesson('l2', 'm1', 'Второй', 'x'), 'q2', 9)],
      ],
    ]);

    const next = withAccepted(here, server, { kind: 'quiz', id: 'q1', title: 'Квиз' });

    expect(next.modules[0].lessons[0].blocks.map((b) => b.content)).toEqual([
      { text: 'правка здесь' },
      { quizId: 'q1', questionsCount: 6 },
    ]);
    expect(next.modules[0].lessons[1]).toBe(here.modules[0].lessons[1]);
  });

  test('a quiz or a node the server no longer has leaves the structure as it is', () => {
    const server = course([['m1', []]]);

    expect(withAccepted(editor, server, { kind: 'quiz', id: 'q1', title: 'Квиз' })).toBe(editor);
    expect(withAccepted(editor, server, { kind: 'lesson', id: 'l9', title: '?' })).toBe(editor);
    expect(withAccepted(editor, server, { kind: 'module', id: 'm9', title: '?' })).toBe(editor);
  });
});
