import { z } from 'zod';
import { AUDIENCE_LABELS } from '../assignmentRules';
import { ROLE_LABELS, ROLES } from '../roles';
import {
  auditEvent,
  CHANGED,
  changeSchema,
  CREATED,
  DELETED,
  EXPORTED,
  quoted,
  titled,
  VIEWED,
  type AuditEventDefinition,
  type Verb,
} from './define';

/* ------------------------------------------------------------ pieces of the progress service's events */

const PASSED: Verb = ['прошёл', 'прошла'];
const EXTENDED: Verb = ['продлил', 'продлила'];
const RECEIVED: Verb = ['получил', 'получила'];

/** A value before and after an edit. */
const changeOf = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value });

/** Whom an assignment reaches, as its record tells it: the named people are counted, not listed. */
const audience = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('users'), count: z.number().int() }),
  z.object({ kind: z.literal('department'), department: z.string() }),
  z.object({ kind: z.literal('role'), role: z.enum(ROLES) }),
  z.object({ kind: z.literal('all') }),
]);
type AuditAudience = z.infer<typeof audience>;

/** «Подразделение «Продажи»», «Роль «Клиент»», «Выбранные сотрудники: 3», «Все обучающиеся». */
const toldAudience = (a: AuditAudience): string => {
  if (a.kind === 'users') return `${AUDIENCE_LABELS.users}: ${a.count}`;
  if (a.kind === 'department') return `${AUDIENCE_LABELS.department} «${a.department}»`;
  if (a.kind === 'role') return `${AUDIENCE_LABELS.role} «${ROLE_LABELS[a.role]}»`;
  return AUDIENCE_LABELS.all;
};

/** A course's assignment: the course, by title and id. */
const assignedCourse = z.object({ course: z.string(), courseId: z.string().optional() });
/** A program's assignment: the program, by title and id. */
const assignedProgram = z.object({ program: z.string(), programId: z.string().optional() });

/** A quiz's result: points earned of those possible, and the share. */
const score = { score: z.number(), maxScore: z.number(), percentage: z.number() };
const told = (r: { score: number; maxScore: number; percentage: number }) => `${r.score} из ${r.maxScore} (${r.percentage}%)`;

/** A learner's attempt at a quiz (the record's entityId is the quiz's). */
const attempt = z.object({
  quiz: z.string(),
  attemptNumber: z.number().int(),
  attemptId: z.string().optional(),
  courseId: z.string().optional(),
});

/** The attempt's close by its submit, passed or not; `late` when its time had run out. */
const submitted = attempt.extend({ ...score, late: z.boolean().optional() });
const toldSubmit = (a: z.infer<typeof submitted>, verdict: string) =>
  `Квиз «${a.quiz}» ${verdict}: ${told(a)}, попытка ${a.attemptNumber}${a.late ? ', время вышло' : ''}`;

/** A link for candidates to a quiz: the quiz and its course, named. */
const candidateLink = z.object({
  quiz: z.string(),
  course: z.string(),
  linkId: z.string().optional(),
  courseId: z.string().optional(),
});

/** The program's fields an edit changed (its description, up to 5000 characters, is not kept). */
const programChanges = z.object({
  title: changeSchema.optional(),
  certificate: changeOf(z.boolean()).optional(),
  stages: changeOf(z.number().int()).optional(),
  courses: changeOf(z.number().int()).optional(),
});

/** The assignment's fields an edit changed (its message, up to 2000 characters, is not kept). */
const assignmentChanges = z.object({
  dueDate: changeSchema.optional(),
  audience: changeOf(audience).optional(),
  mandatory: changeOf(z.boolean()).optional(),
  recurrenceMonths: changeOf(z.number().int().nullable()).optional(),
});

/** The learner's answer to a hand-graded question, as its review names it (the question's first 80 characters). */
const reviewed = z.object({
  question: z.string().transform((text) => text.slice(0, 80)),
  learner: z.string(),
  quiz: z.string(),
  score: z.number(),
  points: z.number(),
  /** The attempt's result once no answer waits for a review. */
  total: z.object(score).optional(),
  attemptId: z.string().optional(),
  questionId: z.string().optional(),
  userId: z.string().optional(),
});

/**
 * The progress service's events: learners' attempts, completions and certificates, the review of
 * answers, candidate links, training assignments and programs, and reads and exports of results.
 */
export const PROGRESS_EVENTS = {
  /* --------------------------------------------------------------- attempts, reviews, results */
  'attempt.started': auditEvent({
    action: 'create',
    entity: 'quiz',
    data: attempt.extend({ course: z.string(), lessonId: z.string().optional() }),
    details: (a) => `Начата попытка ${a.attemptNumber} квиза «${a.quiz}» (курс «${a.course}»)`,
    phrase: (a, said) => `${said(['начал', 'начала'])} попытку квиза${quoted(a.quiz)}`,
  }),
  'attempt.passed': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: submitted,
    details: (a) => toldSubmit(a, 'пройден'),
    phrase: (a, said) => `${said(PASSED)} квиз${quoted(a.quiz)}`,
  }),
  'attempt.failed': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: submitted,
    details: (a) => toldSubmit(a, 'не пройден'),
    phrase: (a, said) => `${said(['не прошёл', 'не прошла'])} квиз${quoted(a.quiz)}`,
  }),
  // Closed by the portal when its time ran out (no one acted: «Система» завершила).
  'attempt.expired': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: attempt.extend({ ...score, learner: z.string(), userId: z.string().optional() }),
    details: (a) => `Время попытки ${a.attemptNumber} квиза «${a.quiz}» (${a.learner}) истекло: ${told(a)}`,
    phrase: (a, said) =>
      `${said(['завершил', 'завершила'])} по истечении времени попытку квиза${quoted(a.quiz)}${a.learner ? ` (${a.learner})` : ''}`,
  }),
  'answer.reviewed': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: reviewed,
    details: (r) =>
      `Проверен ответ на вопрос «${r.question}» (${r.learner}, квиз «${r.quiz}»): ${r.score} из ${r.points}${r.total ? `; итог ${told(r.total)}` : ''}`,
    phrase: (r, said) => `${said(['проверил', 'проверила'])} ответ в квизе${quoted(r.quiz)}${r.learner ? ` (${r.learner})` : ''}`,
  }),
  // 152-FZ: a page of other people's results read (those of the reader are not counted).
  'results.viewed': auditEvent({
    action: 'read',
    entity: 'profile',
    data: z.object({ page: z.number().int(), rows: z.number().int() }),
    details: ({ page, rows }) => `Просмотр результатов квизов: страница ${page}, записей ${rows}`,
    phrase: (_, said) => `${said(VIEWED)} результаты квизов`,
  }),
  'results.exported': auditEvent({
    action: 'read',
    entity: 'quiz',
    data: z.object({ file: z.string() }),
    details: ({ file }) => `Выгрузка результатов квизов в ${file}`,
    phrase: (_, said) => `${said(EXPORTED)} результаты квизов`,
  }),
  // The feed has always told this export as one of quiz results.
  'scormResults.exported': auditEvent({
    action: 'read',
    entity: 'quiz',
    data: z.object({ file: z.string() }),
    details: ({ file }) => `Выгрузка результатов SCORM-уроков в ${file}`,
    phrase: (_, said) => `${said(EXPORTED)} результаты SCORM-уроков`,
  }),

  /* --------------------------------------------------------------- completions and certificates */
  'lesson.completed': auditEvent({
    action: 'create',
    entity: 'progress',
    data: z.object({ lesson: z.string(), course: z.string(), courseId: z.string().optional() }),
    details: (l) => `Урок «${l.lesson}» курса «${l.course}» пройден`,
    phrase: (l, said) => `${said(['завершил', 'завершила'])} урок${quoted(l.lesson)}`,
  }),
  'course.completed': auditEvent({
    action: 'create',
    entity: 'progress',
    data: z.object({ course: z.string() }),
    details: (c) => `Курс «${c.course}» пройден полностью`,
    phrase: (c, said) => `${said(PASSED)} курс${quoted(c.course)} полностью`,
  }),
  'certificate.issued': auditEvent({
    action: 'create',
    entity: 'certificate',
    data: z.object({ course: z.string(), courseId: z.string().optional() }),
    details: (c) => `Выдан сертификат за курс «${c.course}»`,
    phrase: (c, said) => `${said(RECEIVED)} сертификат за курс${quoted(c.course)}`,
  }),
  'programCertificate.issued': auditEvent({
    action: 'create',
    entity: 'certificate',
    data: assignedProgram,
    details: (p) => `Выдан сертификат за программу обучения «${p.program}»`,
    phrase: (p, said) => `${said(RECEIVED)} сертификат за программу обучения${quoted(p.program)}`,
  }),

  /* --------------------------------------------------------------- candidate links */
  'candidateLink.created': auditEvent({
    action: 'create',
    entity: 'quiz',
    data: candidateLink,
    details: (l) => `Создана ссылка для кандидатов на тест «${l.quiz}» (курс «${l.course}»)`,
    phrase: (l, said) => `${said(CREATED)} ссылку для кандидатов на тест${quoted(l.quiz)}`,
  }),
  'candidateLink.revoked': auditEvent({
    action: 'update',
    entity: 'quiz',
    data: candidateLink,
    details: (l) => `Отозвана ссылка для кандидатов на тест «${l.quiz}» (курс «${l.course}»)`,
    phrase: (l, said) => `${said(['отозвал', 'отозвала'])} ссылку для кандидатов на тест${quoted(l.quiz)}`,
  }),
  // The retention sweep (no one acted): candidates «по ссылке» who started more than `days` ago.
  'candidates.purged': auditEvent({
    action: 'delete',
    entity: 'user',
    data: z.object({ days: z.number().int(), deleted: z.number().int() }),
    details: ({ days, deleted }) => `Удалены данные кандидатов, проходивших тесты по ссылке более ${days} дн. назад: ${deleted}`,
    phrase: ({ days, deleted }, said) =>
      `${said(DELETED)} данные кандидатов, проходивших тесты по ссылке более ${days} дн. назад: ${deleted}`,
  }),

  /* --------------------------------------------------------------- training assignments */
  'assignment.created': auditEvent({
    action: 'create',
    entity: 'assignment',
    data: assignedCourse.extend({ audience, dueDate: z.string() }),
    details: (a) => `Курс «${a.course}» назначен: ${toldAudience(a.audience)}, срок ${a.dueDate}`,
    phrase: (a, said) => `${said(['назначил', 'назначила'])} курс${quoted(a.course)}`,
  }),
  'assignment.updated': auditEvent({
    action: 'update',
    entity: 'assignment',
    data: assignedCourse.extend({ audience, dueDate: z.string(), changes: assignmentChanges.optional() }),
    details: (a) => `Изменено назначение курса «${a.course}»: ${toldAudience(a.audience)}, срок ${a.dueDate}`,
    phrase: (a, said) => `${said(CHANGED)} назначение курса${quoted(a.course)}`,
  }),
  'assignment.deleted': auditEvent({
    action: 'delete',
    entity: 'assignment',
    data: assignedCourse,
    details: (a) => `Удалено назначение курса «${a.course}»`,
    phrase: (a, said) => `${said(DELETED)} назначение курса${quoted(a.course)}`,
  }),
  // A new due date for everyone (`person` absent; the date it replaces is known) or for one person.
  'assignment.extended': auditEvent({
    action: 'update',
    entity: 'assignment',
    data: assignedCourse.extend({
      dueDate: z.string(),
      previousDueDate: z.string().optional(),
      person: z.string().optional(),
      userId: z.string().optional(),
    }),
    details: (a) => `Срок назначения курса «${a.course}» продлён до ${a.dueDate}${a.person ? ` для ${a.person}` : ' для всех'}`,
    phrase: (a, said) => `${said(EXTENDED)} срок назначения курса${quoted(a.course)}`,
  }),
  'assignmentReport.exported': auditEvent({
    action: 'read',
    entity: 'assignment',
    data: assignedCourse.extend({ file: z.string() }),
    details: (a) => `Выгрузка отчёта по назначению курса «${a.course}» в ${a.file}`,
    phrase: (a, said) => `${said(EXPORTED)} отчёт по назначению курса${quoted(a.course)}`,
  }),

  /* --------------------------------------------------------------- learning programs */
  // Made by its author with its stages, or from a template (its stages, no courses yet).
  'program.created': auditEvent({
    action: 'create',
    entity: 'program',
    data: z.union([
      titled.extend({ stages: z.number().int() }),
      titled.extend({ fromTemplate: z.literal(true), template: z.string().optional() }),
    ]),
    details: (p) => `Создана программа обучения «${p.title}»${'stages' in p ? `: этапов ${p.stages}` : ' из шаблона'}`,
    phrase: (p, said) => `${said(CREATED)} программу обучения${quoted(p.title)}`,
  }),
  'program.updated': auditEvent({
    action: 'update',
    entity: 'program',
    data: titled.extend({ stages: z.number().int(), courses: z.number().int(), changes: programChanges.optional() }),
    details: (p) => `Изменена программа обучения «${p.title}»: этапов ${p.stages}, курсов ${p.courses}`,
    phrase: (p, said) => `${said(CHANGED)} программу обучения${quoted(p.title)}`,
  }),
  // The record is the copy's; `source` is the program copied.
  'program.copied': auditEvent({
    action: 'create',
    entity: 'program',
    data: titled.extend({ source: z.string(), sourceId: z.string().optional() }),
    details: (p) => `Программа обучения «${p.source}» скопирована как «${p.title}»`,
    phrase: (p, said) => `${said(['скопировал', 'скопировала'])} программу обучения${quoted(p.source)}`,
  }),
  'program.archived': auditEvent({
    action: 'update',
    entity: 'program',
    data: titled,
    details: (p) => `Программа обучения «${p.title}» перенесена в архив`,
    phrase: (p, said) => `${said(['перенёс в архив', 'перенесла в архив'])} программу обучения${quoted(p.title)}`,
  }),
  'program.restored': auditEvent({
    action: 'update',
    entity: 'program',
    data: titled,
    details: (p) => `Программа обучения «${p.title}» возвращена из архива`,
    phrase: (p, said) => `${said(['вернул из архива', 'вернула из архива'])} программу обучения${quoted(p.title)}`,
  }),
  'programAssignment.created': auditEvent({
    action: 'create',
    entity: 'program',
    data: assignedProgram.extend({ audience }),
    details: (a) => `Программа обучения «${a.program}» назначена: ${toldAudience(a.audience)}`,
    phrase: (a, said) => `${said(['назначил', 'назначила'])} программу обучения${quoted(a.program)}`,
  }),
  'programAssignment.deleted': auditEvent({
    action: 'delete',
    entity: 'program',
    data: assignedProgram,
    details: (a) => `Удалено назначение программы обучения «${a.program}»`,
    phrase: (a, said) => `${said(DELETED)} назначение программы обучения${quoted(a.program)}`,
  }),
  // One person's own deadline for one stage of an assigned program.
  'programStage.extended': auditEvent({
    action: 'update',
    entity: 'program',
    data: assignedProgram.extend({
      stage: z.string(),
      dueDate: z.string(),
      person: z.string(),
      stageKey: z.string().optional(),
      userId: z.string().optional(),
    }),
    details: (a) => `Срок этапа «${a.stage}» программы «${a.program}» продлён до ${a.dueDate} для ${a.person}`,
    phrase: (a, said) => `${said(EXTENDED)} срок этапа${quoted(a.stage)}`,
  }),
  'programReport.exported': auditEvent({
    action: 'read',
    entity: 'program',
    data: assignedProgram.extend({ file: z.string() }),
    details: (a) => `Выгрузка отчёта по программе обучения «${a.program}» в ${a.file}`,
    phrase: (a, said) => `${said(EXPORTED)} отчёт по программе обучения${quoted(a.program)}`,
  }),
} satisfies Record<string, AuditEventDefinition>;
