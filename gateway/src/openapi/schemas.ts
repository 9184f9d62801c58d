import { z } from 'zod';
import {
  ACTIVITY_SCOPES,
  BLOCK_RECORD_TYPES,
  COURSE_STATUSES,
  DASHBOARD_FIGURES,
  DASHBOARD_SOURCES,
  GENERATION_KINDS,
  GENERATION_SOURCES,
  GENERATION_STAGES,
  GENERATION_STATUSES,
  SHOW_CORRECT_ANSWERS,
  SHOW_EXPLANATIONS,
  CONTENT_BLOCK_TYPES,
  draftBlockSchema,
  draftLessonSchema,
  draftQuestionSchema,
  playerQuestionSchema,
  questionSchema,
  quizSettingsSchema,
  quizDrawSchema,
  type BankPage,
  type BankQuestion,
  type Course,
  type CourseAuthors,
  type CourseOutline,
  type CourseSummary,
  type DashboardStats,
  type GenerationConfigInfo,
  type GenerationJob,
  type LearnerQuiz,
  type Quiz,
  type QuizCard,
  type QuizSummary,
  type StartedAttempt,
  type UploadedFile,
  type BlockRecord,
  type BlockSummary,
} from '@portal/contracts';
import { conforms, pageFields } from '@portal/service-kit';
import { auditRecordSchema } from '@portal/svc-audit/routes/api';
import { attemptSummarySchema } from '@portal/svc-progress/routes/api';

/**
 * The wire shapes of the answers. The contracts declare them as TypeScript interfaces; here each is
 * written once as a zod schema for the document, and `conforms` below fails the build when a schema
 * and its interface part ways. The answer-validation test checks real answers against them.
 */

// Answer schemas that must describe a contracts interface exactly (the kit's check, shared with the services).
export { conforms };
// An attempt's shapes are written once, beside progress's declared routes (results, grading); the attempts' paths share them.
export { attemptDetailSchema } from '@portal/svc-progress/routes/api';

const isoDate = z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' });
/** A record written with optimistic concurrency: its version and when it was made and last changed. */
const versionedRecord = { version: z.number().int(), createdAt: isoDate, updatedAt: isoDate };
/** What an id of a record looks like, for examples. */
export const EXAMPLE_ID = '6743a1f0c2b5e80012ab34cd';
const id = z.string().meta({ example: EXAMPLE_ID });
const courseStatus = z.enum(COURSE_STATUSES);

/** The one shape of every refusal: a Russian message a person can act on, and the status again. */
export const errorSchema = z
  .object({
    message: z.string().meta({ description: 'Текст для человека, по-русски', example: 'Недостаточно прав для этого действия' }),
    statusCode: z.number().int().meta({ example: 403 }),
    field: z.string().optional().meta({ description: 'Поле запроса, к которому относится ошибка', example: 'email' }),
  })
  .meta({ id: 'Error', description: 'Ошибка: `{message, statusCode}`, сообщение по-русски' });

export { pageFields, pageOf } from '@portal/service-kit';

/* --------------------------------------------------------------- content */

const courseSummaryShape = {
  id,
  title: z.string().meta({ example: 'Охрана труда' }),
  description: z.string(),
  price: z.number(),
  duration: z.number(),
  level: z.string().meta({ example: 'Начальный' }),
  isPublished: z.boolean(),
  status: courseStatus,
  ...versionedRecord,
  isFavorite: z.boolean(),
  isStarted: z.boolean(),
  modulesCount: z.number().int(),
  lessonsCount: z.number().int(),
  ownerId: z.string().nullable(),
  coAuthorIds: z.array(z.string()),
  archived: z.boolean(),
};
export const courseSummarySchema = conforms<CourseSummary>().as(z.object(courseSummaryShape).meta({ id: 'CourseSummary' }));

/** A stored content block of a lesson, as the lesson answers it; its content is checked by type on the way in. */
const contentBlock = z
  .object({
    id: z.string(),
    type: z.enum(CONTENT_BLOCK_TYPES),
    order: z.number().int(),
    lessonId: z.string(),
    content: z.record(z.string(), z.unknown()).meta({
      description:
        'Поля блока по его типу: text, src, alt, quizId… У текстового блока text — простой текст, html (необязательно) — форматированный текст: только p, br, strong, em, u, s, h2–h4, ul, ol, li, a (http, https, mailto), blockquote; остальное сервер удаляет, а text выводит из html.',
    }),
  })
  .meta({ id: 'ContentBlock' });

/** What a module and a lesson of a course both are: a titled, ordered, versioned part of it. */
const coursePartShape = {
  id,
  title: z.string(),
  description: z.string(),
  status: courseStatus,
  courseId: z.string(),
  position: z.number().int(),
  ...versionedRecord,
};
const lessonSchema = z.object({ ...coursePartShape, moduleId: z.string(), blocks: z.array(contentBlock) }).meta({ id: 'Lesson' });
const moduleSchema = z.object({ ...coursePartShape, lessons: z.array(lessonSchema) }).meta({ id: 'Module' });

// The content blocks are checked on their way in; their output type is wider than ContentBlock's.
export const courseSchema = z.object({ ...courseSummaryShape, modules: z.array(moduleSchema) }).meta({ id: 'Course' });
conforms<Pick<Course, Exclude<keyof Course, 'modules'>>>().as(z.object(courseSummaryShape));

const lessonOutlineSchema = z.object({
  id,
  title: z.string(),
  status: courseStatus,
  moduleId: z.string(),
  position: z.number().int(),
  blocksCount: z.number().int(),
  hasQuiz: z.boolean(),
  hasScorm: z.boolean(),
  version: z.number().int(),
  updatedAt: isoDate,
  retakeSince: isoDate
    .optional()
    .meta({ description: 'Опубликованная версия потребовала пройти урок заново: прохождения до этой даты не считаются' }),
});
export const courseOutlineSchema = conforms<CourseOutline>().as(
  z
    .object({
      ...courseSummaryShape,
      modules: z.array(
        z.object({
          id,
          title: z.string(),
          description: z.string(),
          position: z.number().int(),
          status: courseStatus,
          version: z.number().int(),
          lessons: z.array(lessonOutlineSchema),
        }),
      ),
    })
    .meta({ id: 'CourseOutline' }),
);

export const archivedCourseSchema = z
  .object({ archived: z.literal(true), message: z.string(), course: courseSummarySchema })
  .meta({ id: 'CourseArchived', description: 'Курс с попытками учащихся не удаляется, а скрывается в архив' });

const author = z.object({ id, email: z.string(), fullName: z.string() });
export const courseAuthorsSchema = conforms<CourseAuthors>().as(
  z.object({ owner: author.nullable(), coAuthors: z.array(author) }).meta({ id: 'CourseAuthors' }),
);

const blockShape = {
  id,
  type: z.enum(BLOCK_RECORD_TYPES),
  title: z.string().meta({ example: 'урок_1' }),
  content: z.string().meta({ description: 'Модуль: описание. Урок: JSON-строка списка блоков содержимого' }),
  description: z.string(),
  courseId: z.string(),
  moduleId: z.string().nullable(),
  position: z.number().int(),
  status: courseStatus,
  ...versionedRecord,
};
export const blockRecordSchema = conforms<BlockRecord>().as(z.object(blockShape).meta({ id: 'BlockRecord' }));

const { content: _content, description: _description, ...summaryShape } = blockShape;
export const blockSummarySchema = conforms<BlockSummary>().as(
  z
    .object({
      ...summaryShape,
      description: z.string().optional(),
      blocksCount: z.number().int().optional(),
      hasQuiz: z.boolean().optional(),
      hasScorm: z.boolean().optional(),
    })
    .meta({ id: 'BlockSummary' }),
);

const quizShape = {
  id,
  title: z.string().meta({ example: 'Итоговый тест' }),
  description: z.string(),
  courseId: z.string().nullable().optional(),
  settings: quizSettingsSchema,
  draws: z.array(quizDrawSchema).meta({ description: 'Вопросы из банка курса, по N на метку в каждой попытке' }),
  ...versionedRecord,
};
export const quizSchema = conforms<Quiz>().as(
  z.object({ ...quizShape, questions: z.array(questionSchema) }).meta({ id: 'Quiz' }),
);

const learnerQuestion = playerQuestionSchema.extend({ order: z.number().int(), points: z.number().int() });
export const learnerQuizSchema = conforms<LearnerQuiz>().as(
  z.object({ ...quizShape, questions: z.array(learnerQuestion) }).meta({
    id: 'LearnerQuiz',
    description: 'Квиз для учащегося: без правильных ответов и пояснений',
  }),
);

export const quizSummarySchema = conforms<QuizSummary>().as(
  z
    .object({
      id,
      title: z.string(),
      description: z.string(),
      courseId: z.string().nullable(),
      questionsCount: z.number().int(),
      settings: quizSettingsSchema,
      draws: z.array(quizDrawSchema),
      ...versionedRecord,
    })
    .meta({ id: 'QuizSummary' }),
);

export const uploadedFileSchema = conforms<UploadedFile>().as(
  z
    .object({
      url: z.string().meta({ example: '/api/files/0b6f…-лекция.mp4' }),
      name: z.string(),
      originalName: z.string().meta({ example: 'лекция.mp4' }),
      size: z.number().int(),
      mimeType: z.string().meta({ example: 'video/mp4' }),
    })
    .meta({ id: 'UploadedFile' }),
);

const proposal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('module'), title: z.string(), description: z.string(), lessons: z.array(draftLessonSchema) }),
  z.object({ kind: z.literal('lesson'), title: z.string(), blocks: z.array(draftBlockSchema) }),
  z.object({ kind: z.literal('quiz'), title: z.string(), questions: z.array(draftQuestionSchema) }),
]);
export const generationJobSchema = conforms<GenerationJob>().as(
  z
    .object({
      id,
      kind: z.enum(GENERATION_KINDS),
      status: z.enum(GENERATION_STATUSES),
      stage: z.enum(GENERATION_STAGES),
      progress: z.number().meta({ description: '0..100' }),
      source: z.enum(GENERATION_SOURCES),
      notice: z.string(),
      error: z.string().nullable(),
      courseId: z.string().nullable(),
      targetId: z.string().nullable(),
      proposal: proposal.nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    })
    .meta({ id: 'GenerationJob' }),
);

export const generationConfigSchema = conforms<GenerationConfigInfo>().as(
  z.object({ source: z.enum(GENERATION_SOURCES), notice: z.string() }).meta({ id: 'GenerationConfig' }),
);

/* -------------------------------------------------------------- progress */

const quizInfo = z
  .object({
    id,
    title: z.string(),
    description: z.string(),
    questionsCount: z.number().int(),
    passingScore: z.number(),
    maxAttempts: z.number().int(),
    timeLimit: z.number().nullable().meta({ description: 'Минуты; null — без ограничения' }),
    showExplanations: z.enum(SHOW_EXPLANATIONS),
    showCorrectAnswers: z.enum(SHOW_CORRECT_ANSWERS),
  })
  .meta({ id: 'QuizInfo' });

export const quizCardSchema = conforms<QuizCard>().as(
  z
    .object({
      quiz: quizInfo,
      attemptsUsed: z.number().int(),
      latest: attemptSummarySchema.nullable(),
      best: attemptSummarySchema.nullable(),
      inProgress: z.object({ id: z.string(), deadline: isoDate.nullable() }).nullable(),
      canStart: z.boolean(),
      blockedReason: z.string().nullable(),
    })
    .meta({ id: 'QuizCard' }),
);

export const startedAttemptSchema = conforms<StartedAttempt>().as(
  z
    .object({
      attempt: attemptSummarySchema,
      quiz: quizInfo,
      questions: z.array(playerQuestionSchema),
      deadline: isoDate.nullable(),
      serverNow: isoDate,
      resumed: z.boolean(),
    })
    .meta({ id: 'StartedAttempt' }),
);

/* --------------------------------------------------------------- gateway */

/**
 * An object with every one of `keys`, each a `value`: written out as properties (a record keyed by an
 * enum leaves them undescribed, which lint and generated clients read as an open map).
 */
const keyedBy = <K extends string, V extends z.ZodType>(keys: readonly K[], value: V) =>
  z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, V>);

const figure = z.number().int().nullable();
const dayCount = z.object({ date: z.string().meta({ example: '2026-11-24' }), count: z.number().int() });
export const dashboardStatsSchema = conforms<DashboardStats>().as(
  z
    .object({
      totalCourses: figure,
      activeCourses: figure,
      totalStudents: figure,
      completedCourses: figure,
      organizations: figure,
      contacts: figure,
      change: keyedBy(DASHBOARD_FIGURES, z.string().nullable()),
      lowerBounds: z
        .array(z.enum(DASHBOARD_FIGURES))
        .meta({ description: 'Показатели, посчитанные до 10 000 и остановленные: их больше («10 000+»)' }),
      recentActivity: z.array(auditRecordSchema),
      activityByDay: z.array(dayCount),
      activityScope: z.enum(ACTIVITY_SCOPES).meta({
        description: 'all — всё (ADMIN), courses — курсы куратора и их учащиеся, own — только свои действия',
      }),
      partial: z.boolean(),
      unavailable: z.array(z.enum(DASHBOARD_SOURCES)),
    })
    .meta({ id: 'DashboardStats' }),
);

const serviceState = z.enum(['ready', 'not ready', 'down']);
export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    services: keyedBy(DASHBOARD_SOURCES, serviceState),
    replicas: z.record(z.string(), z.record(z.string(), serviceState)).optional(),
  })
  .meta({ id: 'Health' });

export const probeSchema = z.object({ status: z.literal('ok'), service: z.literal('gateway') }).meta({ id: 'Probe' });

/* ---------------------------------------------------------------- question banks and item analysis */

export const bankQuestionSchema = conforms<BankQuestion>().as(
  z
    .object({
      id,
      courseId: z.string(),
      tags: z.array(z.string()).meta({ example: ['охрана труда'] }),
      question: questionSchema,
      ...versionedRecord,
    })
    .meta({ id: 'BankQuestion', description: 'Вопрос банка курса (с правильным ответом: только для авторов)' }),
);

export const bankPageSchema = conforms<BankPage>().as(
  z
    .object({
      ...pageFields(bankQuestionSchema),
      tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
    })
    .meta({ id: 'BankPage' }),
);
