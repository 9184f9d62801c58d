import { z } from 'zod';
import './zod-ru';
import { COURSE_STATUSES, RICH_TEXT, type CourseStatus } from './contentRules';
import { requiredText } from './auth';
import { invalidIdMessage, isObjectIdHex, isValidId } from './ids';
import { pagingFields } from './paging';
import type { Role } from './roles';
import { isMediaUrl } from './urls';
import { scormBlockContentSchema } from './scormBlock';
import type { FigureBounds } from './dashboard';

/* ------------------------------------------------------------------ texts */

/** Course and content texts of the screens, validation, alerts and constants, plus the server's own refusals. */
export const CONTENT_MSG = {
  courseNotFound: 'Курс не найден',
  blockNotFound: 'Блок не найден',
  moduleNotFound: 'Модуль не найден',
  courseTitleRequired: 'Введите название курса',
  titleBlank: 'Название не может быть пустым',
  numberInvalid: 'Поле «{field}» должно быть числом',
  priceMin: 'Цена не может быть меньше 0',
  durationMin: 'Длительность не может быть меньше 0',
  statusInvalid: 'Статус должен быть draft, published или hidden',
  statusConflict: 'Статус и признак публикации противоречат друг другу',
  nothingToUpdate: 'Нет данных для изменения',
  recordTypeInvalid: 'Тип записи должен быть MODULE или LESSON',
  recordTypeChange: 'Тип записи нельзя изменить',
  moduleRequired: 'Для урока нужно указать модуль (moduleId)',
  moduleOfOtherCourse: 'Модуль принадлежит другому курсу',
  lessonContentNotList: 'Содержимое урока должно быть списком блоков',
  lessonContentNotJson: 'Содержимое урока не является корректным JSON',
  unknownBlockType: 'Неизвестный тип блока',
  blockIdDuplicate: 'Повторяющийся id блока: {id}',
  blockIdTaken: 'Этот идентификатор уже занят другим модулем или уроком',
  createdIdInvalid: 'Идентификатор новой записи должен состоять из 24 шестнадцатеричных символов',
  urlInvalid: 'Адрес файла должен начинаться с / (файл портала) или с http:// или https://',
  reorderEmpty: 'Передайте список блоков для перестановки',
  reorderDuplicate: 'Блок указан в списке дважды',
  reorderOneCourse: 'Все блоки должны принадлежать одному курсу',
  reorderModuleInModule: 'Модуль нельзя поместить внутрь модуля',
  uploadFailed: 'Ошибка загрузки файла',
  uploadsFailed: 'Ошибка загрузки файлов',
  uploadTooLarge: 'Ошибка загрузки файла: файл слишком большой',
  uploadTooMany: 'Ошибка загрузки файлов: слишком много файлов',
  uploadBadType: 'Ошибка загрузки файла: недопустимый тип файла',
  uploadMissing: 'Ошибка загрузки файла: файл не передан',
  uploadEmpty: 'Ошибка загрузки файла: файл пуст',
  /** The object storage (S3) did not answer: nothing was stored, the person may try again. */
  fileStorageUnavailable: 'Хранилище файлов временно недоступно. Повторите попытку позже',
  fileNotFound: 'Файл не найден',
  /** A learner's answer file, or a file of a course that is not published. */
  fileForbidden: 'Этот файл доступен только тому, кто его загрузил, авторам курса и администратору',
  answerQuizRequired: 'Укажите квиз, на вопрос которого отвечает файл',
  rangeNotSatisfiable: 'Запрошенная часть файла недоступна',
  uploadWrongField: 'Ошибка загрузки файла: ожидается поле «{field}»',
  uploadQuotaExceeded:
    'Ошибка загрузки файла: не хватает места для ваших файлов (занято {used} из {quota} МБ). Файлы, которые не используются в уроках, удаляются автоматически.',
  uploadRateLimited: 'Слишком много загрузок. Попробуйте снова через {seconds} с.',
  notCourseAuthor: 'Изменять этот курс могут только его автор, соавторы и администратор',
  /** Another author's course read as its authors read it: the bank, a copy with the answer keys, an import. */
  courseAuthorsOnly: 'Банк вопросов, ответы и черновики курса доступны только его автору, соавторам и администратору',
  courseArchived: 'Курс в архиве: изменить или удалить его может только администратор',
  courseArchivedInstead:
    'По курсу уже есть попытки или прогресс учащихся, поэтому он перенесён в архив и скрыт из каталога. Удалить его может только администратор',
  coAuthorsOwnerOnly: 'Соавторов назначают автор курса и администратор',
  coAuthorTarget: 'Укажите email или id пользователя',
  coAuthorNotFound: 'Пользователь не найден',
  coAuthorNotCurator: 'Соавтором может быть только куратор',
  coAuthorIsOwner: 'Этот пользователь — автор курса',
  coAuthorsTooMany: 'У курса не может быть больше {max} соавторов',
  // Client texts (the screens).
  search: 'Поиск...',
  createCourse: 'Создать курс',
  createFirstCourse: 'Создать первый курс',
  notFoundTitle: 'Курсы не найдены',
  notFoundHint: 'Попробуйте изменить параметры поиска или фильтры',
  emptyTitle: 'Пока нет курсов',
  emptyStaffHint: 'Создайте свой первый курс, чтобы начать обучение сотрудников',
  emptyLearner: 'Курсы пока не созданы',
  open: 'Открыть',
  updated: 'Обновлён: {date}',
  copySuffix: ' (копия)',
  confirmDeleteCourse: 'Вы уверены, что хотите удалить курс "{title}"?',
  loadFailed: 'Не удалось загрузить курсы',
} as const;

/** The course id rule (`isValidId`), for any field: missing, empty and non-text fail with the same message. */
export const entityIdField = (field: string) => z.custom<string>(isValidId, { message: invalidIdMessage(field) });

/* ---------------------------------------------------------------- courses */

/** A new course: free, no duration, «Начальный», an unpublished draft. */
export const COURSE_DEFAULTS = { price: 0, duration: 0, level: 'Начальный', isPublished: false, status: 'draft' as CourseStatus };
/** Suggestions for the free-text level (the spec's examples; any text is accepted). */
export const COURSE_LEVEL_SUGGESTIONS = ['Начальный', 'Средний', 'Продвинутый'] as const;

export const COURSE_LIST_FILTERS = ['all', 'favorites', 'started'] as const;
export type CourseListFilter = (typeof COURSE_LIST_FILTERS)[number];

export const COURSES_VIEW_MODE_KEY = 'coursesViewMode';

/** Blank or null means 0; a numeric string is read as a number (with a decimal comma too). */
const toNumber = (v: unknown) => {
  if (v === '' || v === null) return 0;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v.trim().replace(',', '.'));
  return v;
};
const nonNegative = (field: string, minMessage: string, max: number) =>
  z
    .number({ error: CONTENT_MSG.numberInvalid.replace('{field}', field) })
    .min(0, minMessage)
    .max(max);

const courseStatus = z.enum(COURSE_STATUSES, { error: CONTENT_MSG.statusInvalid });
const level = z
  .string()
  .trim()
  .max(100)
  .nullish()
  .transform((v) => v || COURSE_DEFAULTS.level);
const description = z
  .string()
  .max(5000)
  .nullish()
  .transform((v) => (v ?? '').trim());

export const courseCreateSchema = z.object({
  title: requiredText(CONTENT_MSG.courseTitleRequired, 200),
  description: description,
  price: z.preprocess(toNumber, nonNegative('price', CONTENT_MSG.priceMin, 100_000_000).default(COURSE_DEFAULTS.price)),
  duration: z.preprocess(toNumber, nonNegative('duration', CONTENT_MSG.durationMin, 100_000).default(COURSE_DEFAULTS.duration)),
  level,
  isPublished: z.boolean().optional(),
  status: courseStatus.optional(),
});
export type CourseCreateInput = z.input<typeof courseCreateSchema>;

export const courseUpdateSchema = z
  .object({
    title: requiredText(CONTENT_MSG.courseTitleRequired, 200).optional(),
    description: description.optional(),
    price: z.preprocess(toNumber, nonNegative('price', CONTENT_MSG.priceMin, 100_000_000).optional()),
    duration: z.preprocess(toNumber, nonNegative('duration', CONTENT_MSG.durationMin, 100_000).optional()),
    level: level.optional(),
    isPublished: z.boolean().optional(),
    status: courseStatus.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: CONTENT_MSG.nothingToUpdate });
export type CourseUpdateInput = z.input<typeof courseUpdateSchema>;

/** Cards on one page of /courses: fills rows of 2, 3 and 4 columns alike. */
export const COURSE_PAGE_SIZE = 24;

/**
 * GET /courses: the spec's answer is the list itself, so it stays a bare array of one page, and the
 * total that matches travels in the X-Total-Count header (TOTAL_COUNT_HEADER).
 */
export const courseListQuerySchema = z.object({
  ...pagingFields(COURSE_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
  status: z
    .enum([...COURSE_STATUSES, 'all'], { error: CONTENT_MSG.statusInvalid })
    .optional()
    .transform((v) => (v === 'all' ? undefined : v)),
  filter: z.enum(COURSE_LIST_FILTERS).default('all'),
});
export type CourseListQuery = z.input<typeof courseListQuerySchema>;

/** GET /courses/favorites/my and /courses/started/my: pages of a person's marked courses, same answer shape. */
export const markedCoursesQuerySchema = z.object(pagingFields(COURSE_PAGE_SIZE));

/* --------------------------------------------------------- content blocks */

/** The blocks a lesson is made of. */
export const CONTENT_BLOCK_TYPES = ['heading', 'text', 'image', 'video', 'audio', 'file', 'quiz', 'scorm'] as const;
export type ContentBlockType = (typeof CONTENT_BLOCK_TYPES)[number];

/** Where a media block's file may live: uploaded here (/api/files/...) or an http(s) address; blank = not uploaded yet. */
const mediaUrl = z.string().trim().max(2048).refine(isMediaUrl, CONTENT_MSG.urlInvalid);
const shortText = z.string().max(1000);
const longText = z.string().max(100_000);
const textContent = (max: z.ZodString) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? { text: v } : v),
    z.object({ text: max, level: z.number().int().min(1).max(6).optional() }),
  );

/** What an upload adds to a media block, so the editor can name it («лекция.mp4 · 12,30 МБ»), not show /api/files/<uuid>. */
const uploadedFields = {
  name: z.string().max(1000).optional(),
  bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
};

/** A text block: the plain text (the spec's `content.text`) and, once edited as rich text, its sanitised html. */
const richTextContent = z.preprocess(
  (v) => (typeof v === 'string' ? { text: v } : v),
  z.object({ text: longText, html: z.string().max(RICH_TEXT.maxHtml).optional() }),
);

const contentSchemas = {
  heading: textContent(shortText),
  text: richTextContent,
  image: z.object({
    src: mediaUrl.optional(),
    url: mediaUrl.optional(),
    alt: shortText.optional(),
    caption: shortText.optional(),
    ...uploadedFields,
  }),
  video: z.object({
    src: mediaUrl.optional(),
    url: mediaUrl.optional(),
    poster: mediaUrl.optional(),
    autoplay: z.boolean().optional(),
    title: shortText.optional(),
    description: longText.optional(),
    ...uploadedFields,
  }),
  audio: z.object({
    src: mediaUrl.optional(),
    url: mediaUrl.optional(),
    title: shortText.optional(),
    description: longText.optional(),
    ...uploadedFields,
  }),
  file: z.object({
    name: shortText.optional(),
    // Spec: size is a string in MB with two decimals; a number of MB is accepted and formatted.
    size: z
      .union([
        z.string().max(32),
        z
          .number()
          .min(0)
          .transform((n) => n.toFixed(2)),
      ])
      .optional(),
    /** The exact size in bytes, kept beside the spec's MB string so small files read «44 Б», not «0.00 МБ». */
    bytes: uploadedFields.bytes,
    src: mediaUrl.optional(),
    url: mediaUrl.optional(),
    description: longText.optional(),
  }),
  quiz: z.object({ quizId: z.string().max(100).nullish(), questionsCount: z.number().int().min(0).max(10_000).optional() }),
  /** A SCO of an uploaded package (POST /api/scorm/packages), played in a sandboxed frame. */
  scorm: scormBlockContentSchema,
} satisfies Record<ContentBlockType, z.ZodType>;

/**
 * What a new block holds before it is edited. A text block starts empty: the spec's
 * «Введите текст...» is the editor's placeholder, never content.
 */
export const DEFAULT_BLOCK_CONTENT: Record<ContentBlockType, Record<string, unknown>> = {
  heading: { text: 'Новый заголовок' },
  text: { text: '' },
  image: { src: '', alt: '', caption: '' },
  video: { src: '', poster: '', autoplay: false, title: '', description: '' },
  audio: { src: '', title: '', description: '' },
  file: { name: '', size: '0.00', src: '', description: '' },
  quiz: { quizId: null, questionsCount: 0 },
  scorm: {},
};

const blockHead = {
  id: z.string().trim().min(1).max(100).optional(),
  order: z.number().int().min(1).optional(),
  lessonId: z.string().max(100).nullish(),
};
const variant = <T extends ContentBlockType>(type: T) =>
  z.object({ ...blockHead, type: z.literal(type), content: contentSchemas[type].optional() });

/** The issue of a discriminated union whose discriminator matched none of its options. */
const unmatched = (issue: { code: string; note?: string }) =>
  issue.code === 'invalid_union' && issue.note === 'No matching discriminator';

/**
 * One content block, validated by its type; an unknown type is refused by name. A discriminated
 * union by itself, so the API document describes every block type's content.
 */
export const contentBlockSchema = z.discriminatedUnion(
  'type',
  [
    variant('heading'),
    variant('text'),
    variant('image'),
    variant('video'),
    variant('audio'),
    variant('file'),
    variant('quiz'),
    variant('scorm'),
  ],
  {
    error: (issue) =>
      unmatched(issue)
        ? `${CONTENT_MSG.unknownBlockType} «${String((issue.input as { type?: unknown } | undefined)?.type ?? '')}»`
        : undefined,
  },
);
export type ContentBlockInput = z.input<typeof contentBlockSchema>;

type ContentOf<T extends ContentBlockType> = z.output<(typeof contentSchemas)[T]>;
/** A stored content block: ids given, order 1..n without gaps, lessonId set. */
export type ContentBlock = {
  [T in ContentBlockType]: { id: string; type: T; order: number; lessonId: string; content: ContentOf<T> };
}[ContentBlockType];

const MAX_SERIALISED_LESSON = 2_000_000;

/**
 * A lesson's content: the list itself, or the list serialised (as the spec stores it). The string is
 * read before the list is checked, so the API document describes the list.
 */
export const lessonContentSchema = z.preprocess((value, ctx) => {
  if (typeof value !== 'string') return value;
  if (value.length > MAX_SERIALISED_LESSON) {
    ctx.addIssue({ code: 'too_big', origin: 'string', maximum: MAX_SERIALISED_LESSON, input: value });
    return z.NEVER;
  }
  if (value.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed;
    ctx.addIssue({ code: 'custom', message: CONTENT_MSG.lessonContentNotList, input: value });
  } catch {
    ctx.addIssue({ code: 'custom', message: CONTENT_MSG.lessonContentNotJson, input: value });
  }
  return z.NEVER;
}, z.array(contentBlockSchema).max(500));

/* ---------------------------------------------------- block records (server) */

/** On the server, modules and lessons are block records (type MODULE or LESSON). */
export const BLOCK_RECORD_TYPES = ['MODULE', 'LESSON'] as const;
export type BlockRecordType = (typeof BLOCK_RECORD_TYPES)[number];

/** Lessons and modules share the course statuses; a new one starts as draft. */
export const LESSON_STATUSES = COURSE_STATUSES;
export type LessonStatus = CourseStatus;

const blockTitle = requiredText(CONTENT_MSG.titleBlank, 300).optional();
const position = z.number().int().min(0).max(100_000);
const moduleDescription = z.string().max(5000);
const lessonDescription = z.string().max(5000);

/**
 * The id a client chose for the record it creates (an ObjectId's 24 hex digits): asked again after an
 * answer that never came (a 503, a lost connection), the same create finds the record the first ask
 * made and answers it, instead of making a second one. Without it the server chooses.
 */
const createdId = z.custom<string>(isObjectIdHex, { message: CONTENT_MSG.createdIdInvalid }).optional();

const moduleCreate = z.object({
  id: createdId,
  type: z.literal('MODULE'),
  courseId: entityIdField('courseId'),
  title: blockTitle,
  /** A module's content is its description. */
  content: moduleDescription.nullish(),
  description: moduleDescription.nullish(),
  position: position.optional(),
  status: courseStatus.optional(),
});
const lessonCreate = z.object({
  id: createdId,
  type: z.literal('LESSON'),
  courseId: entityIdField('courseId'),
  moduleId: z
    .custom<string>((v) => v !== undefined && v !== null && v !== '', { message: CONTENT_MSG.moduleRequired })
    .pipe(entityIdField('moduleId')),
  title: blockTitle,
  description: lessonDescription.nullish(),
  content: lessonContentSchema.optional(),
  position: position.optional(),
  status: courseStatus.optional(),
});

const blockCreateUnion = z.discriminatedUnion('type', [moduleCreate, lessonCreate], {
  error: (issue) => (unmatched(issue) ? CONTENT_MSG.recordTypeInvalid : undefined),
});
/** POST /blocks: a lesson unless type says MODULE (a body without a type is a lesson's). */
export const blockCreateSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { type?: unknown }).type === undefined
      ? { ...value, type: 'LESSON' }
      : value,
  blockCreateUnion,
);
export type BlockCreateInput = z.input<typeof blockCreateUnion>;

/** PATCH /blocks/{id}: content is checked against the stored record's type. */
export const blockUpdateSchema = z
  .object({
    title: blockTitle,
    content: z.unknown().optional(),
    description: z.string().max(5000).nullish(),
    type: z.enum(BLOCK_RECORD_TYPES, { error: CONTENT_MSG.recordTypeInvalid }).optional(),
    status: courseStatus.optional(),
  })
  .refine((v) => v.title !== undefined || v.content !== undefined || v.description !== undefined || v.status !== undefined, {
    message: CONTENT_MSG.nothingToUpdate,
  });
export type BlockUpdateInput = z.input<typeof blockUpdateSchema>;

export const moduleContentSchema = moduleDescription;

/** POST /blocks/reorder: new positions, and for lessons optionally a new module. */
export const blockReorderSchema = z.object({
  blocks: z
    .array(
      z.object({
        id: entityIdField('id'),
        position,
        moduleId: entityIdField('moduleId').nullish(),
        type: z.enum(BLOCK_RECORD_TYPES, { error: CONTENT_MSG.recordTypeInvalid }).optional(),
      }),
      { error: CONTENT_MSG.reorderEmpty },
    )
    .min(1, CONTENT_MSG.reorderEmpty)
    .max(2000)
    .refine((list) => new Set(list.map((b) => b.id)).size === list.length, CONTENT_MSG.reorderDuplicate),
});
export type BlockReorderInput = z.input<typeof blockReorderSchema>;

/* ------------------------------------------------------------- answers */

/** The course form's fields: what every course answer carries and the editor writes. */
export interface CourseFields {
  title: string;
  description: string;
  /** ₽, hours and a free-text level. */
  price: number;
  duration: number;
  level: string;
  status: CourseStatus;
}

export interface CourseSummary extends CourseFields {
  id: string;
  isPublished: boolean;
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
  updatedAt: string;
  isFavorite: boolean;
  isStarted: boolean;
  modulesCount: number;
  /** Summed over modules, as the card shows it. */
  lessonsCount: number;
  /** Who made it (null for courses from before owners were kept: only an ADMIN changes those). */
  ownerId: string | null;
  coAuthorIds: string[];
  /** Deleted by a curator while learners had attempts or progress in it: hidden, kept for an ADMIN. */
  archived: boolean;
}

/* ---------------------------------------------------------------- ownership */

type Person = { id: string; role: Role };
type Owned = Pick<CourseSummary, 'ownerId' | 'coAuthorIds' | 'archived'>;

/**
 * Who changes a course (its modules, lessons, blocks and quizzes): an ADMIN always; a CURATOR only a
 * course they own or co-author, and not once it is archived. The server enforces it; the editor and
 * the course list use it to offer only what will be allowed.
 */
export const canEditCourse = (user: Person, course: Owned): boolean =>
  user.role === 'ADMIN' ||
  (user.role === 'CURATOR' && !course.archived && (course.ownerId === user.id || course.coAuthorIds.includes(user.id)));

/**
 * Who reads a course as its authors do: its drafts, every lesson, its quizzes'
 * answer keys, its bank, and so a copy of it. An ADMIN; a CURATOR who owns or co-authors it (archived
 * too). Another curator reads a published course as a learner does. The server enforces it; the course
 * list offers «Копировать курс» only where it holds.
 */
export const canReadCourseAsAuthor = (user: Person, course: Pick<Owned, 'ownerId' | 'coAuthorIds'>): boolean =>
  user.role === 'ADMIN' || (user.role === 'CURATOR' && (course.ownerId === user.id || course.coAuthorIds.includes(user.id)));

/** The owner (of a course that is not archived) or an ADMIN adds and removes co-authors. */
export const canManageCoAuthors = (user: Person, course: Owned): boolean =>
  user.role === 'ADMIN' || (user.role === 'CURATOR' && !course.archived && course.ownerId === user.id);

export const MAX_CO_AUTHORS = 50;

/**
 * GET /internal/courses/editable: the courses a CURATOR owns or co-authors (and that are not
 * archived), the ones whose learners' answers and statistics are theirs. At most this many, newest
 * first: a bound on what one request reads.
 */
export const MAX_EDITABLE_COURSES = 1000;
export const editableCoursesQuerySchema = z.object({ userId: z.string().trim().min(1).max(100) });

/** POST /courses/{id}/authors: a co-author named by email or by id. */
export const coAuthorAddSchema = z
  .strictObject({
    email: z.string().trim().toLowerCase().max(254).optional(),
    userId: z.string().trim().max(100).optional(),
  })
  .refine((v) => !!v.email || !!v.userId, { message: CONTENT_MSG.coAuthorTarget });
export type CoAuthorAddInput = z.input<typeof coAuthorAddSchema>;

export interface CourseAuthor {
  id: string;
  email: string;
  fullName: string;
}

/** GET /courses/{id}/authors. */
export interface CourseAuthors {
  owner: CourseAuthor | null;
  coAuthors: CourseAuthor[];
}

/**
 * A lesson as GET /courses/{id} answers it ("course with modules, lessons, blocks", as the spec's call says):
 * its content blocks parsed. The serialised `content` is what a block record
 * carries (GET /blocks/{id}); sending both would send every lesson twice.
 */
export interface Lesson {
  id: string;
  title: string;
  description: string;
  status: LessonStatus;
  courseId: string;
  moduleId: string;
  position: number;
  blocks: ContentBlock[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface CourseModule {
  id: string;
  title: string;
  description: string;
  courseId: string;
  position: number;
  status: LessonStatus;
  lessons: Lesson[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface Course extends CourseSummary {
  modules: CourseModule[];
}

/**
 * A server block record as GET /blocks/{id}, POST /blocks, copy and import answer
 * it. A lesson's blocks are in `content` only (read them with `contentBlocksOf`).
 */
export interface BlockRecord {
  id: string;
  type: BlockRecordType;
  title: string;
  /** Module: its description. Lesson: the serialised content blocks, sorted by order. */
  content: string;
  description: string;
  courseId: string;
  moduleId: string | null;
  position: number;
  status: LessonStatus;
  /** Made by the course builder or an accepted regeneration (absent otherwise): offers «Перегенерировать». */
  generated?: boolean;
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * What PATCH /blocks/{id} and POST /blocks/reorder answer: the record without a lesson's content (the
 * editor already holds what it sent), with a lesson's outline figures. The reorder answer leaves
 * out lessons' descriptions too.
 */
export type BlockSummary = Omit<BlockRecord, 'content' | 'description'> & {
  description?: string;
} & Partial<Pick<LessonOutline, 'blocksCount' | 'hasQuiz' | 'hasScorm'>>;

/** A lesson in GET /courses/{id}/outline: where it is and what it holds, not its blocks. */
export interface LessonOutline {
  id: string;
  title: string;
  status: LessonStatus;
  moduleId: string;
  position: number;
  /** Content blocks in the lesson. */
  blocksCount: number;
  /** Whether one of them is a quiz. */
  hasQuiz: boolean;
  /** Whether one of them is a SCORM package's SCO: such a lesson is completed by the SCO, not by a mark. */
  hasScorm: boolean;
  /** Made by the course builder or an accepted regeneration (absent otherwise): offers «Перегенерировать». */
  generated?: boolean;
  version: number;
  updatedAt: string;
  /**
   * Set when a published version required the lesson to be taken again (docs/decisions/093):
   * completions and quiz passes before it do not count.
   */
  retakeSince?: string;
}

export interface ModuleOutline {
  id: string;
  title: string;
  description: string;
  position: number;
  status: LessonStatus;
  /** Made by the course builder or an accepted regeneration (absent otherwise): offers «Перегенерировать». */
  generated?: boolean;
  version: number;
  lessons: LessonOutline[];
}

/**
 * GET /courses/{id}/outline: the course card's fields and the structure the person may see, without
 * any lesson's content; a lesson's blocks are read when it is opened (GET /blocks/{id}).
 */
export interface CourseOutline extends CourseSummary {
  modules: ModuleOutline[];
}

/** POST /upload/file answers one; /upload/files a list of them. */
export interface UploadedFile {
  url: string;
  name: string;
  originalName: string;
  size: number;
  mimeType: string;
}

export const UPLOAD_ACCEPT = ['any', 'media', 'image', 'video', 'audio'] as const;
export type UploadAccept = (typeof UPLOAD_ACCEPT)[number];
export const uploadQuerySchema = z.object({ accept: z.enum(UPLOAD_ACCEPT).default('any') });
/** POST /upload/answer: the quiz the file answers, so its course's authors may read the file. */
export const answerUploadQuerySchema = z.object({
  quizId: z.string({ error: CONTENT_MSG.answerQuizRequired }).trim().min(1, CONTENT_MSG.answerQuizRequired).max(100),
});

/** GET /internal/stats of the content service, for the dashboard. */
export interface ContentStats extends FigureBounds {
  totalCourses: number;
  activeCourses: number;
  change: {
    totalCourses: { last30: number; prev30: number };
    activeCourses: { last30: number; prev30: number };
  };
}

/* ------------------------------------------------------------- helpers */

/**
 * New modules are 'модуль_N', new lessons 'урок_N', N = highest existing number
 * plus 1, starting at 1.
 */
export function nextAutoName(type: BlockRecordType, existingTitles: readonly string[]): string {
  const prefix = type === 'MODULE' ? 'модуль_' : 'урок_';
  const pattern = new RegExp(`^${prefix}(\\d+)$`);
  const highest = existingTitles.reduce((max, title) => {
    const match = pattern.exec(title.trim());
    return match ? Math.max(max, Number(match[1])) : max;
  }, 0);
  return `${prefix}${highest + 1}`;
}

const ruDate = new Intl.DateTimeFormat('ru-RU');
/** 'Обновлён: {date}' in the ru-RU format (22.11.2026). */
export const updatedLabel = (iso: string): string => CONTENT_MSG.updated.replace('{date}', ruDate.format(new Date(iso)));
