import { z } from 'zod';
import './zod-ru';
import { quizDrawsSchema, type QuizDraw } from './bank';
import { CONTENT_MSG, entityIdField } from './content';
import { invalidIdMessage, isValidId } from './ids';
import { formatMessage } from './messages';
import { questionSchema, quizInputSchema, type LearnerQuestion, type Question, type Quiz, type QuizSettings } from './quiz';

/**
 * The course editor: autosave and drag constants (the save states and the spec's timing constants), the texts the
 * server and the editor share, and the payloads and answers of the quiz and import routes.
 */

/* --------------------------------------------------------------- autosave */

export interface AutosaveTiming {
  /** Quiet time after the last change before saving. */
  delay: number;
  /** How many times a failed save is tried again. */
  retries: number;
  /** Wait before each retry. */
  retryDelay: number;
}

/** Autosave delay, retries and retry delay (ms): lesson 2000/2/2000, course 1000/2/1500, otherwise 1000/3/1000. */
export const AUTOSAVE_TIMING = {
  lesson: { delay: 2000, retries: 2, retryDelay: 2000 },
  course: { delay: 1000, retries: 2, retryDelay: 1500 },
  default: { delay: 1000, retries: 3, retryDelay: 1000 },
} as const satisfies Record<string, AutosaveTiming>;

/** The error status is shown this long, then the indicator returns to idle. */
export const AUTOSAVE_ERROR_MS = 5000;

/** Long-press on touch, the mouse's movement threshold, the auto-scroll step. */
export const DRAG = { touchDelayMs: 120, touchTolerancePx: 5, mouseDistancePx: 5, autoScrollMaxPx: 28 } as const;

/* ------------------------------------------------------------------ texts */

export const EDITOR_MSG = {
  // Auto-save guards and answers.
  lessonGuard: 'Урок должен иметь ID и название для сохранения',
  courseGuard: 'Курс должен иметь ID и название для сохранения',
  lessonNotConfirmed: 'Сервер не подтвердил сохранение урока',
  courseNotConfirmed: 'Сервер не подтвердил сохранение курса',
  noAnswer: 'Сохранение не удалось - нет ответа от сервера',
  // Lesson screens: texts, validation and alerts.
  noModuleId: 'Не указан ID модуля',
  lessonTitleRequired: 'Пожалуйста, введите название урока',
  lessonCreated: 'Урок успешно создан!',
  lessonSaveFailed: 'Ошибка при сохранении урока',
  selectBlockToMove: 'Выберите блок для перемещения',
  selectBlockToDelete: 'Выберите блок для удаления',
  selectBlockToCopy: 'Выберите блок для копирования',
  confirmDeleteBlock: 'Вы уверены, что хотите удалить блок "{type}"? Это действие нельзя отменить.',
  uploadFailed: 'Ошибка загрузки файла',
  imageUploadFailed: 'Ошибка загрузки изображения',
  // The spec quotes these in English (section 2 and 5); the interface is Russian.
  confirmDeleteLesson: 'Вы уверены, что хотите удалить урок "{title}"?',
  loadingCourse: 'Загрузка курса...',
  loadingLesson: 'Загрузка урока...',
  lessonLoadFailed: 'Не удалось загрузить урок',
  courseNotFound: 'Курс не найден',
  courseLoadFailed: 'Не удалось загрузить курс',
  notSpecified: 'не указан',
  selectLesson: 'Выберите урок',
  addModule: 'Добавить модуль',
  importLessons: 'Импорт уроков',
  closeBlocksPanel: 'Закрыть панель блоков',
  retry: 'Повторить',
  // The server's own refusals.
  lessonOnly: 'Копировать и импортировать можно только уроки',
  importEmpty: 'Выберите уроки для импорта',
  quizInUse: 'Квиз используется в уроке «{title}». Сначала удалите из урока блок квиза',
  questionIdDuplicate: 'Повторяющийся id вопроса: {id}',
  optionsTooFew: 'Добавьте хотя бы два варианта ответа',
  optionEmpty: 'Варианты ответа не могут быть пустыми',
  correctOne: 'Отметьте один правильный ответ',
  correctSome: 'Отметьте хотя бы один правильный ответ',
  correctOutOfRange: 'Правильный ответ указывает на несуществующий вариант',
  trueFalseAnswer: 'Укажите, верно утверждение или нет',
  shortAnswerRequired: 'Введите правильный ответ',
  pairsTooFew: 'Добавьте хотя бы две пары',
  pairEmpty: 'Заполните обе части каждой пары',
  blanksMissing: 'Отметьте пропуски в тексте вопроса знаками ___',
  blanksCount: 'Число ответов должно совпадать с числом пропусков',
  blankEmpty: 'Введите ответ для каждого пропуска',
  numericAnswer: 'Правильный ответ должен быть числом',
  scaleSize: 'У шкалы должно быть от 2 до 10 делений',
  scaleLabelEmpty: 'Введите подпись деления шкалы',
  matrixRowsTooFew: 'Добавьте в матрицу хотя бы одну строку',
  matrixColumnsTooFew: 'Добавьте в матрицу хотя бы два столбца',
  matrixEmpty: 'Заполните названия строк и столбцов матрицы',
  matrixCorrect: 'Для каждой строки матрицы выберите верный столбец',
  imageRequired: 'Загрузите изображение',
  areasRequired: 'Отметьте на изображении хотя бы одну верную область',
  markersTooFew: 'Отметьте на изображении хотя бы две точки',
  markerLabelEmpty: 'Введите подпись для каждой точки',
} as const;

export const confirmDeleteLessonText = (title: string) => formatMessage(EDITOR_MSG.confirmDeleteLesson, { title });
export const confirmDeleteBlockText = (type: string) => formatMessage(EDITOR_MSG.confirmDeleteBlock, { type });

/** A file block shows its size in MB with two decimals. */
export const megabytesLabel = (bytes: number): string => (Math.max(0, bytes) / (1024 * 1024)).toFixed(2);

/* ------------------------------------------------------------ quiz rules */

/** A blank in a fill_blanks question is written as three underscores. */
export const BLANK_TOKEN = '___';
export const countBlanks = (text: string): number => text.split(BLANK_TOKEN).length - 1;

export interface QuizProblem {
  /** Dotted path under the quiz, e.g. questions.2.options.1 */
  path: string;
  message: string;
}

/** What makes a question unusable by a learner, or null. One rule for the editor and the server. */
export function questionProblem(q: Question, index: number): QuizProblem | null {
  const at = (field: string, message: string): QuizProblem => ({
    path: `questions.${index}${field ? `.${field}` : ''}`,
    message,
  });
  const options = q.options ?? [];
  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice': {
      if (options.length < 2) return at('options', EDITOR_MSG.optionsTooFew);
      const empty = options.findIndex((o) => !o.trim());
      if (empty >= 0) return at(`options.${empty}`, EDITOR_MSG.optionEmpty);
      if (q.correctAnswers.some((i) => i >= options.length)) return at('correctAnswers', EDITOR_MSG.correctOutOfRange);
      if (q.type === 'single_choice' && q.correctAnswers.length !== 1) return at('correctAnswers', EDITOR_MSG.correctOne);
      if (q.type === 'multiple_choice' && q.correctAnswers.length < 1) return at('correctAnswers', EDITOR_MSG.correctSome);
      return null;
    }
    case 'true_false':
      return q.correctAnswer === 'true' || q.correctAnswer === 'false' ? null : at('correctAnswer', EDITOR_MSG.trueFalseAnswer);
    case 'short_answer':
      return q.correctAnswer?.trim() ? null : at('correctAnswer', EDITOR_MSG.shortAnswerRequired);
    case 'ordering': {
      if (options.length < 2) return at('options', EDITOR_MSG.optionsTooFew);
      const empty = options.findIndex((o) => !o.trim());
      return empty >= 0 ? at(`options.${empty}`, EDITOR_MSG.optionEmpty) : null;
    }
    case 'matching': {
      const pairs = q.pairs ?? [];
      if (pairs.length < 2) return at('pairs', EDITOR_MSG.pairsTooFew);
      const empty = pairs.findIndex((p) => !p.left.trim() || !p.right.trim());
      return empty >= 0 ? at(`pairs.${empty}`, EDITOR_MSG.pairEmpty) : null;
    }
    case 'fill_blanks': {
      const count = countBlanks(q.question);
      const blanks = q.blanks ?? [];
      if (count === 0) return at('question', EDITOR_MSG.blanksMissing);
      if (blanks.length !== count) return at('blanks', EDITOR_MSG.blanksCount);
      const empty = blanks.findIndex((b) => !b.trim());
      return empty >= 0 ? at(`blanks.${empty}`, EDITOR_MSG.blankEmpty) : null;
    }
    case 'numeric':
      return q.correctAnswer !== undefined &&
        q.correctAnswer.trim() !== '' &&
        Number.isFinite(Number(q.correctAnswer.trim().replace(',', '.')))
        ? null
        : at('correctAnswer', EDITOR_MSG.numericAnswer);
    case 'scale':
      if (options.length < 2 || options.length > 10) return at('options', EDITOR_MSG.scaleSize);
      return options.some((o) => !o.trim())
        ? at(`options.${options.findIndex((o) => !o.trim())}`, EDITOR_MSG.scaleLabelEmpty)
        : null;
    case 'matrix': {
      const rows = q.rows ?? [];
      if (rows.length < 1) return at('rows', EDITOR_MSG.matrixRowsTooFew);
      if (options.length < 2) return at('options', EDITOR_MSG.matrixColumnsTooFew);
      if ([...rows, ...options].some((t) => !t.trim())) return at('rows', EDITOR_MSG.matrixEmpty);
      const ok = q.correctAnswers.length === rows.length && q.correctAnswers.every((c) => c < options.length);
      return ok ? null : at('correctAnswers', EDITOR_MSG.matrixCorrect);
    }
    case 'hotspot':
      if (!q.image?.trim()) return at('image', EDITOR_MSG.imageRequired);
      return (q.areas ?? []).length ? null : at('areas', EDITOR_MSG.areasRequired);
    case 'image_labels': {
      const markers = q.markers ?? [];
      if (!q.image?.trim()) return at('image', EDITOR_MSG.imageRequired);
      if (markers.length < 2) return at('markers', EDITOR_MSG.markersTooFew);
      const empty = markers.findIndex((m) => !m.label.trim());
      return empty >= 0 ? at(`markers.${empty}`, EDITOR_MSG.markerLabelEmpty) : null;
    }
    default:
      return null; // long_answer and file_upload are graded by a person: nothing to check
  }
}

/** The first problem of a list of questions: a repeated id, or a question a learner could not answer. */
export function quizProblem(questions: Question[]): QuizProblem | null {
  const seen = new Set<string>();
  for (const [i, q] of questions.entries()) {
    if (seen.has(q.id))
      return { path: `questions.${i}.id`, message: formatMessage(EDITOR_MSG.questionIdDuplicate, { id: q.id }) };
    seen.add(q.id);
    const problem = questionProblem(q, i);
    if (problem) return problem;
  }
  return null;
}

/* ------------------------------------------------------------- payloads */

const quizShape = quizInputSchema.shape;

/**
 * POST /quizzes. Settings are taken as given and laid over the spec's new-quiz defaults by the
 * server (quizSettingsSchema turns a missing passing score into 0, the "empty" rule).
 */
export const quizCreateSchema = z.object({
  title: quizShape.title,
  description: z.string().max(5000).optional(),
  courseId: entityIdField('courseId').nullish(),
  questions: z.array(questionSchema).max(200).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  draws: quizDrawsSchema.optional(),
});
export type QuizCreateInput = z.input<typeof quizCreateSchema>;

/** PATCH /quizzes/{id}: any of the fields; given settings are laid over the stored ones. */
export const quizUpdateSchema = quizCreateSchema
  .extend({ title: quizShape.title.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: CONTENT_MSG.nothingToUpdate });
export type QuizUpdateInput = z.input<typeof quizUpdateSchema>;

export const quizListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  courseId: entityIdField('courseId').optional(),
});

/** POST /blocks/import: copies of lessons (of any course) go to the end of a module. */
export const blockImportSchema = z.object({
  courseId: entityIdField('courseId'),
  moduleId: entityIdField('moduleId'),
  lessonIds: z
    .array(z.custom<string>(isValidId, { message: invalidIdMessage('lessonIds') }), { error: EDITOR_MSG.importEmpty })
    .min(1, EDITOR_MSG.importEmpty)
    .max(200)
    .refine((list) => new Set(list).size === list.length, 'Урок указан в списке дважды'),
});
export type BlockImportInput = z.input<typeof blockImportSchema>;

/* -------------------------------------------------------------- answers */

/** GET /quizzes: what a list or a picker shows. */
export interface QuizSummary {
  id: string;
  title: string;
  description: string;
  courseId: string | null;
  questionsCount: number;
  settings: QuizSettings;
  /** Bank draws per attempt, besides the fixed questions. */
  draws: QuizDraw[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /quizzes/{id} for a learner: no correct answers, no explanations. */
export type LearnerQuiz = Omit<Quiz, 'questions'> & { questions: LearnerQuestion[] };

/** GET /internal/quizzes/{id}: the whole quiz and, when a lesson holds it, where. */
export type InternalQuiz = Quiz & {
  lessonId: string | null;
  lessonTitle: string | null;
  courseId: string | null;
  courseTitle: string | null;
  /** The published version the quiz was read from (docs/decisions/093); null for a course without versions. */
  courseVersion: number | null;
};
