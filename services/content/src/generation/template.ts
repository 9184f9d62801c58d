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
 * The built-in generator used when no provider is configured. It writes no prose of substance:
 * it lays out a sound structure from the author's own words (topic, audience, goals) for the author
 * to fill in, and the answer says plainly that it is a template.
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
  instructions?: string;
}

const authorNote = (s: Subject) => (s.instructions ? `\n\nПожелание автора учтено при переработке: ${s.instructions}` : '');

function angleBlocks(angle: number, s: Subject): DraftBlock[] {
  const goal = quote(s.goal, 200);
  const topic = quote(s.topic);
  const texts: Record<(typeof ANGLES)[number], string> = {
    'Основные понятия': `Что нужно знать, чтобы достичь цели ${goal} в теме ${topic}.\n\nПлан урока:\n- ключевые термины и как они связаны;\n- почему это важно для аудитории: ${s.audience};\n- где эти понятия встречаются в работе.\n\nЗамените этот план своим материалом.`,
    Практика: `Практическое задание по цели ${goal}.\n\n1. Опишите ситуацию из вашей работы, где это пригодится.\n2. Выполните шаги, разобранные в предыдущем уроке.\n3. Сравните результат с критериями, которые задаст автор курса.\n\nАудитория: ${s.audience}.`,
    'Типичные ошибки': `Ошибки, которые мешают достичь цели ${goal}.\n\n- ошибка 1 — как её заметить и исправить;\n- ошибка 2 — почему она возникает;\n- ошибка 3 — как её предупредить.\n\nДобавьте примеры из практики вашей аудитории (${s.audience}).`,
    'Разбор примера': `Пример по теме ${topic}: как шаг за шагом прийти к цели ${goal}.\n\nИсходная ситуация → решение → результат. Опишите реальный случай, знакомый аудитории: ${s.audience}.`,
    'Инструменты и приёмы': `Инструменты и приёмы для цели ${goal}.\n\n- инструмент или приём;\n- когда его применять;\n- чем он поможет аудитории (${s.audience}).`,
    'Кейсы из работы': `Кейсы по теме ${topic}.\n\nКейс 1: ситуация, вопрос к слушателю, разбор.\nКейс 2: ситуация, вопрос к слушателю, разбор.\n\nЦель урока: ${goal}.`,
    'Чек-лист': `Чек-лист по цели ${goal}:\n\n- [ ] понимаю ключевые понятия;\n- [ ] могу применить их в своей работе;\n- [ ] знаю типичные ошибки и как их избежать.`,
    'Вопросы и ответы': `Частые вопросы аудитории (${s.audience}) о цели ${goal} и ответы на них.\n\nВопрос 1 — ответ.\nВопрос 2 — ответ.\nВопрос 3 — ответ.`,
    Закрепление: `Короткое повторение по цели ${goal}: три главные мысли урока и одно упражнение на закрепление в теме ${topic}.`,
    Самопроверка: `Вопросы для самопроверки по цели ${goal}:\n\n1. Что изменится в вашей работе?\n2. Какие шаги вы сделаете первыми?\n3. Как поймёте, что цель достигнута?`,
  };
  const name = ANGLES[angle % ANGLES.length];
  const media: DraftBlock =
    angle % 2 === 0
      ? { type: 'image', suggestion: clip(`Схема или иллюстрация: ${name.toLowerCase()} — ${s.goal}`, 500) }
      : { type: 'video', suggestion: clip(`Короткое видео (3–5 мин): ${name.toLowerCase()} — ${s.goal}`, 500) };
  return [{ type: 'heading', text: name }, { type: 'text', text: `${texts[name]}${authorNote(s)}` }, media];
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
          { type: 'heading', text: 'Для кого этот курс' },
          {
            type: 'text',
            text: clip(`Курс «${req.topic}» рассчитан на аудиторию: ${req.audience}. Уровень: ${req.level}.`, 20_000),
          },
          { type: 'heading', text: 'Чему вы научитесь' },
          { type: 'text', text: clip(req.goals.map((g, i) => `${i + 1}. ${g}`).join('\n'), 20_000) },
          { type: 'image', suggestion: clip(`Обложка курса «${req.topic}»`, 500) },
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
          { type: 'heading', text: 'Что мы прошли' },
          {
            type: 'text',
            text: clip(
              outline.modules
                .slice(1, last)
                .map((m) => `- ${m.title}`)
                .join('\n'),
              20_000,
            ),
          },
          {
            type: 'text',
            text: req.withQuizzes
              ? 'Дальше — итоговый тест по всем целям курса.'
              : 'Ответьте себе на вопросы: какие цели курса достигнуты и что вы примените в работе первым?',
          },
        ],
      },
    ];
  }
  const goal = goalModules(req.goals, req.modulesCount)[index - 1]?.goals.join('; ') ?? outline.modules[index].title;
  const subject: Subject = { topic: req.topic, audience: req.audience, goal };
  return outline.modules[index].lessonTitles.map((_, i) => goalLesson(i, subject));
}

/* ------------------------------------------------------------------ quizzes */

const uniqueOptions = (options: string[]) => [...new Set(options.map((o) => clip(o, 500)))];

/** A pool of questions about one subject; a quiz takes a window of it, regeneration the next window. */
function questionPool(s: Subject, moduleTitle: string, lessonTitles: string[], otherGoals: string[]): DraftQuestion[] {
  const distractors = [...otherGoals.filter((g) => g !== s.goal), 'Цель, не связанная с темой курса', 'Ни одна из перечисленных'];
  const goalOptions = uniqueOptions([s.goal, ...distractors]).slice(0, 4);
  const lessons = uniqueOptions(lessonTitles).slice(0, 5);
  const pool: DraftQuestion[] = [
    {
      type: 'single_choice',
      question: clip(`Какой цели служит модуль «${moduleTitle}»?`, 2000),
      options: goalOptions,
      correctAnswers: [0],
      explanation: clip(`Модуль построен вокруг цели «${s.goal}».`, 2000),
    },
    {
      type: 'true_false',
      question: clip(`Материал модуля «${moduleTitle}» рассчитан на аудиторию: ${s.audience}.`, 2000),
      options: [],
      correctAnswers: [],
      correctAnswer: 'true',
      explanation: 'Курс написан для этой аудитории, примеры подобраны под её работу.',
    },
    {
      type: 'true_false',
      question: clip(`Чтобы достичь цели «${s.goal}», достаточно прочитать теорию без практики.`, 2000),
      options: [],
      correctAnswers: [],
      correctAnswer: 'false',
      explanation: 'Цель достигается через практику: выполните задания уроков модуля.',
    },
    {
      type: 'multiple_choice',
      question: clip(`Какие уроки входят в модуль «${moduleTitle}»?`, 2000),
      options: uniqueOptions([...lessons, 'Урок, которого нет в курсе']),
      correctAnswers: lessons.map((_, i) => i),
      explanation: clip(`В модуле уроки: ${lessons.join('; ')}.`, 2000),
    },
    {
      type: 'true_false',
      question: clip(`Тема курса — «${s.topic}».`, 2000),
      options: [],
      correctAnswers: [],
      correctAnswer: 'true',
      explanation: clip(`Весь курс посвящён теме «${s.topic}».`, 2000),
    },
    {
      type: 'single_choice',
      question: clip(`Что лучше всего помогает закрепить цель «${s.goal}»?`, 2000),
      options: [
        'Применить изученное в своей работе и разобрать результат',
        'Пропустить практические задания',
        'Выучить определения наизусть',
      ],
      correctAnswers: [0],
      explanation: 'Навык закрепляется применением и разбором, а не заучиванием.',
    },
    {
      type: 'true_false',
      question: clip(`Типичные ошибки по цели «${s.goal}» полезно разбирать на примерах.`, 2000),
      options: [],
      correctAnswers: [],
      correctAnswer: 'true',
      explanation: 'Разбор ошибок на примерах помогает не повторять их в работе.',
    },
  ];
  // A lesson list of one title makes the multiple choice trivially fine; an empty one cannot be asked.
  return pool.filter((q) => q.type !== 'multiple_choice' || lessons.length > 0);
}

const QUIZ_SIZE = 4;

/** `offset` picks the window of the pool; regeneration moves it so the proposal differs. */
export function templateModuleQuiz(
  s: Subject,
  moduleTitle: string,
  lessonTitles: string[],
  otherGoals: string[],
  offset = 0,
): DraftQuiz {
  const pool = questionPool(s, moduleTitle, lessonTitles, otherGoals);
  const questions = Array.from({ length: Math.min(QUIZ_SIZE, pool.length) }, (_, i) => pool[(offset + i) % pool.length]);
  return {
    title: clip(`Проверка знаний: ${moduleTitle}`, 200),
    description: clip(
      offset ? `Вариант ${offset + 1} вопросов по модулю «${moduleTitle}»` : `Вопросы по модулю «${moduleTitle}»`,
      2000,
    ),
    questions,
  };
}

export function templateFinalQuiz(req: GenerateCourseRequest, moduleTitles: string[]): DraftQuiz {
  const questions: DraftQuestion[] = req.goals.slice(0, GENERATION_LIMITS.questionsPerQuiz - 1).map((goal) => ({
    type: 'true_false',
    question: clip(`Цель «${goal}» входит в программу курса.`, 2000),
    options: [],
    correctAnswers: [],
    correctAnswer: 'true',
    explanation: clip(`Этой цели посвящён модуль курса: ${moduleTitles.find((t) => t.includes(clip(goal, 200))) ?? goal}.`, 2000),
  }));
  questions.push({
    type: 'single_choice',
    question: clip(`С какого модуля начинается курс «${req.topic}»?`, 2000),
    options: uniqueOptions([INTRO_TITLE, CLOSING_TITLE, ...moduleTitles.slice(1, 3)]),
    correctAnswers: [0],
    explanation: 'Курс начинается с введения: в нём описаны аудитория и цели.',
  });
  return { title: 'Итоговый тест', description: clip(`Итоговая проверка по курсу «${req.topic}»`, 2000), questions };
}

/** Stage "quizzes" of the template: goal modules and the closing one; the introduction has none. */
export function templateQuiz(req: GenerateCourseRequest, outline: Outline, index: number): DraftQuiz | null {
  const last = outline.modules.length - 1;
  if (!req.withQuizzes || index === 0) return null;
  if (index === last)
    return templateFinalQuiz(
      req,
      outline.modules.map((m) => m.title),
    );
  const plan = goalModules(req.goals, req.modulesCount)[index - 1];
  const module = outline.modules[index];
  return templateModuleQuiz(
    { topic: req.topic, audience: req.audience, goal: plan.goals.join('; ') },
    module.title,
    module.lessonTitles,
    req.goals.filter((g) => !plan.goals.includes(g)),
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
  return goalLesson(start, { ...s, instructions: s.instructions || 'новый вариант' });
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

/** A quiz again: the next window of the question pool, so the questions differ from the current ones. */
export function templateQuizVariant(s: Subject, current: { title: string; questions: DraftQuestion[] }): DraftQuiz {
  const moduleTitle = current.title.replace(/^Проверка знаний:\s*/, '') || s.goal;
  const texts = (qs: DraftQuestion[]) => qs.map((q) => q.question);
  for (let offset = 1; offset <= 7; offset++) {
    const candidate = templateModuleQuiz({ ...s, goal: moduleTitle }, moduleTitle, [], [], offset);
    if (!same(texts(candidate.questions), texts(current.questions))) return { ...candidate, title: current.title };
  }
  return { ...templateModuleQuiz({ ...s, goal: moduleTitle }, moduleTitle, [], [], 2), title: current.title };
}
