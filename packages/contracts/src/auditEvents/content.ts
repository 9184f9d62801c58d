import { z } from 'zod';
import type { AuditEntity } from '../audit';
import { COURSE_STATUSES } from '../contentRules';
import { GENERATION_SOURCES, type GenerationSource } from '../generation';
import { SCORM_VERSIONS } from '../scormBlock';
import {
  ACCEPTED,
  ADDED,
  auditEvent,
  CHANGED,
  changeSchema,
  CREATED,
  DELETED,
  EXPORTED,
  labelOf,
  quoted,
  REQUESTED,
  spaced,
  titled,
  type AuditEventDefinition,
} from './define';

/** A course's, module's, lesson's or quiz's status, before and after an edit. */
const statusChange = z.object({ from: z.enum(COURSE_STATUSES), to: z.enum(COURSE_STATUSES) });
/** What an edit of a titled record changed (its title, its status), before and after. */
const titleAndStatusChanges = z.object({ title: changeSchema.optional(), status: statusChange.optional() });

/** A module, lesson or question of a course: the course's title, and its id (records before the codes lack it). */
const ofCourse = { course: z.string(), courseId: z.string().optional() };
const generationSource = z.enum(GENERATION_SOURCES);

/** «1.20»: the megabytes a file's size is told in. */
const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(2);

/** How a generated draft's details say who wrote it, and how a requested new version's do. */
const DRAFTED_BY: Record<GenerationSource, string> = { ai: 'ИИ', template: 'по шаблону' };
const REWRITTEN_BY: Record<GenerationSource, string> = { ai: 'ИИ', template: 'шаблон' };

/** A new version of a module, lesson or quiz asked of the course builder; `noun` in the genitive. */
const newVersionRequested = (entity: AuditEntity, noun: string) =>
  auditEvent({
    action: 'update',
    entity,
    data: titled.extend({ source: generationSource, courseId: z.string().optional() }),
    details: ({ title, source }) => `Запрошена новая версия ${noun} «${title}» (${REWRITTEN_BY[source]})`,
    phrase: ({ title }, said) => `${said(REQUESTED)} новую версию ${noun}${quoted(title)}`,
  });

/**
 * The content service's events: courses (their marks, co-authors, versions, SCORM), modules and
 * lessons (entity `block` and `lesson`), files, quizzes, the question bank and the course builder.
 */
export const CONTENT_EVENTS = {
  /* ------------------------------------------------------------ courses */
  'course.created': auditEvent({
    action: 'create',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Создан курс «${title}»`,
    phrase: ({ title }, said) => `${said(CREATED)} курс${quoted(title)}`,
  }),
  'course.generated': auditEvent({
    action: 'create',
    entity: 'course',
    data: titled.extend({ source: generationSource, topic: z.string(), modules: z.number().int() }),
    details: (d) => `Создан черновик курса «${d.title}» ${DRAFTED_BY[d.source]} по теме «${d.topic}» (модулей: ${d.modules})`,
    phrase: (d, said) => `${said(CREATED)} ${d.source === 'ai' ? 'с помощью ИИ ' : ''}черновик курса${quoted(d.title)}`,
  }),
  'course.copied': auditEvent({
    action: 'create',
    entity: 'course',
    // The title is the original's; the copy (the record) is titled «… (копия)».
    data: titled.extend({ sourceId: z.string().optional() }),
    details: ({ title }) => `Создана копия курса «${title}»`,
    phrase: ({ title }, said) => `${said(CREATED)} копию курса${quoted(title)}`,
  }),
  'course.updated': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled.extend({ changes: titleAndStatusChanges }),
    // Today's text tells the status codes as they are; the feed tells their labels.
    details: ({ title, changes: { status } }) =>
      `Изменён курс «${title}»${status ? `, статус ${status.from} → ${status.to}` : ''}`,
    phrase: ({ title, changes: { status } }, said) =>
      `${said(CHANGED)} курс${quoted(title)}${status ? `: статус ${labelOf(status.from)} → ${labelOf(status.to)}` : ''}`,
  }),
  'course.archived': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Курс «${title}» перенесён в архив: по нему есть попытки или прогресс учащихся`,
    phrase: ({ title }, said) => `${said(['перенёс', 'перенесла'])} в архив курс${quoted(title)}`,
  }),
  'course.deleted': auditEvent({
    action: 'delete',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Удалён курс «${title}»`,
    phrase: ({ title }, said) => `${said(DELETED)} курс${quoted(title)}`,
  }),
  'course.favorited': auditEvent({
    action: 'create',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Курс «${title}» добавлен в избранное`,
    phrase: ({ title }, said) => `${said(ADDED)} в избранное курс${quoted(title)}`,
  }),
  'course.unfavorited': auditEvent({
    action: 'delete',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Курс «${title}» удалён из избранного`,
    phrase: ({ title }, said) => `${said(['убрал', 'убрала'])} из избранного курс${quoted(title)}`,
  }),
  // The learner's own «started» mark on a course (filed under progress).
  'course.markedStarted': auditEvent({
    action: 'create',
    entity: 'progress',
    data: titled,
    details: ({ title }) => `Начат курс «${title}»`,
    phrase: ({ title }, said) => `${said(['начал', 'начала'])} курс${quoted(title)}`,
  }),
  'course.unmarkedStarted': auditEvent({
    action: 'delete',
    entity: 'progress',
    data: titled,
    details: ({ title }) => `Курс «${title}» больше не отмечен начатым`,
    phrase: ({ title }, said) => `${said(['снял', 'сняла'])} отметку о начале курса${quoted(title)}`,
  }),
  'course.coAuthorAdded': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled.extend({ email: z.string(), userId: z.string().optional() }),
    details: ({ title, email }) => `Добавлен соавтор ${email} курса «${title}»`,
    phrase: ({ title, email }, said) => `${said(ADDED)} соавтора${spaced(email)} курса${quoted(title)}`,
  }),
  'course.coAuthorRemoved': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled.extend({ userId: z.string().optional() }),
    details: ({ title }) => `Удалён соавтор курса «${title}»`,
    phrase: ({ title }, said) => `${said(['убрал', 'убрала'])} соавтора курса${quoted(title)}`,
  }),

  /* ------------------------------------------------------------ course versions (docs/decisions/093) */
  'course.versionPublished': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled.extend({ number: z.number().int(), summary: z.string() }),
    details: ({ title, number, summary }) => `Опубликована версия ${number} курса «${title}»: ${summary}`,
    phrase: ({ title, number }, said) => `${said(['опубликовал', 'опубликовала'])} версию ${number} курса «${title}»`,
  }),
  'course.draftDiscarded': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Отменены изменения черновика курса «${title}»`,
    phrase: ({ title }, said) => `${said(['отменил', 'отменила'])} изменения черновика курса${quoted(title)}`,
  }),
  'course.versionRestored': auditEvent({
    action: 'update',
    entity: 'course',
    data: titled.extend({ number: z.number().int() }),
    details: ({ title, number }) => `Версия ${number} курса «${title}» восстановлена как черновик`,
    phrase: ({ title, number }, said) =>
      `${said(['восстановил', 'восстановила'])} версию ${number} курса «${title}» как черновик`,
  }),
  'course.versionsPruned': auditEvent({
    action: 'delete',
    entity: 'course',
    // The numbers of the versions removed; none when there was nothing to remove.
    data: titled.extend({ removed: z.array(z.number().int()) }),
    details: ({ title, removed }) =>
      removed.length
        ? `Удалены старые версии курса «${title}»: ${removed.join(', ')}`
        : `Очистка версий курса «${title}»: удалять нечего`,
    phrase: ({ title }, said) => `${said(['очистил', 'очистила'])} старые версии курса${quoted(title)}`,
  }),

  /* ------------------------------------------------------------ SCORM */
  'scormPackage.uploaded': auditEvent({
    action: 'create',
    entity: 'course',
    data: titled.extend({
      version: z.enum(SCORM_VERSIONS),
      scos: z.number().int(),
      bytes: z.number().int(),
      course: z.string(),
      packageId: z.string().optional(),
    }),
    details: (p) =>
      `Загружен SCORM-пакет «${p.title}» (SCORM ${p.version}, учебных объектов: ${p.scos}, ${megabytes(p.bytes)} МБ) в курс «${p.course}»`,
    phrase: (p, said) => `${said(['загрузил', 'загрузила'])} SCORM-пакет «${p.title}» в курс «${p.course}»`,
  }),
  'course.scormExported': auditEvent({
    action: 'read',
    entity: 'course',
    data: titled,
    details: ({ title }) => `Выгрузка курса «${title}» в SCORM 1.2`,
    phrase: ({ title }, said) => `${said(EXPORTED)} курс${quoted(title)} как пакет SCORM 1.2`,
  }),

  /* ------------------------------------------------------------ modules (entity block) and lessons */
  'module.created': auditEvent({
    action: 'create',
    entity: 'block',
    data: titled.extend(ofCourse),
    details: ({ title, course }) => `Создан модуль «${title}» в курсе «${course}»`,
    phrase: ({ title }, said) => `${said(CREATED)} модуль${quoted(title)}`,
  }),
  'module.updated': auditEvent({
    action: 'update',
    entity: 'block',
    data: titled.extend({ courseId: z.string().optional(), changes: titleAndStatusChanges.optional() }),
    details: ({ title }) => `Изменён модуль «${title}»`,
    phrase: ({ title }, said) => `${said(CHANGED)} модуль${quoted(title)}`,
  }),
  'module.deleted': auditEvent({
    action: 'delete',
    entity: 'block',
    data: titled.extend({ courseId: z.string().optional() }),
    details: ({ title }) => `Удалён модуль «${title}»`,
    phrase: ({ title }, said) => `${said(DELETED)} модуль${quoted(title)}`,
  }),
  'blocks.reordered': auditEvent({
    action: 'update',
    entity: 'block',
    // The record is the course; `count` is how many modules and lessons the request moved.
    data: z.object({ course: z.string(), count: z.number().int() }),
    details: ({ course, count }) => `Изменён порядок модулей и уроков курса «${course}» (${count})`,
    phrase: ({ course }, said) => `${said(CHANGED)} порядок модулей и уроков курса${quoted(course)}`,
  }),
  'lesson.created': auditEvent({
    action: 'create',
    entity: 'lesson',
    data: titled.extend({ ...ofCourse, moduleId: z.string().optional() }),
    details: ({ title, course }) => `Создан урок «${title}» в курсе «${course}»`,
    phrase: ({ title }, said) => `${said(CREATED)} урок${quoted(title)}`,
  }),
  'lesson.copied': auditEvent({
    action: 'create',
    entity: 'lesson',
    // The title is the original's; the copy (the record) is titled «… (копия)».
    data: titled.extend({ sourceId: z.string().optional(), courseId: z.string().optional() }),
    details: ({ title }) => `Создана копия урока «${title}»`,
    phrase: ({ title }, said) => `${said(CREATED)} копию урока${quoted(title)}`,
  }),
  'lessons.imported': auditEvent({
    action: 'create',
    entity: 'lesson',
    // The record is the module; `from` are the titles of the courses the lessons were copied from.
    data: z.object({
      count: z.number().int(),
      module: z.string(),
      ...ofCourse,
      from: z.array(z.string()),
      lessonIds: z.array(z.string()).optional(),
    }),
    details: (d) =>
      `Импортировано уроков: ${d.count} в модуль «${d.module}» курса «${d.course}» из ${d.from.map((title) => `«${title}»`).join(', ')}`,
    phrase: (d, said) =>
      `${said(['импортировал', 'импортировала'])} уроки в модуль${quoted(d.module)}${d.course ? ` курса «${d.course}»` : ''}`,
  }),
  'lesson.updated': auditEvent({
    action: 'update',
    entity: 'lesson',
    data: titled.extend({ courseId: z.string().optional(), changes: titleAndStatusChanges.optional() }),
    details: ({ title }) => `Изменён урок «${title}»`,
    phrase: ({ title }, said) => `${said(CHANGED)} урок${quoted(title)}`,
  }),
  'lesson.deleted': auditEvent({
    action: 'delete',
    entity: 'lesson',
    data: titled.extend({ courseId: z.string().optional() }),
    details: ({ title }) => `Удалён урок «${title}»`,
    phrase: ({ title }, said) => `${said(DELETED)} урок${quoted(title)}`,
  }),
  'file.uploaded': auditEvent({
    action: 'create',
    entity: 'block',
    // `answer`: a learner's answer to a quiz's question, kept with its quiz and course.
    data: z.object({
      name: z.string(),
      bytes: z.number().int(),
      answer: z.boolean().optional(),
      quizId: z.string().optional(),
      courseId: z.string().optional(),
    }),
    details: (f) => `Загружен файл${f.answer ? ' с ответом на вопрос квиза' : ''} «${f.name}» (${megabytes(f.bytes)} МБ)`,
    phrase: ({ name }, said) => `${said(['загрузил', 'загрузила'])} файл${quoted(name)}`,
  }),

  /* ------------------------------------------------------------ quizzes and the question bank */
  'quiz.created': auditEvent({
    action: 'create',
    entity: 'quiz',
    data: titled.extend({ questions: z.number().int(), courseId: z.string().nullish() }),
    details: ({ title, questions }) => `Создан квиз «${title}» (вопросов: ${questions})`,
    phrase: ({ title }, said) => `${said(CREATED)} квиз${quoted(title)}`,
  }),
  'quiz.updated': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: titled.extend({ questions: z.number().int(), changes: z.object({ title: changeSchema.optional() }).optional() }),
    details: ({ title, questions }) => `Изменён квиз «${title}» (вопросов: ${questions})`,
    phrase: ({ title }, said) => `${said(CHANGED)} квиз${quoted(title)}`,
  }),
  'quiz.deleted': auditEvent({
    action: 'delete',
    entity: 'quiz',
    data: titled,
    details: ({ title }) => `Удалён квиз «${title}»`,
    phrase: ({ title }, said) => `${said(DELETED)} квиз${quoted(title)}`,
  }),
  'bankQuestion.created': auditEvent({
    action: 'create',
    entity: 'quiz',
    data: z.object({ ...ofCourse, tags: z.array(z.string()) }),
    details: ({ course, tags }) => `Добавлен вопрос в банк курса «${course}» (метки: ${tags.join(', ')})`,
    phrase: ({ course }, said) => `${said(ADDED)} вопрос в банк курса${quoted(course)}`,
  }),
  'bankQuestion.updated': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: z.object(ofCourse),
    details: ({ course }) => `Изменён вопрос банка курса «${course}»`,
    phrase: ({ course }, said) => `${said(CHANGED)} вопрос банка курса${quoted(course)}`,
  }),
  'bankQuestion.deleted': auditEvent({
    action: 'delete',
    entity: 'quiz',
    data: z.object(ofCourse),
    details: ({ course }) => `Удалён вопрос банка курса «${course}»`,
    phrase: ({ course }, said) => `${said(DELETED)} вопрос банка курса${quoted(course)}`,
  }),

  /* ------------------------------------------------------------ the course builder: new versions of a part */
  'module.newVersionRequested': newVersionRequested('block', 'модуля'),
  'lesson.newVersionRequested': newVersionRequested('lesson', 'урока'),
  'quiz.newVersionRequested': newVersionRequested('quiz', 'квиза'),
  'module.newVersionAccepted': auditEvent({
    action: 'update',
    entity: 'block',
    data: titled.extend({ lessons: z.number().int(), courseId: z.string().optional() }),
    details: ({ title, lessons }) => `Принята новая версия модуля «${title}» (уроков: ${lessons})`,
    phrase: ({ title }, said) => `${said(ACCEPTED)} новую версию модуля${quoted(title)}`,
  }),
  'lesson.newVersionAccepted': auditEvent({
    action: 'update',
    entity: 'lesson',
    data: titled.extend({ courseId: z.string().optional() }),
    details: ({ title }) => `Принята новая версия урока «${title}»`,
    phrase: ({ title }, said) => `${said(ACCEPTED)} новую версию урока${quoted(title)}`,
  }),
  'quiz.newVersionAccepted': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: titled.extend({ questions: z.number().int(), courseId: z.string().optional() }),
    details: ({ title, questions }) => `Принята новая версия квиза «${title}» (вопросов: ${questions})`,
    phrase: ({ title }, said) => `${said(ACCEPTED)} новую версию квиза${quoted(title)}`,
  }),
} satisfies Record<string, AuditEventDefinition>;
