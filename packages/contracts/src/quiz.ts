import { z } from 'zod';
import { requiredText } from './auth';

/**
 * Quizzes (spec sections 3, 4, 5, 9). Stored by the content service; graded by the progress
 * service. One definition of the shape, the defaults and the grading rules.
 */
export const QUESTION_TYPES = [
  'single_choice',
  'multiple_choice',
  'true_false',
  'ordering',
  'matching',
  'fill_blanks',
  'short_answer',
  'long_answer',
  'numeric',
  'file_upload',
  'hotspot',
  'image_labels',
  'scale',
  'matrix',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** Only the first 8 have add buttons in the editor (spec section 3). */
export const ADDABLE_QUESTION_TYPES = QUESTION_TYPES.slice(0, 8) as readonly QuestionType[];

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  single_choice: 'Один вариант',
  multiple_choice: 'Несколько вариантов',
  true_false: 'Верно / неверно',
  ordering: 'Порядок',
  matching: 'Сопоставление',
  fill_blanks: 'Заполнить пропуски',
  short_answer: 'Короткий ответ',
  long_answer: 'Развёрнутый ответ',
  numeric: 'Число',
  file_upload: 'Загрузка файла',
  hotspot: 'Область на изображении',
  image_labels: 'Подписи к изображению',
  scale: 'Шкала',
  matrix: 'Матрица',
};

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

/**
 * A question. Correctness data by type:
 * - single_choice / multiple_choice: options + correctAnswers (option indexes);
 * - true_false: correctAnswer 'true' | 'false';
 * - short_answer: correctAnswer (text, compared trimmed and case-insensitively);
 * - ordering: options in the CORRECT order (the player shuffles them); the answer is the list of option indexes in the chosen order;
 * - matching: pairs [{left, right}] (correct pairing); the answer maps each left index to a right index;
 * - fill_blanks: question text with blanks written as `___`; blanks = the correct text of each blank;
 * - numeric: correctAnswer (number as text) and tolerance (absolute);
 * - long_answer and the other types: never graded correct.
 */
export const questionSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(QUESTION_TYPES),
  question: requiredText(QUIZ_MSG.questionRequired, 2000),
  options: z.array(z.string().max(500)).max(50).default([]),
  correctAnswers: z.array(z.number().int().min(0)).max(50).default([]),
  correctAnswer: z.string().max(2000).optional(),
  pairs: z
    .array(z.object({ left: z.string().max(500), right: z.string().max(500) }))
    .max(50)
    .optional(),
  blanks: z.array(z.string().max(500)).max(50).optional(),
  tolerance: z.number().min(0).optional(),
  explanation: z.string().max(5000).optional(),
  order: z.number().int().min(0).default(0),
  points: z.number().int().min(1).max(100).default(1),
});
export type Question = z.infer<typeof questionSchema>;

export const quizInputSchema = z.object({
  title: requiredText(QUIZ_MSG.titleRequired, 200),
  description: z.string().max(5000).default(''),
  courseId: z.string().max(100).nullish(),
  questions: z.array(questionSchema).max(200).default([]),
  settings: quizSettingsSchema.default({} as never),
});
export type QuizInput = z.input<typeof quizInputSchema>;

export interface Quiz extends z.infer<typeof quizInputSchema> {
  id: string;
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What a learner's browser receives before submitting: no correct answers, no explanations. */
export type LearnerQuestion = Omit<
  Question,
  'correctAnswers' | 'correctAnswer' | 'blanks' | 'tolerance' | 'explanation' | 'pairs'
> & {
  /** matching: the left column, and the right column shuffled. */
  left?: string[];
  right?: string[];
  blanksCount?: number;
};

/** Spec section 5: new quiz and new question defaults. */
export const NEW_QUIZ_DEFAULTS = {
  title: 'Новый квиз',
  settings: {
    randomizeQuestions: false,
    randomizeAnswers: true,
    passingScore: 70,
    maxAttempts: 3,
    showExplanations: 'after_submission' as ShowExplanations,
    showCorrectAnswers: DEFAULT_SHOW_CORRECT_ANSWERS,
    timeLimit: null,
  },
};
export const NEW_QUESTION_TEXT = 'Новый вопрос';

export function newQuestion(type: QuestionType, id: string, order: number): Question {
  const base: Question = { id, type, question: NEW_QUESTION_TEXT, options: [], correctAnswers: [], order, points: 1 };
  switch (type) {
    case 'single_choice':
    case 'multiple_choice':
      return { ...base, options: ['Вариант 1', 'Вариант 2'], correctAnswers: [0] };
    case 'true_false':
      return { ...base, correctAnswer: 'true' };
    case 'ordering':
      return { ...base, options: ['Вариант 1', 'Вариант 2'] };
    case 'matching':
      return {
        ...base,
        pairs: [
          { left: 'Вариант 1', right: 'Ответ 1' },
          { left: 'Вариант 2', right: 'Ответ 2' },
        ],
      };
    case 'fill_blanks':
      return { ...base, question: 'Заполните пропуск: ___', blanks: [''] };
    case 'numeric':
      return { ...base, correctAnswer: '0', tolerance: 0 };
    default:
      return { ...base, correctAnswer: '' };
  }
}

/** An answer as the player sends it. */
export type AnswerValue = number | number[] | string | string[] | Record<string, number> | null;

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
const norm = (s: string) => s.trim().toLocaleLowerCase('ru-RU');

/** The grading rules of spec section 5, extended to the types the issue names. */
export function isAnswerCorrect(q: Question, answer: AnswerValue): boolean {
  if (answer === null || answer === undefined) return false;
  switch (q.type) {
    case 'single_choice':
      return typeof answer === 'number' && q.correctAnswers.length > 0 && answer === q.correctAnswers[0];
    case 'multiple_choice':
      return Array.isArray(answer) && answer.every((v) => typeof v === 'number') && sameSet(answer as number[], q.correctAnswers);
    case 'true_false':
      return String(answer) === q.correctAnswer;
    case 'short_answer':
      return typeof answer === 'string' && q.correctAnswer !== undefined && norm(answer) === norm(q.correctAnswer);
    case 'numeric': {
      const given =
        typeof answer === 'number' ? answer : typeof answer === 'string' ? Number(answer.trim().replace(',', '.')) : NaN;
      const expected = Number(q.correctAnswer);
      return Number.isFinite(given) && Number.isFinite(expected) && Math.abs(given - expected) <= (q.tolerance ?? 0) + 1e-9;
    }
    case 'ordering':
      return Array.isArray(answer) && answer.length === q.options.length && (answer as number[]).every((v, i) => v === i);
    case 'matching': {
      const pairs = q.pairs ?? [];
      if (typeof answer !== 'object' || Array.isArray(answer)) return false;
      const map = answer as Record<string, number>;
      return pairs.length > 0 && pairs.every((_, i) => map[String(i)] === i);
    }
    case 'fill_blanks': {
      const blanks = q.blanks ?? [];
      return (
        Array.isArray(answer) &&
        answer.length === blanks.length &&
        blanks.length > 0 &&
        (answer as unknown[]).every((v, i) => typeof v === 'string' && norm(v) === norm(blanks[i]))
      );
    }
    default:
      return false; // long_answer and types without a player are never graded correct
  }
}

/** Spec section 4: score = correct answers, percentage = rounded share, passed when ≥ passing score. */
export function scoreAttempt(correct: number, total: number, passingScore: number) {
  const percentage = total === 0 ? 0 : Math.round((correct / total) * 100);
  return {
    score: correct,
    maxScore: total,
    percentage,
    status: percentage >= passingScore ? ('passed' as const) : ('failed' as const),
  };
}
