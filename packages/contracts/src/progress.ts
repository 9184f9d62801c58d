import { z } from 'zod';
import './zod-ru';
import { PROGRESS_MSG, REVIEW_MSG } from './progressRules';
import { entityIdField, type LessonOutline } from './content';
import type { InternalQuiz } from './editor';
import { ROLES } from './roles';
import { CERTIFICATE_MSG, CERTIFICATE_NUMBER } from './certificates';
import { exportFields } from './exportQuery';
import { formatMessage } from './messages';
import { pagingFields, type Page } from './paging';
import {
  DEFAULT_SHOW_CORRECT_ANSWERS,
  QUESTION_TYPES,
  type AnswerValue,
  type PlayerQuestion,
  type QuestionType,
  type Quiz,
  type ShowCorrectAnswers,
  type ShowExplanations,
} from './quiz';

/**
 * Learning: study mode, lesson completion, quiz attempts graded on the server, results and their
 * CSV. One definition of the texts, inputs and answers.
 */

/* ------------------------------------------------------------------ texts */

// Who studies and who sees everyone's results are defined with the roles (the header's navigation reads them).
export { RESULTS_ALL_ROLES, STUDY_ROLES } from './roles';

/** The question types the player can show: all fourteen (the quiz engine's). */
export const PLAYER_QUESTION_TYPES: readonly QuestionType[] = QUESTION_TYPES;

/* ----------------------------------------------------------------- inputs */

/** POST /progress/lesson/{lessonId}/complete. */
export const lessonCompleteSchema = z.object({ courseId: entityIdField('courseId') });
export type LessonCompleteInput = z.input<typeof lessonCompleteSchema>;

const quizIdField = z.string({ error: 'Укажите квиз (quizId)' }).trim().min(1, 'Укажите квиз (quizId)').max(100);

/** POST /attempts: a quiz is taken where it stands, in a lesson of a course. */
export const attemptStartSchema = z.object({
  quizId: quizIdField,
  courseId: entityIdField('courseId'),
  lessonId: entityIdField('lessonId'),
});
export type AttemptStartInput = z.input<typeof attemptStartSchema>;

/** A principal's field as another service passes it on (ids of people are the auth service's). */
const personIdField = z.string().trim().min(1).max(100);

/**
 * POST /internal/attempt-starts (the content service, for the progress service): one question for
 * an attempt's start, with the learner as data, never their token. `drawSeed`: the attempt's seed
 * (its draw from the bank); `linkScope`: a candidate's link session, which reaches its one quiz only;
 * `noteActivity`: no record of the learner in the course yet (content notes their first one,
 * docs/decisions/093, when the start is admitted).
 */
export const internalAttemptStartSchema = attemptStartSchema.extend({
  drawSeed: z.string().regex(/^[0-9a-f]{8,64}$/),
  learner: z.object({
    id: personIdField,
    role: z.enum(ROLES),
    linkScope: z
      .object({ linkId: personIdField, courseId: personIdField, lessonId: personIdField, quizId: personIdField })
      .optional(),
  }),
  noteActivity: z.boolean().default(false),
});
export type InternalAttemptStartInput = z.input<typeof internalAttemptStartSchema>;

/**
 * Its answer: the whole quiz as the learner takes it (the published version's for a learner of a
 * course with one, pinned; with the attempt's draw), the course, and the lesson's outline entry
 * (`retakeSince`: the attempts before it do not count). Refused with 404 as the learner's own reads
 * would be: no such quiz, course or lesson for them, or the lesson does not hold the quiz.
 */
export interface InternalAttemptStart {
  quiz: InternalQuiz;
  course: { id: string; title: string };
  lesson: LessonOutline;
}

/**
 * GET /internal/courses/{id}/outline (the content service): the outline as this person reads it,
 * asked with the person as data. No personal flags: isFavorite and isStarted are false.
 */
export const internalOutlineQuerySchema = z.object({ userId: personIdField, role: z.enum(ROLES) });
export type InternalOutlineQuery = z.input<typeof internalOutlineQuerySchema>;

/**
 * An answer as the player sends it, in the indexes it showed (the server maps them back):
 * single_choice a number; multiple_choice and ordering numbers; true_false, short_answer,
 * long_answer and numeric text; fill_blanks texts; matching {left index: right index}; matrix
 * {row: column}; image_labels {point: label}; scale a point index; hotspot {x, y}; file_upload a /api/files/ path.
 */
export const answerValueSchema = z.union([
  z.number().finite(),
  z.array(z.number().int().min(0).max(1000)).max(100),
  z.string().max(10_000),
  z.array(z.string().max(2000)).max(100),
  z.record(z.string().regex(/^\d{1,3}$/), z.number().int().min(0).max(1000)),
  // hotspot: the point chosen, in % of the image (the engine refuses one off the image).
  z.strictObject({ x: z.number().finite(), y: z.number().finite() }),
  z.null(),
]);

export const attemptAnswerSchema = z.object({
  questionId: z.string().min(1).max(100),
  answer: answerValueSchema,
  /** Seconds the learner spent on the question. */
  timeSpent: z
    .number()
    .min(0)
    .max(7 * 24 * 3600)
    .default(0),
});
export type AttemptAnswerInput = z.input<typeof attemptAnswerSchema>;

export const attemptSubmitSchema = z.object({
  answers: z
    .array(attemptAnswerSchema)
    .max(500)
    .default([])
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      for (const [i, a] of list.entries()) {
        if (seen.has(a.questionId))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'questionId'],
            message: formatMessage(PROGRESS_MSG.answerDuplicate, { id: a.questionId }),
          });
        seen.add(a.questionId);
      }
    }),
});
export type AttemptSubmitInput = z.input<typeof attemptSubmitSchema>;

/**
 * PUT /attempts/{id}/answers: the answers given so far, saved as the learner goes (docs/decisions/095),
 * in the submit's own terms and with its checks (one answer a question, the order shown).
 */
export const attemptAnswersSaveSchema = attemptSubmitSchema;
export type AttemptAnswersSaveInput = z.input<typeof attemptAnswersSaveSchema>;

/** What the server kept of an unfinished attempt's answers, and when it kept them. */
export interface SavedAnswers {
  answers: Array<{ questionId: string; answer: AnswerValue; timeSpent: number }>;
  savedAt: string;
}

/** The answer to saving: when the server kept them (the player's «Ответы сохранены»). */
export interface AttemptAnswersSaved {
  savedAt: string;
}

export const RESULT_STATUSES = ['passed', 'failed'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];
export type AttemptStatus = ResultStatus | 'in_progress';
/**
 * What the results screen, its filter, its counts and its export call an attempt: «На проверке»
 * (answers wait for a person, whatever the provisional score says) is its own, beside passed and failed.
 */
export const RESULT_FILTER_STATUSES = ['passed', 'failed', 'pending'] as const;
export type ResultFilterStatus = (typeof RESULT_FILTER_STATUSES)[number];

const periodDay = (error: string) => z.iso.date({ error }).optional();

const resultsFilter = {
  search: z.string().trim().max(200).optional(),
  status: z
    .enum(['all', ...RESULT_FILTER_STATUSES], { error: 'Статус должен быть all, passed, failed или pending' })
    .default('all')
    .transform((v) => (v === 'all' ? undefined : v)),
  quizId: z.string().trim().min(1).max(100).optional(),
  courseId: z.string().trim().min(1).max(100).optional(),
  /** The period the attempt was finished in: calendar days in Moscow, both included. */
  from: periodDay('Начало периода — дата в формате ГГГГ-ММ-ДД'),
  to: periodDay('Конец периода — дата в формате ГГГГ-ММ-ДД'),
  /** Staff may narrow to one person; a learner may name only themself. */
  userId: z.string().trim().min(1).max(100).optional(),
};

/** GET /results. */
const periodInOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const periodMessage = { message: 'Начало периода не может быть позже его конца', path: ['to'] };

export const resultsQuerySchema = z
  .object({
    ...resultsFilter,
    ...pagingFields(20),
  })
  .refine(periodInOrder, periodMessage);
export type ResultsQuery = z.input<typeof resultsQuerySchema>;

/** GET /results/export: the same filter, every row (CSV or XLSX), dates in the reader's time zone. */
export const resultsExportQuerySchema = z
  .object({
    ...resultsFilter,
    ...exportFields,
  })
  .refine(periodInOrder, periodMessage);

/** The instant a Moscow calendar day starts (Moscow keeps UTC+3 all year since 2014). */
export const moscowDayStart = (day: string): Date => new Date(`${day}T00:00:00+03:00`);

/* ---------------------------------------------------------------- answers */

/** Completed-lesson record: a learner, a lesson, when. */
export interface LessonCompletion {
  lessonId: string;
  courseId: string;
  completedAt: string;
}

export interface ModuleProgress {
  moduleId: string;
  totalLessons: number;
  completedLessons: number;
  isCompleted: boolean;
}

/** GET /progress/course/{courseId}. */
export interface CourseProgress {
  courseId: string;
  totalLessons: number;
  completedLessons: number;
  /** Completed over all lessons, over 1 when there are none, rounded. */
  percentage: number;
  completedLessonIds: string[];
  modules: ModuleProgress[];
  isCompleted: boolean;
  /** When the course was first completed (kept even if lessons are added later). */
  completedAt: string | null;
  /** Lessons not complete whose quiz answer waits for a person's grade («ожидает проверки»). */
  awaitingReviewLessonIds: string[];
  /** Lessons not complete whose quiz was tried (started or not passed), and none waits for a grade. */
  attemptedLessonIds: string[];
}

/** POST /progress/lesson/{lessonId}/complete. */
export interface LessonCompleteResult {
  lessonId: string;
  courseId: string;
  completedAt: string;
  /** False when it was completed before: completing is idempotent. */
  created: boolean;
  progress: CourseProgress;
}

/** One element of GET /progress/my. */
export interface MyCourseProgress {
  courseId: string;
  completedLessons: string[];
  lastCompletedAt: string;
  isCompleted: boolean;
  completedAt: string | null;
}

/** What a learner's browser is told about a quiz before taking it: never the answers. */
export interface QuizInfo {
  id: string;
  title: string;
  description: string;
  questionsCount: number;
  passingScore: number;
  maxAttempts: number;
  /** Minutes; null for no limit. */
  timeLimit: number | null;
  showExplanations: ShowExplanations;
  showCorrectAnswers: ShowCorrectAnswers;
}

/**
 * A quiz's card for a learner (its settings, never its questions): the progress service's quiz card,
 * and the author's preview in the player. A quiz stored before «Показывать правильные ответы» existed
 * has the default.
 */
export const quizInfoOf = (
  quiz: Pick<Quiz, 'id' | 'title' | 'questions'> & {
    description?: string | null;
    settings: Omit<Quiz['settings'], 'showCorrectAnswers'> & { showCorrectAnswers?: ShowCorrectAnswers };
  },
): QuizInfo => ({
  id: quiz.id,
  title: quiz.title,
  description: quiz.description ?? '',
  questionsCount: quiz.questions.length,
  passingScore: quiz.settings.passingScore,
  maxAttempts: quiz.settings.maxAttempts,
  timeLimit: quiz.settings.timeLimit && quiz.settings.timeLimit > 0 ? quiz.settings.timeLimit : null,
  showExplanations: quiz.settings.showExplanations,
  showCorrectAnswers: quiz.settings.showCorrectAnswers ?? DEFAULT_SHOW_CORRECT_ANSWERS,
});

/** A question as the player shows it: the quiz engine's learner view (options in the order shown, no answers). */
export type { PlayerQuestion } from './quiz';

export interface AttemptSummary {
  id: string;
  userId: string;
  userName: string;
  quizId: string;
  quizTitle: string;
  courseId: string;
  courseTitle: string;
  lessonId: string;
  /** The published version of the course it was taken on (docs/decisions/093); absent for a course without versions. */
  courseVersion?: number;
  attemptNumber: number;
  /**
   * 'submitted' is only ever presented, never stored: a candidate's own finished attempt when their
   * link hides the result (`resultHidden`), so neither the verdict nor the score reaches them.
   */
  status: AttemptStatus | 'submitted';
  score: number;
  maxScore: number;
  percentage: number;
  passingScore: number;
  startedAt: string;
  completedAt: string | null;
  /** Minutes from start to end, one decimal. */
  durationMinutes: number | null;
  /** Answers waiting for a curator («на проверке» while above 0; the score is provisional). */
  pendingReviews?: number;
  /** Taken by a candidate «по ссылке» (candidate testing by link). */
  viaLink?: boolean;
  /** The candidate's own view of an attempt whose link hides the result: no verdict, score or answers. */
  resultHidden?: boolean;
}

/** GET /attempts/quiz/{quizId}: what the quiz card in a lesson shows. */
export interface QuizCard {
  quiz: QuizInfo;
  attemptsUsed: number;
  latest: AttemptSummary | null;
  /**
   * The best finished attempt (highest percentage; a pass before a fail; the earlier of equals): what
   * the card shows, so a later attempt that was abandoned never hides an earlier pass.
   */
  best: AttemptSummary | null;
  /** An attempt that was started and not yet submitted: starting again resumes it. */
  inProgress: { id: string; deadline: string | null } | null;
  canStart: boolean;
  /** Why starting is refused, when it is. */
  blockedReason: string | null;
}

/** POST /attempts: the attempt (new or resumed) and the questions to show. */
export interface StartedAttempt {
  attempt: AttemptSummary;
  quiz: QuizInfo;
  questions: PlayerQuestion[];
  /** When the time limit ends (null: no limit); the server's clock. */
  deadline: string | null;
  serverNow: string;
  resumed: boolean;
  /** A resumed attempt's answers as the server last kept them (another device's, say); absent when none were saved. */
  savedAnswers?: SavedAnswers;
}

export interface QuestionResult {
  questionId: string;
  type: QuestionType;
  question: string;
  /** The learner's answer as text; null when unanswered (or answered too late). */
  answerText: string | null;
  isCorrect: boolean;
  /** Only when the answer was wrong and the quiz's «Показывать правильные ответы» allows it now. */
  correctAnswerText: string | null;
  explanation: string | null;
  timeSpent: number;
  /** long_answer and file_upload: the person's score and comment once graded (null while waiting). */
  review?: AnswerReview | null;
}

/** GET /attempts/{id} and the answer to submitting: the attempt with per-question results. */
export interface AttemptDetail extends AttemptSummary {
  showExplanations: ShowExplanations;
  /** False when the quiz keeps its per-question results until the course is completed. */
  questionsRevealed: boolean;
  /** Whether the results name the right answers (the quiz's showCorrectAnswers, enforced by the server). */
  correctAnswersRevealed: boolean;
  questions: QuestionResult[];
  /** Answers that arrived after the time limit and its grace, counted as unanswered. */
  lateAnswers: number;
  /** Answers still waiting for a person (long_answer, file_upload): the attempt is «на проверке» while > 0. */
  pendingReviews: number;
  /** The learner's own unfinished attempt: the answers the server kept so far. */
  savedAnswers?: SavedAnswers;
}

export interface ResultsSummary {
  total: number;
  /** Passed and failed count only graded attempts; those «на проверке» are `pending`. */
  passed: number;
  failed: number;
  pending: number;
  /** Rounded mean percentage; 0 when there are no attempts (the screen then says «—»). */
  averagePercentage: number;
}

/** GET /results: a page of finished attempts and the summary of everything the filter matches. */
export interface ResultsPage extends Page<AttemptSummary> {
  summary: ResultsSummary;
}

export const RESULTS_CSV_HEADER = [
  'Имя',
  'Курс',
  'Квиз',
  'Баллы',
  'Максимум',
  'Процент',
  'Попытка',
  'Дата и время',
  'Статус',
  'Время (мин)',
] as const;

/* ---------------------------------------------------------------- helpers */

export { formatCountdown } from '@portal/quiz-engine';
import type { QuizAnalysis } from '@portal/quiz-engine';
export { ITEM_FLAGS, ITEM_FLAG_TEXT, ITEM_THRESHOLDS } from '@portal/quiz-engine';
export type { ItemFlag, ItemStats, HistogramBar, QuizAnalysis } from '@portal/quiz-engine';

/** Minutes between start and end, one decimal. */
export const minutesBetween = (start: Date | string, end: Date | string): number =>
  Math.round(Math.max(0, new Date(end).getTime() - new Date(start).getTime()) / 6000) / 10;

/** 'Ваш результат: X из Y (P%)', as the learner reads it after finishing. */
export const resultLine = (a: Pick<AttemptSummary, 'score' | 'maxScore' | 'percentage'>): string =>
  formatMessage(PROGRESS_MSG.yourResult, { score: a.score, max: a.maxScore, percent: a.percentage });

/** 'X из Y (P%)', for someone else's attempt too. */
export const scoreLine = (a: Pick<AttemptSummary, 'score' | 'maxScore' | 'percentage'>): string =>
  formatMessage(PROGRESS_MSG.scoreOf, { score: a.score, max: a.maxScore, percent: a.percentage });

/* ------------------------------------------- manual grading («Проверка ответов») */

export const reviewsQuerySchema = z.object({ ...pagingFields(20, 50) });

/* ---------------------------------------------------------------- item analysis */

export const ANALYSIS_MSG = {
  title: 'Анализ вопросов',
  notCourseCurator: 'Статистику квиза видят только автор его курса, соавторы и администратор',
} as const;

/** The analysis reads at most this many of the quiz's latest final attempts (the sample size is shown). */
export const ANALYSIS_SAMPLE_LIMIT = 500;

/** GET /results/analysis/{quizId}: the engine's analysis of the latest final attempts. */
export interface QuizAnalysisReport extends QuizAnalysis {
  quizId: string;
  quizTitle: string;
  /** Final attempts of the quiz in all (the sample is the latest ANALYSIS_SAMPLE_LIMIT of them). */
  totalAttempts: number;
  sampleLimit: number;
}
/** The question of a review's path: any id a quiz may have; an unknown one is 404. */
export const reviewQuestionIdParam = z
  .string({ error: REVIEW_MSG.notFound })
  .trim()
  .min(1, REVIEW_MSG.notFound)
  .max(100, REVIEW_MSG.notFound);
export type ReviewsQuery = z.input<typeof reviewsQuerySchema>;

/** POST /reviews/{attemptId}/{questionId}: the points given (up to the question's) and a comment. */
export const reviewInputSchema = z.object({
  score: z.number({ error: REVIEW_MSG.scoreRequired }).min(0, REVIEW_MSG.scoreRequired).max(100),
  comment: z.string().trim().max(2000, REVIEW_MSG.commentTooLong).default(''),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

/** One answer waiting for a person. */
export interface ReviewItem {
  attemptId: string;
  questionId: string;
  type: QuestionType;
  question: string;
  /** The text written, or the file's name for a file answer. */
  answerText: string | null;
  /** file_upload: where the file is (`/api/files/…`). */
  fileUrl: string | null;
  /** The most the answer can be given. */
  points: number;
  userName: string;
  courseTitle: string;
  quizTitle: string;
  completedAt: string | null;
}

/** GET /reviews: a page of the attempts «на проверке», oldest first, as their answers waiting. */
export interface ReviewPage extends Page<ReviewItem> {
  /** Attempts waiting (the page counts attempts, each with all its waiting answers). */
  total: number;
}

/** A person's grade of an answer, as the learner sees it. */
export interface AnswerReview {
  score: number;
  comment: string;
  reviewerName: string;
  reviewedAt: string;
}

/** A certificate's number as the public check and the PDF take it (certificates.ts has its words). */
export const certificateNumberSchema = z.string().trim().toUpperCase().regex(CERTIFICATE_NUMBER, CERTIFICATE_MSG.numberInvalid);

export const certificateIssueSchema = z.object({ courseId: z.string().min(1).max(100) });
