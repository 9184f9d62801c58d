import { z } from 'zod';

/**
 * The question types of the spec (section 3) and their stored shape. One flat shape for every type
 * (what the content service stores and an attempt copies); the fields each type reads are listed
 * on `questionSchema`.
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

/** Graded by a person (a curator), never by the engine. */
export const MANUALLY_GRADED_TYPES: readonly QuestionType[] = ['long_answer', 'file_upload'];
/** Survey questions: answered and counted in reports, never graded (no points). */
export const UNGRADED_TYPES: readonly QuestionType[] = ['scale'];
/** Types whose answer has parts, so «пропорционально» can give part of the points. */
export const PARTIAL_CREDIT_TYPES: readonly QuestionType[] = [
  'multiple_choice',
  'ordering',
  'matching',
  'fill_blanks',
  'matrix',
  'image_labels',
];

/**
 * How a quiz scores answers with parts. all_or_nothing (the default) is the spec's exact grading:
 * a question gives its points only when wholly right. proportional gives the share of the parts
 * that are right (see gradeQuestion).
 */
export const SCORING_MODES = ['all_or_nothing', 'proportional'] as const;
export type ScoringMode = (typeof SCORING_MODES)[number];
export const DEFAULT_SCORING: ScoringMode = 'all_or_nothing';
export const SCORING_LABELS: Record<ScoringMode, string> = {
  all_or_nothing: 'Всё или ничего',
  proportional: 'Пропорционально (частичный балл)',
};

export const ENGINE_MSG = {
  questionRequired: 'Введите текст вопроса',
  coordinateRange: 'Координаты должны быть от 0 до 100 (% размера изображения)',
  polygonPoints: 'У многоугольника должно быть от 3 до 20 вершин',
  scaleSize: 'У шкалы должно быть от 2 до 10 делений',
  matrixRow: 'Для каждой строки матрицы выберите верный столбец',
  numericValue: 'Правильный ответ должен быть числом',
  trueLabel: 'Верно',
  falseLabel: 'Неверно',
} as const;

const coordinate = z
  .number({ error: ENGINE_MSG.coordinateRange })
  .min(0, ENGINE_MSG.coordinateRange)
  .max(100, ENGINE_MSG.coordinateRange);
const point = z.object({ x: coordinate, y: coordinate });

/** A correct area of a hotspot, in percent of the image's width and height (0..100). */
export const areaSchema = z.discriminatedUnion('shape', [
  z.object({ shape: z.literal('rect'), x: coordinate, y: coordinate, width: coordinate, height: coordinate }),
  z.object({
    shape: z.literal('polygon'),
    points: z.array(point).min(3, ENGINE_MSG.polygonPoints).max(20, ENGINE_MSG.polygonPoints),
  }),
]);
export type Area = z.infer<typeof areaSchema>;

/** A marked point of an image_labels question and the label that belongs there. */
export const markerSchema = z.object({ x: coordinate, y: coordinate, label: z.string().max(200) });
export type Marker = z.infer<typeof markerSchema>;

/** A number as people type it: spaces ignored, a decimal comma accepted. NaN when it is none. */
export function parseNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return NaN;
  const text = value.replace(/[\s\u00a0]/g, '').replace(',', '.');
  return text === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? NaN : Number(text);
}

/**
 * A question. What each type reads:
 * - single_choice / multiple_choice: options + correctAnswers (option indexes);
 * - true_false: correctAnswer 'true' | 'false';
 * - short_answer: correctAnswer (text, compared trimmed and case-insensitively);
 * - ordering: options in the CORRECT order (always shown shuffled);
 * - matching: pairs [{left, right}] (the correct pairing);
 * - fill_blanks: text with blanks written `___`; blanks = the correct text of each;
 * - numeric: correctAnswer (a number as text, decimal comma accepted) and tolerance (absolute);
 * - scale: options = the labels of the points 1..N (N = options.length, 2..10); never graded;
 * - matrix: rows, options = the columns, correctAnswers[i] = the right column of row i;
 * - hotspot: image (an uploaded image's URL), imageAlt, areas (rectangles / polygons, 0..100 %);
 * - image_labels: image, imageAlt, markers [{x, y, label}] (the label that belongs at each point);
 * - long_answer, file_upload: graded by hand.
 */
export const questionSchema = z
  .object({
    id: z.string().min(1).max(100),
    type: z.enum(QUESTION_TYPES),
    question: z
      .string({ error: ENGINE_MSG.questionRequired })
      .trim()
      .min(1, ENGINE_MSG.questionRequired)
      .max(2000, ENGINE_MSG.questionRequired),
    options: z.array(z.string().max(500)).max(50).default([]),
    correctAnswers: z.array(z.number().int().min(0)).max(50).default([]),
    correctAnswer: z.string().max(2000).optional(),
    pairs: z
      .array(z.object({ left: z.string().max(500), right: z.string().max(500) }))
      .max(50)
      .optional(),
    blanks: z.array(z.string().max(500)).max(50).optional(),
    tolerance: z.number().min(0).optional(),
    rows: z.array(z.string().max(500)).max(50).optional(),
    image: z.string().max(2000).optional(),
    imageAlt: z.string().max(1000).optional(),
    areas: z.array(areaSchema).max(20).optional(),
    markers: z.array(markerSchema).max(30).optional(),
    explanation: z.string().max(5000).optional(),
    order: z.number().int().min(0).default(0),
    points: z.number().int().min(1).max(100).default(1),
  })
  .superRefine((q, ctx) => {
    // Only the types this engine added are held to their shape; the original eight keep the
    // editor's lenient drafts (a draft may be incomplete until saved).
    if (q.type === 'scale' && (q.options.length < 2 || q.options.length > 10))
      ctx.addIssue({ code: 'custom', message: ENGINE_MSG.scaleSize, path: ['options'] });
    if (q.type === 'matrix') {
      const rows = q.rows ?? [];
      if (q.correctAnswers.length !== rows.length || q.correctAnswers.some((c) => c >= q.options.length))
        ctx.addIssue({ code: 'custom', message: ENGINE_MSG.matrixRow, path: ['correctAnswers'] });
    }
    if (q.type === 'numeric' && q.correctAnswer !== undefined && !Number.isFinite(parseNumber(q.correctAnswer)))
      ctx.addIssue({ code: 'custom', message: ENGINE_MSG.numericValue, path: ['correctAnswer'] });
  });
export type Question = z.infer<typeof questionSchema>;

/** An answer as the player sends it. hotspot: {x, y} in % of the image; matching / image_labels: shown index → shown index. */
export type AnswerValue = number | number[] | string | string[] | Record<string, number> | null;

/**
 * What a learner's browser receives: the text and the options as shown, nothing that tells the
 * answer (no correct answers, blanks, pairs, tolerance, areas, marker labels in place, explanations).
 */
export const playerQuestionSchema = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  question: z.string(),
  options: z.array(z.string()),
  /** matching: the two columns as shown. */
  left: z.array(z.string()).optional(),
  right: z.array(z.string()).optional(),
  /** fill_blanks: how many blanks (written ___ in the text). */
  blanksCount: z.number().int().optional(),
  /** matrix: the rows (options are the columns). */
  rows: z.array(z.string()).optional(),
  /** hotspot, image_labels: the image and its text alternative. */
  image: z.string().optional(),
  imageAlt: z.string().optional(),
  /** image_labels: the marked points (in % of the image), and the labels shuffled. */
  markers: z.array(z.object({ x: z.number(), y: z.number() })).optional(),
  labels: z.array(z.string()).optional(),
});
export type PlayerQuestion = z.infer<typeof playerQuestionSchema>;

/**
 * A question as one attempt shows it: the orders its parts were shown in, fixed from the attempt's
 * seed. Shown option i is options[optionOrder[i]]; matching: shown left i is pairs[leftOrder[i]],
 * shown right j is pairs[rightOrder[j]]; image_labels: shown label j is markers[rightOrder[j]].label.
 */
export interface ShownQuestion extends Question {
  optionOrder: number[];
  leftOrder: number[];
  rightOrder: number[];
}

export interface PresentationSettings {
  randomizeQuestions: boolean;
  randomizeAnswers: boolean;
}
