import {
  GENERATION_LIMITS,
  type DraftBlock,
  type DraftLesson,
  type DraftQuestion,
  type DraftQuiz,
  type GenerateCourseRequest,
} from '@portal/contracts';
import type { Outline } from './schemas';

/**
 * The built-in generator used when no provider is configured. A template cannot know the subject,
 * so it writes no teaching text: it lays out an honest skeleton from the author's own words (topic,
 * audience, goals) — headings, short prompts to the author marked «Черновик для автора», and quiz
 * questions left as marked blanks — and the answer says plainly that it is a template. Lessons are
 * saved as drafts. The author's wish for a regeneration is never written into a lesson.
 *
 * Structure: «Введение», then the goal modules, then «Итоговая аттестация» with the final quiz.
 * Goal modules: one per goal; with `modulesCount` that many, goals dealt round-robin (fewer modules
 * than goals → a module serves several goals, titled with them joined by «; »; more modules than
 * goals → goals are reused and the repeats are numbered «(часть 2)»).
 */

export const INTRO_TITLE = 'Введение';
export const CLOSING_TITLE = 'Итоговая аттестация';
const DEFAULT_LESSONS = 2;

export const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);
const quote = (text: string, max = 120) => `«${clip(text, max)}»`;

/** The angles a goal lesson takes, in order; regeneration moves on to the next ones. */
const ANGLES = [
  'Основные понятия',
  'Практика',
  'Типичные ошибки',
  'Разбор примера',
  'Инструменты и приёмы',
  'Кейсы из работы',
  'Чек-лист',
  'Вопросы и ответы',
  'Закрепление',
  'Самопроверка',
] as const;

export interface GoalModulePlan {
  title: string;
  goals: string[];
}

export function goalModules(goals: string[], modulesCount?: number): GoalModulePlan[] {
  const count = modulesCount ?? goals.length;
  if (count >= goals.length) {
    return Array.from({ length: count }, (_, i) => {
      const goal = goals[i % goals.length];
      const part = Math.floor(i / goals.length) + 1;
      return { title: clip(part > 1 ? `${goal} (часть ${part})` : goal, 200), goals: [goal] };
    });
  }
  const groups: string[][] = Array.from({ length: count }, () => []);
  goals.forEach((goal, i) => groups[i % count].push(goal));
  return groups.map((g) => ({ title: clip(g.join('; '), 200), goals: g }));
}

/** What a template text is about: the course's words, never invented facts. */
export interface Subject {
  topic: string;
  audience: string;
  /** What the module is for: the goal(s) it serves, or its title when regenerating. */
  goal: string;
  /**
   * The author's wish for a regeneration. A template cannot act on it, so it is never written into
   * the lesson: whatever lands in a lesson is what learners will read.
   */
  instructions?: string;
}

/**
 * How every prompt the template writes begins. A lesson holds what learners read, and a template
 * knows nothing of the subject: so it writes no teaching text, only prompts to the author, each
 * saying plainly that it is a draft to be replaced.
 */
export const AUTHOR_DRAFT = 'Черновик для автора';
const draft = (text: string) => `${AUTHOR_DRAFT}: ${text}`;

/** The blocks a template writes, each cut to what its kind holds (draftBlockSchema). */
const heading = (text: string): DraftBlock => ({ type: 'heading', text });
const paragraph = (text: string): DraftBlock => ({ type: 'text', text: clip(text, 20_000) });
/** A picture or a video to come: the block holds only a prompt to the author. */
const mediaPrompt = (type: 'image' | 'video', prompt: string): DraftBlock => ({ type, suggestion: clip(draft(prompt), 500) });

/** What each angle asks the author to write. */
const PROMPTS: Record<(typeof ANGLES)[number], (goal: string, s: Subject) => string> = {
  'Основные понятия': (goal, s) =>
    `перечислите ключевые понятия, без которых не достичь цели ${goal}, и объясните, как они связаны. Учтите аудиторию: ${s.audience}.`,
  Практика: (goal, s) =>
    `опишите практическое задание по цели ${goal}: исходную ситуацию из работы аудитории (${s.audience}), шаги и критерии, по которым слушатель проверит результат.`,
  'Типичные ошибки': (goal, s) =>
    `назовите ошибки, которые мешают достичь цели ${goal}: как каждую заметить, почему она возникает и как её исправить. Примеры возьмите из практики аудитории (${s.audience}).`,
  'Разбор примера': (goal, s) =>
    `разберите реальный случай, знакомый аудитории (${s.audience}): исходная ситуация, решение и результат по цели ${goal}.`,
  'Инструменты и приёмы': (goal, s) =>
    `перечислите инструменты и приёмы для цели ${goal}: когда каждый применять и чем он поможет аудитории (${s.audience}).`,
  'Кейсы из работы': (goal, s) =>
    `подготовьте кейсы по цели ${goal} для аудитории (${s.audience}): ситуация, вопрос к слушателю, разбор.`,
  'Чек-лист': (goal, s) =>
    `составьте чек-лист по цели ${goal}: пункты, по которым слушатель (${s.audience}) проверит, что умеет это делать.`,
  'Вопросы и ответы': (goal, s) => `соберите частые вопросы аудитории (${s.audience}) о цели ${goal} и ответьте на них.`,
  Закрепление: (goal, s) =>
    `напишите короткое повторение по цели ${goal}: главные мысли модуля и упражнение на закрепление для аудитории (${s.audience}).`,
  Самопроверка: (goal, s) =>
    `напишите вопросы для самопроверки по цели ${goal}, на которые слушатель (${s.audience}) ответит по материалам модуля.`,
};

function angleBlocks(angle: number, s: Subject): DraftBlock[] {
  const name = ANGLES[angle % ANGLES.length];
  return [
    heading(name),
    paragraph(draft(`${PROMPTS[name](quote(s.goal, 200), s)} Замените этот текст своим материалом.`)),
    angle % 2 === 0
      ? mediaPrompt('image', `добавьте схему или иллюстрацию — ${name.toLowerCase()}, ${s.goal}`)
      : mediaPrompt('video', `добавьте короткое видео (3–5 мин) — ${name.toLowerCase()}, ${s.goal}`),
  ];
}

export const goalLessonTitle = (angle: number, goal: string) => clip(`${ANGLES[angle % ANGLES.length]}: ${goal}`, 200);

export function goalLesson(angle: number, s: Subject): DraftLesson {
  return {
    title: goalLessonTitle(angle, s.goal),
    description: clip(`${ANGLES[angle % ANGLES.length]} по цели «${s.goal}»`, 2000),
    blocks: angleBlocks(angle, s),
  };
}

/** Stage "structure" of the template. */
export function templateOutline(req: GenerateCourseRequest): Outline {
  const lessons = req.lessonsPerModule ?? DEFAULT_LESSONS;
  const goals = goalModules(req.goals, req.modulesCount);
  return {
    title: clip(req.topic, 200),
    description: clip(
      [
        `Курс по теме «${req.topic}» для аудитории: ${req.audience}.`,
        'Цели обучения:',
        ...req.goals.map((g, i) => `${i + 1}. ${g}`),
      ].join('\n'),
      5000,
    ),
    modules: [
      { title: INTRO_TITLE, description: 'О чём курс, для кого он и чему научит.', lessonTitles: ['О курсе'] },
      ...goals.map((m) => ({
        title: m.title,
        description: clip(`Модуль служит цели: ${m.goals.join('; ')}`, 2000),
        lessonTitles: Array.from({ length: lessons }, (_, i) => goalLessonTitle(i, m.goals.join('; '))),
      })),
      {
        title: CLOSING_TITLE,
        description: 'Повторение и итоговая проверка по всем целям курса.',
        lessonTitles: ['Подведение итогов'],
      },
    ],
  };
}

/** Stage "lessons" of the template, module by module (index into the outline). */
export function templateLessons(req: GenerateCourseRequest, outline: Outline, index: number): DraftLesson[] {
  const last = outline.modules.length - 1;
  if (index === 0) {
    return [
      {
        title: 'О курсе',
        description: 'Для кого курс и чему он научит',
        blocks: [
          heading('Для кого этот курс'),
          paragraph(`Курс «${req.topic}» рассчитан на аудиторию: ${req.audience}. Уровень: ${req.level}.`),
          heading('Чему вы научитесь'),
          paragraph(req.goals.map((g, i) => `${i + 1}. ${g}`).join('\n')),
          paragraph(
            draft('расскажите, зачем этот курс слушателям и как пройти его с пользой. Замените этот текст своим материалом.'),
          ),
          mediaPrompt('image', `добавьте обложку курса «${req.topic}»`),
        ],
      },
    ];
  }
  if (index === last) {
    return [
      {
        title: 'Подведение итогов',
        description: 'Что вы узнали и как проверить себя',
        blocks: [
          heading('Что мы прошли'),
          paragraph(
            outline.modules
              .slice(1, last)
              .map((m) => `- ${m.title}`)
              .join('\n'),
          ),
          paragraph(
            req.withQuizzes
              ? 'Дальше — итоговый тест по всем целям курса.'
              : draft('предложите слушателям, как проверить себя по целям курса. Замените этот текст своим материалом.'),
          ),
        ],
      },
    ];
  }
  const goal = goalModules(req.goals, req.modulesCount)[index - 1]?.goals.join('; ') ?? outline.modules[index].title;
  const subject: Subject = { topic: req.topic, audience: req.audience, goal };
  return outline.modules[index].lessonTitles.map((_, i) => goalLesson(i, subject));
}

/* ------------------------------------------------------------------ quizzes */

/*
 * A template cannot ask about a subject it does not know, and questions about the course's own
 * structure («Какой цели служит модуль…?») test nothing. So its questions are blanks: numbered,
 * saying which goal they are for and what to fill in, with placeholder options the author replaces
 * and marks. They keep the quiz valid (the player can run it) until the author writes them.
 */

/** The kinds of blank, in the order a quiz deals them; regeneration starts further along. */
const BLANK_KINDS = ['single_choice', 'true_false', 'multiple_choice'] as const;
type BlankKind = (typeof BLANK_KINDS)[number];

const BLANK_HINTS: Record<BlankKind, string> = {
  single_choice: 'один верный ответ',
  true_false: 'верно или неверно',
  multiple_choice: 'несколько верных ответов',
};

export const blankQuestionText = (n: number) => `Вопрос ${n} — заполните формулировку`;

function blankQuestion(n: number, kind: BlankKind, goal: string): DraftQuestion {
  const question = clip(`${blankQuestionText(n)} (${BLANK_HINTS[kind]}; цель «${goal}»)`, 2000);
  const explanation = draft('отметьте верный ответ и напишите пояснение к нему.');
  if (kind === 'true_false')
    return { type: 'true_false', question, options: [], correctAnswers: [], correctAnswer: 'true', explanation };
  return {
    type: kind,
    question,
    options: [1, 2, 3, 4].map((i) => `Вариант ответа ${i} — заполните`),
    correctAnswers: kind === 'single_choice' ? [0] : [0, 1],
    explanation,
  };
}

const QUIZ_SIZE = 4;

/** `offset` turns the kinds of blank round; regeneration moves it so the proposal differs. */
export function templateModuleQuiz(s: Subject, moduleTitle: string, offset = 0): DraftQuiz {
  const questions = Array.from({ length: QUIZ_SIZE }, (_, i) =>
    blankQuestion(i + 1, BLANK_KINDS[(offset + i) % BLANK_KINDS.length], s.goal),
  );
  return {
    title: clip(`Проверка знаний: ${moduleTitle}`, 200),
    description: clip(draft(`впишите вопросы по модулю «${moduleTitle}» и отметьте верные ответы.`), 2000),
    questions,
  };
}

/** The final test: a blank for each goal of the course (as many as a quiz may hold). */
export function templateFinalQuiz(req: GenerateCourseRequest): DraftQuiz {
  const questions = req.goals
    .slice(0, GENERATION_LIMITS.questionsPerQuiz)
    .map((goal, i) => blankQuestion(i + 1, BLANK_KINDS[i % BLANK_KINDS.length], goal));
  return {
    title: 'Итоговый тест',
    description: clip(draft(`впишите итоговые вопросы по целям курса «${req.topic}» и отметьте верные ответы.`), 2000),
    questions,
  };
}

/** Stage "quizzes" of the template: goal modules and the closing one; the introduction has none. */
export function templateQuiz(req: GenerateCourseRequest, outline: Outline, index: number): DraftQuiz | null {
  const last = outline.modules.length - 1;
  if (!req.withQuizzes || index === 0) return null;
  if (index === last) return templateFinalQuiz(req);
  const plan = goalModules(req.goals, req.modulesCount)[index - 1];
  return templateModuleQuiz(
    { topic: req.topic, audience: req.audience, goal: plan.goals.join('; ') },
    outline.modules[index].title,
  );
}

/* ------------------------------------------------------------- regeneration */

const angleOf = (title: string) => ANGLES.findIndex((a) => title.startsWith(`${a}:`));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A lesson again, from the next angle on: visibly different from what it is now. */
export function templateLessonVariant(
  s: Subject,
  current: { title: string; blocks: DraftBlock[]; siblingTitles?: string[] },
): DraftLesson {
  const start = angleOf(current.title) + 1;
  const taken = new Set(current.siblingTitles ?? []);
  const fresh = (candidate: DraftLesson) =>
    !same({ t: candidate.title, b: candidate.blocks }, { t: current.title, b: current.blocks });
  // An angle no neighbour has taken first; then any that differs from the lesson as it is.
  for (const allowTaken of [false, true])
    for (let i = 0; i < ANGLES.length; i++) {
      const candidate = goalLesson(start + i, s);
      if (fresh(candidate) && (allowTaken || !taken.has(candidate.title))) return candidate;
    }
  // Every angle reads as the lesson does now (an author who copied them all): a numbered variant.
  const lesson = goalLesson(start, s);
  return { ...lesson, title: clip(`${lesson.title} (вариант 2)`, 200) };
}

const MODULE_DESCRIPTIONS = [
  (goal: string) => `Модуль служит цели: ${goal}`,
  (goal: string) => `Как достичь цели «${goal}»: понятия, практика и разбор ошибок.`,
  (goal: string) => `Цель модуля — ${goal}. Уроки ведут от основ к применению в работе.`,
];

/** A module again: the same title, another description and lessons from the angles not used yet. */
export function templateModuleVariant(
  s: Subject,
  current: { title: string; description: string; lessons: Array<{ title: string }> },
): { title: string; description: string; lessons: DraftLesson[] } {
  const used = current.lessons.map((l) => angleOf(l.title));
  const start = Math.max(-1, ...used) + 1;
  const count = Math.min(Math.max(current.lessons.length, 1), GENERATION_LIMITS.lessonsPerModule);
  const lessons = Array.from({ length: count }, (_, i) => goalLesson(start + i, s));
  const descriptions = MODULE_DESCRIPTIONS.map((d) => clip(d(s.goal), 2000));
  const description = descriptions.find((d) => d !== current.description) ?? descriptions[0];
  return { title: current.title, description, lessons };
}

/** A quiz again: the kinds of blank turned round, so the questions differ from the current ones. */
export function templateQuizVariant(s: Subject, current: { title: string; questions: DraftQuestion[] }): DraftQuiz {
  const moduleTitle = current.title.replace(/^Проверка знаний:\s*/, '') || s.goal;
  const texts = (qs: DraftQuestion[]) => qs.map((q) => q.question);
  for (let offset = 1; offset <= BLANK_KINDS.length; offset++) {
    const candidate = templateModuleQuiz({ ...s, goal: moduleTitle }, moduleTitle, offset);
    if (!same(texts(candidate.questions), texts(current.questions))) return { ...candidate, title: current.title };
  }
  return { ...templateModuleQuiz({ ...s, goal: moduleTitle }, moduleTitle, 1), title: current.title };
}
