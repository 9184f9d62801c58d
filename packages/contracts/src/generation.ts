import { z } from 'zod';
import './zod-ru';
import { requiredText } from './auth';
import { COURSE_LEVEL_SUGGESTIONS } from './content';

/**
 * The course builder (docs/decisions/024): a draft course from a topic, an audience and learning goals, and
 * regeneration of one module, lesson or quiz with a proposal that is accepted or rejected.
 * One definition for the content service (which generates and validates) and the editors (which ask
 * and preview). The generator's output is validated against the draft schemas below, whether it came
 * from a language model or from the built-in template.
 */

export const GENERATION_MSG = {
  topicRequired: 'Укажите тему курса',
  audienceRequired: 'Опишите аудиторию курса',
  goalsRequired: 'Добавьте хотя бы одну цель обучения',
  goalTooLong: 'Цель обучения не должна быть длиннее 300 символов',
  tooManyGoals: 'Не больше 10 целей обучения',
  modulesRange: 'Модулей может быть от 1 до 12',
  lessonsRange: 'Уроков в модуле может быть от 1 до 10',
  jobNotFound: 'Генерация не найдена или уже завершена',
  invalidOutput: 'ИИ вернул ответ, который не удалось разобрать. Ничего не изменено — попробуйте ещё раз.',
  providerTimeout: 'ИИ не ответил вовремя. Ничего не изменено — попробуйте ещё раз.',
  providerFailed: 'Сервис ИИ недоступен. Ничего не изменено — попробуйте позже.',
  rateLimited: 'Слишком много генераций. Попробуйте снова через {minutes} мин.',
  tokenBudgetExhausted: 'Дневной лимит ИИ исчерпан. Попробуйте завтра или соберите курс по шаблону.',
  cancelled: 'Генерация отменена. Ничего не сохранено.',
  /** A replica died (or restarted) twice under the job: it is failed, and nothing it wrote is kept. */
  interrupted: 'Генерация прервана: сервер перезапускался. Ничего не сохранено — попробуйте ещё раз.',
  staleProposal: 'Этот элемент изменился после создания предложения. Сгенерируйте его заново.',
  alreadyFinished: 'Генерация уже завершена',
  notAProposal: 'У этой генерации нет предложения для принятия',
  templateNotice:
    'ИИ-провайдер не настроен: структура собрана по встроенному шаблону, а не ИИ. Отредактируйте материалы в редакторе.',
  aiNotice: 'Курс собран ИИ. Проверьте материалы перед публикацией.',
  /** Said before anything is built (GET /api/generations/config). */
  templateAhead: 'ИИ-провайдер не настроен: структуру соберёт встроенный шаблон, а не ИИ. Материалы вы доработаете в редакторе.',
  aiAhead: 'Структуру и материалы предложит ИИ. Перед публикацией их нужно проверить.',
} as const;

export const GENERATION_STAGES = ['structure', 'lessons', 'quizzes', 'saving', 'done'] as const;
export type GenerationStage = (typeof GENERATION_STAGES)[number];

/** What the progress bar shows under it, stage by stage. */
export const GENERATION_STAGE_LABELS: Record<GenerationStage, string> = {
  structure: 'Строим структуру курса',
  lessons: 'Пишем уроки',
  quizzes: 'Составляем квизы',
  saving: 'Сохраняем черновик',
  done: 'Готово',
};

export const GENERATION_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const GENERATION_KINDS = ['course', 'module', 'lesson', 'quiz'] as const;
export type GenerationKind = (typeof GENERATION_KINDS)[number];

/** Where the draft came from: a configured OpenAI-compatible model, or the built-in template. */
export const GENERATION_SOURCES = ['ai', 'template'] as const;
export type GenerationSource = (typeof GENERATION_SOURCES)[number];

export const GENERATION_LIMITS = {
  goals: 10,
  modules: 12,
  lessonsPerModule: 10,
  questionsPerQuiz: 15,
  blocksPerLesson: 12,
} as const;

/* ---------------------------------------------------------------- requests */

/** A count the author may leave to the generator: a whole number from 1 to `max`, `range` when outside. */
const optionalCount = (max: number, range: string) => z.number().int().min(1, range).max(max, range).optional();

/** POST /api/courses/generate */
export const generateCourseSchema = z
  .object({
    topic: requiredText(GENERATION_MSG.topicRequired, 200),
    audience: requiredText(GENERATION_MSG.audienceRequired, 500),
    goals: z
      .array(z.string().trim().max(300, GENERATION_MSG.goalTooLong))
      .transform((goals) => goals.filter((g) => g.length > 0))
      .pipe(z.array(z.string()).min(1, GENERATION_MSG.goalsRequired).max(GENERATION_LIMITS.goals, GENERATION_MSG.tooManyGoals)),
    level: z.string().trim().max(100).default(COURSE_LEVEL_SUGGESTIONS[0]),
    /** Absent: one module per goal (plus the introduction and the closing assessment). */
    modulesCount: optionalCount(GENERATION_LIMITS.modules, GENERATION_MSG.modulesRange),
    lessonsPerModule: optionalCount(GENERATION_LIMITS.lessonsPerModule, GENERATION_MSG.lessonsRange),
    /** A quiz per module and a closing assessment. */
    withQuizzes: z.boolean().default(true),
  })
  .strict();
export type GenerateCourseInput = z.input<typeof generateCourseSchema>;
export type GenerateCourseRequest = z.output<typeof generateCourseSchema>;

/** POST /api/generations/regenerate: one node, the rest of the course is context only. */
export const regenerateSchema = z
  .object({
    target: z.enum(['module', 'lesson', 'quiz']),
    /** The module's or lesson's block id, or the quiz id. */
    id: z.string().trim().min(1).max(100),
    /** Optional wishes from the author ("больше практики", "проще"). */
    instructions: z.string().trim().max(1000).default(''),
  })
  .strict();
export type RegenerateInput = z.input<typeof regenerateSchema>;

/* ---------------------------------------------------- the draft (generator output) */

const draftText = (max: number) => z.string().trim().min(1).max(max);

/** Starter content blocks a generated lesson may hold; media are placeholders with a suggestion. */
export const draftBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), text: draftText(300) }),
  z.object({ type: z.literal('text'), text: draftText(20_000) }),
  z.object({ type: z.literal('image'), suggestion: draftText(500) }),
  z.object({ type: z.literal('video'), suggestion: draftText(500) }),
  z.object({ type: z.literal('audio'), suggestion: draftText(500) }),
]);
export type DraftBlock = z.infer<typeof draftBlockSchema>;

/** Only the types the learner's player grades and the editor edits well. */
export const DRAFT_QUESTION_TYPES = ['single_choice', 'multiple_choice', 'true_false'] as const;

export const draftQuestionSchema = z
  .object({
    type: z.enum(DRAFT_QUESTION_TYPES),
    question: draftText(2000),
    options: z.array(draftText(500)).max(8).default([]),
    correctAnswers: z.array(z.number().int().min(0)).max(8).default([]),
    correctAnswer: z.enum(['true', 'false']).optional(),
    explanation: draftText(2000),
  })
  .superRefine((q, ctx) => {
    if (q.type === 'true_false') {
      if (!q.correctAnswer) ctx.addIssue({ code: 'custom', path: ['correctAnswer'], message: 'true_false needs correctAnswer' });
      return;
    }
    if (q.options.length < 2) ctx.addIssue({ code: 'custom', path: ['options'], message: 'at least 2 options' });
    if (q.correctAnswers.some((i) => i >= q.options.length))
      ctx.addIssue({ code: 'custom', path: ['correctAnswers'], message: 'index out of range' });
    const expected = q.type === 'single_choice' ? q.correctAnswers.length === 1 : q.correctAnswers.length >= 1;
    if (!expected) ctx.addIssue({ code: 'custom', path: ['correctAnswers'], message: 'wrong number of correct answers' });
  });
export type DraftQuestion = z.infer<typeof draftQuestionSchema>;

export const draftQuizSchema = z.object({
  title: draftText(200),
  description: z.string().trim().max(2000).default(''),
  questions: z.array(draftQuestionSchema).min(1).max(GENERATION_LIMITS.questionsPerQuiz),
});
export type DraftQuiz = z.infer<typeof draftQuizSchema>;

export const draftLessonSchema = z.object({
  title: draftText(200),
  description: z.string().trim().max(2000).default(''),
  blocks: z.array(draftBlockSchema).min(1).max(GENERATION_LIMITS.blocksPerLesson),
});
export type DraftLesson = z.infer<typeof draftLessonSchema>;

export const draftModuleSchema = z.object({
  title: draftText(200),
  description: z.string().trim().max(2000).default(''),
  lessons: z.array(draftLessonSchema).min(1).max(GENERATION_LIMITS.lessonsPerModule),
  quiz: draftQuizSchema.nullable().default(null),
});
export type DraftModule = z.infer<typeof draftModuleSchema>;

export const draftCourseSchema = z.object({
  title: draftText(200),
  description: z.string().trim().max(5000).default(''),
  modules: z
    .array(draftModuleSchema)
    .min(1)
    .max(GENERATION_LIMITS.modules + 2),
});
export type DraftCourse = z.infer<typeof draftCourseSchema>;

/* ---------------------------------------------------------------- answers */

/** A regeneration's proposal: what the node would become if accepted. Nothing changes before that. */
export type GenerationProposal =
  | { kind: 'module'; title: string; description: string; lessons: DraftLesson[] }
  | { kind: 'lesson'; title: string; blocks: DraftBlock[] }
  | { kind: 'quiz'; title: string; questions: DraftQuestion[] };

/** GET /api/generations/{id}, polled by the client every ~700 ms while `status` is running. */
export interface GenerationJob {
  id: string;
  kind: GenerationKind;
  status: GenerationStatus;
  stage: GenerationStage;
  /** 0..100 */
  progress: number;
  source: GenerationSource;
  /** Said plainly in the answer and the interface: template or AI. */
  notice: string;
  /** Russian, set when status is failed or cancelled. */
  error: string | null;
  /** Course jobs: the new course once saved. Node jobs: the course the node belongs to. */
  courseId: string | null;
  /** Node jobs: the module/lesson block id or the quiz id. */
  targetId: string | null;
  /** Node jobs that succeeded: the proposal waiting for accept or reject. */
  proposal: GenerationProposal | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/generations/config: what the dialog tells the author before starting. */
export interface GenerationConfigInfo {
  source: GenerationSource;
  notice: string;
}
