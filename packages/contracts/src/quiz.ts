import { z } from 'zod';
import './zod-ru';
import {
  DEFAULT_SCORING,
  QUESTION_TYPES,
  SCORING_MODES,
  questionSchema,
  type PlayerQuestion,
  type QuestionType,
} from '@portal/quiz-engine';
import { requiredText } from './auth';
import { quizDrawsSchema } from './bank';

/**
 * Quizzes: their fields, states, validation and limits. Stored by the content service; graded by the progress
 * service. One definition of the shape, the defaults and the grading rules.
 */
export {
  ATTEMPT_GRACE_SECONDS,
  DEFAULT_SCORING,
  MANUALLY_GRADED_TYPES,
  NEW_QUESTION_TEXT,
  PARTIAL_CREDIT_TYPES,
  QUESTION_TYPES,
  QUESTION_TYPE_LABELS,
  SCORING_LABELS,
  SCORING_MODES,
  UNGRADED_TYPES,
  isAnswerCorrect,
  newQuestion,
  playerQuestionSchema,
  questionSchema,
  scoreAttempt,
} from '@portal/quiz-engine';
export type { AnswerValue, Area, Marker, PlayerQuestion, Question, QuestionType, ScoringMode } from '@portal/quiz-engine';

/** Every type has an add button in the editor (the quiz engine's fourteen). */
export const ADDABLE_QUESTION_TYPES: readonly QuestionType[] = QUESTION_TYPES;

export const SHOW_EXPLANATIONS = ['immediately', 'after_submission', 'after_course'] as const;
export type ShowExplanations = (typeof SHOW_EXPLANATIONS)[number];

/**
 * «Показывать правильные ответы»: when a learner's results name the right answers. Separate from
 * showExplanations (the author's explanations). The default keeps them until the learner has passed
 * or used the last attempt, so a blank first attempt cannot be used to pass the second.
 */
export const SHOW_CORRECT_ANSWERS = ['after_each_attempt', 'after_pass_or_last', 'never'] as const;
export type ShowCorrectAnswers = (typeof SHOW_CORRECT_ANSWERS)[number];
export const DEFAULT_SHOW_CORRECT_ANSWERS: ShowCorrectAnswers = 'after_pass_or_last';

export const QUIZ_MSG = {
  quizNotFound: 'Квиз не найден',
  titleRequired: 'Введите название квиза',
  questionRequired: 'Введите текст вопроса',
  passingScoreRange: 'Проходной балл должен быть от 0 до 100',
  maxAttemptsRange: 'Количество попыток должно быть от 1 до 10',
  timeLimitMin: 'Ограничение времени не может быть меньше 0',
  unsupportedInPreview: 'Тип вопроса не поддерживается в превью',
} as const;

/** Blank becomes the spec's fallback: passing score 0, attempts 1, time limit none. */
const blankTo =
  <T>(fallback: T) =>
  (v: unknown) =>
    v === '' || v === null || v === undefined ? fallback : typeof v === 'string' ? Number(v) : v;

export const quizSettingsSchema = z.object({
  randomizeQuestions: z.boolean().default(false),
  randomizeAnswers: z.boolean().default(true),
  passingScore: z.preprocess(
    blankTo(0),
    z.number({ error: QUIZ_MSG.passingScoreRange }).min(0, QUIZ_MSG.passingScoreRange).max(100, QUIZ_MSG.passingScoreRange),
  ),
  maxAttempts: z.preprocess(
    blankTo(1),
    z.number({ error: QUIZ_MSG.maxAttemptsRange }).int().min(1, QUIZ_MSG.maxAttemptsRange).max(10, QUIZ_MSG.maxAttemptsRange),
  ),
  showExplanations: z.enum(SHOW_EXPLANATIONS).default('after_submission'),
  showCorrectAnswers: z.enum(SHOW_CORRECT_ANSWERS).default(DEFAULT_SHOW_CORRECT_ANSWERS),
  /** all_or_nothing (the spec's grading) or proportional partial credit (see the quiz engine). */
  scoring: z.enum(SCORING_MODES).default(DEFAULT_SCORING),
  /** Minutes; absent or null means no limit. */
  timeLimit: z.preprocess(
    (v) => (v === '' || v === undefined ? null : typeof v === 'string' ? Number(v) : v),
    z
      .number()
      .min(0, QUIZ_MSG.timeLimitMin)
      .max(24 * 60)
      .nullable(),
  ),
});
export type QuizSettings = z.infer<typeof quizSettingsSchema>;

export const quizInputSchema = z.object({
  title: requiredText(QUIZ_MSG.titleRequired, 200),
  description: z.string().max(5000).default(''),
  courseId: z.string().max(100).nullish(),
  questions: z.array(questionSchema).max(200).default([]),
  settings: quizSettingsSchema.default({} as never),
  /** Questions drawn from the course's bank for each attempt, besides the fixed ones (docs/decisions/035). */
  draws: quizDrawsSchema.default([]),
});
export type QuizInput = z.input<typeof quizInputSchema>;

export interface Quiz extends z.infer<typeof quizInputSchema> {
  id: string;
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  /** Made by the course builder or an accepted regeneration (absent otherwise): offers «Перегенерировать». */
  generated?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a learner's browser receives before submitting (the engine's view), with its place and points. */
export type LearnerQuestion = PlayerQuestion & { order: number; points: number };

/** New quiz and new question defaults. */
export const NEW_QUIZ_DEFAULTS = {
  title: 'Новый квиз',
  settings: {
    randomizeQuestions: false,
    randomizeAnswers: true,
    passingScore: 70,
    maxAttempts: 3,
    showExplanations: 'after_submission' as ShowExplanations,
    showCorrectAnswers: DEFAULT_SHOW_CORRECT_ANSWERS,
    scoring: DEFAULT_SCORING,
    timeLimit: null,
  },
};
