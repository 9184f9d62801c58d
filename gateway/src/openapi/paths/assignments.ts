import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  ASSIGNMENT_MSG,
  ASSIGNMENT_STATUSES,
  CERTIFICATE_MSG,
  CONTENT_MSG,
  ROLES,
  CRM_ROLES,
  STAFF_ROLES,
  STUDY_ROLES,
  assignmentCreateSchema,
  assignmentExportQuerySchema,
  assignmentExtendSchema,
  assignmentListQuerySchema,
  assignmentPeopleQuerySchema,
  assignmentStaffQuerySchema,
  assignmentUpdateSchema,
  audienceSchema,
  entityIdField,
  type Assignment,
  type AssignmentPerson,
  type AssignmentReport,
  type Certificate,
  type CertificateCheck,
  type MyAssignment,
  type PersonAssignments,
} from '@portal/contracts';
import { exportRoute, fileAnswer, idParam, missing, noConsent, noContent, pageAnswer, route, routesOf } from '../route';
import { TAGS } from '../tags';
import { EXAMPLE_ID, conforms, pageFields } from '../schemas';

const tag = TAGS.progress.name;
const day = z.string().meta({ format: 'date', example: '2026-12-31' });
const isoDate = z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' });
const id = z.string().meta({ example: EXAMPLE_ID });

export const assignmentSchema = conforms<Assignment>().as(
  z
    .object({
      id,
      courseId: id,
      courseTitle: z.string().meta({ example: 'Охрана труда' }),
      courseHours: z.number(),
      audience: audienceSchema,
      dueDate: day,
      mandatory: z.boolean(),
      recurrenceMonths: z.number().int().nullable(),
      message: z.string(),
      createdBy: z.object({ id, fullName: z.string() }),
      createdAt: isoDate,
      updatedAt: isoDate,
    })
    .meta({ id: 'Assignment' }),
);

const personStatusFields = {
  status: z.enum(ASSIGNMENT_STATUSES),
  dueDate: day,
  daysLeft: z.number().int().meta({ description: 'Дней до срока: 0 в последний день, меньше нуля — просрочено' }),
  completedAt: isoDate.nullable(),
};

export const myAssignmentSchema = conforms<MyAssignment>().as(
  z
    .object({
      assignmentId: id,
      courseId: id,
      courseTitle: z.string(),
      mandatory: z.boolean(),
      message: z.string(),
      recurrenceMonths: z.number().int().nullable(),
      ...personStatusFields,
    })
    .meta({ id: 'MyAssignment' }),
);

export const assignmentPersonSchema = conforms<AssignmentPerson>().as(
  z
    .object({
      userId: id,
      fullName: z.string(),
      email: z.string(),
      department: z.string(),
      ...personStatusFields,
      certificateNumber: z.string().nullable().meta({ example: 'C-2026-7KQ2M9XA' }),
    })
    .meta({ id: 'AssignmentPerson' }),
);

export const certificateSchema = conforms<Certificate>().as(
  z
    .object({
      number: z.string().meta({ example: 'C-2026-7KQ2M9XA' }),
      userId: id,
      fullName: z.string().meta({ example: 'Иванов Иван Иванович' }),
      courseId: id,
      courseTitle: z.string().meta({ example: 'Охрана труда' }),
      hours: z.number(),
      completedAt: isoDate,
      issuedAt: isoDate,
    })
    .meta({ id: 'Certificate' }),
);

export const certificateCheckSchema = conforms<CertificateCheck>().as(
  z
    .object({
      valid: z.literal(true),
      number: z.string().meta({ example: 'C-2026-7KQ2M9XA' }),
      fullName: z.string().meta({ example: 'Иванов Иван Иванович' }),
      subject: z.enum(['course', 'program']).meta({ description: 'Курс или программа обучения' }),
      courseTitle: z.string().meta({ example: 'Охрана труда' }),
      hours: z.number(),
      completedAt: isoDate,
    })
    .meta({ id: 'CertificateCheck' }),
);

const certificateNumber = z.object({
  number: z.string().meta({ description: 'Номер сертификата', example: 'C-2026-7KQ2M9XA' }),
});
const noCertificate = {
  400: { description: 'Номер не того вида', example: CERTIFICATE_MSG.numberInvalid },
  404: { description: 'Сертификата с таким номером нет (или он чужой)', example: CERTIFICATE_MSG.notFound },
};

export const assignmentReportSchema = conforms<AssignmentReport>().as(
  z
    .object({
      assignmentId: id,
      assigned: z.number().int(),
      completed: z.number().int(),
      inProgress: z.number().int(),
      notStarted: z.number().int(),
      overdue: z.number().int(),
      percent: z.number().int(),
      completedByDay: z.array(z.object({ date: day, count: z.number().int() })),
    })
    .meta({ id: 'AssignmentReport' }),
);

export const personAssignmentsSchema = conforms<PersonAssignments>().as(
  z
    .object({
      person: z.object({ id, fullName: z.string(), email: z.string(), department: z.string() }),
      ...pageFields(myAssignmentSchema),
    })
    .meta({ id: 'PersonAssignments' }),
);

const assignmentId = idParam('id', 'Идентификатор назначения');
const noAssignment = missing('Назначения нет', ASSIGNMENT_MSG.notFound);
const noCourse = missing('Курса нет', CONTENT_MSG.courseNotFound);
const notYours = {
  403: { description: 'Роли не хватает прав, или назначение сделал другой куратор', example: ASSIGNMENT_MSG.notYours },
};
/** An assignment is read by the CRM roles, and changed by the staff: a curator only their own. */
const assignmentRead = routesOf(tag, { access: CRM_ROLES, params: assignmentId, also: noAssignment });
const assignmentChange = routesOf(tag, { access: STAFF_ROLES, params: assignmentId, also: { ...noAssignment, ...notYours } });
const example = {
  courseId: EXAMPLE_ID,
  audience: { kind: 'department', department: 'Отдел продаж' },
  dueDate: '2026-12-31',
  mandatory: true,
  recurrenceMonths: 12,
  message: 'Пройдите курс до конца года',
};
const { courseId: _courseId, ...editExample } = example;

export const assignmentPaths: ZodOpenApiPathsObject = {
  '/api/assignments/my': {
    get: route(tag, {
      summary: 'Мои назначения: по сроку, со статусом',
      description: 'Назначения, адресованные этому человеку: ему лично, его подразделению, его роли или всем.',
      access: STUDY_ROLES,
      query: assignmentListQuerySchema.extend({ courseId: entityIdField('courseId').optional() }),
      ok: pageAnswer('Страница назначений', myAssignmentSchema, 'MyAssignmentPage'),
    }),
  },
  '/api/assignments/person/{userId}': {
    get: route(tag, {
      summary: 'Назначения одного человека со статусом (отчёт по человеку)',
      access: CRM_ROLES,
      params: idParam('userId', 'Идентификатор пользователя'),
      query: assignmentListQuerySchema,
      ok: { status: 200, description: 'Человек и страница его назначений', schema: personAssignmentsSchema },
      also: missing('Обучающегося нет', ASSIGNMENT_MSG.personNotFound),
    }),
  },
  '/api/assignments': {
    get: route(tag, {
      summary: 'Назначения, новые первыми',
      description: 'Фильтры: курс и период, в который попадает срок (dueFrom, dueTo — включительно).',
      access: CRM_ROLES,
      query: assignmentStaffQuerySchema,
      ok: pageAnswer('Страница назначений', assignmentSchema, 'AssignmentPage'),
    }),
    post: route(tag, {
      summary: 'Назначить опубликованный курс',
      description:
        'Аудитория: выбранные люди, подразделение, роль или все обучающиеся. Пришедшие в подразделение позже тоже его получают. ' +
        'Такое же назначение (тот же курс, та же аудитория, тот же срок) не создаётся второй раз: ответ 200 с существующим.',
      access: STAFF_ROLES,
      body: assignmentCreateSchema,
      example,
      idempotent: true,
      ok: { status: 201, description: 'Назначение', schema: assignmentSchema },
      alsoOk: { 200: { description: 'Такое назначение уже есть: оно и есть ответ', schema: assignmentSchema } },
      also: noCourse,
    }),
  },
  '/api/assignments/{id}': {
    get: assignmentRead({ summary: 'Назначение', ok: { status: 200, description: 'Назначение', schema: assignmentSchema } }),
    patch: assignmentChange({
      summary: 'Изменить назначение',
      description: 'ADMIN меняет любое, CURATOR — свои. Курс не меняется.',
      body: assignmentUpdateSchema,
      example: editExample,
      ok: { status: 200, description: 'Назначение после изменения', schema: assignmentSchema },
    }),
    delete: assignmentChange({ summary: 'Удалить назначение', ok: noContent('Удалено') }),
  },
  '/api/assignments/{id}/extend': {
    post: assignmentChange({
      summary: 'Продлить срок для всех или для одного человека',
      body: assignmentExtendSchema,
      example: { dueDate: '2027-01-31', userId: EXAMPLE_ID },
      ok: { status: 200, description: 'Назначение', schema: assignmentSchema },
      also: {
        404: { description: 'Назначения нет, или человек не входит в него', example: ASSIGNMENT_MSG.personNotInAudience },
      },
    }),
  },
  '/api/certificates/verify/{number}': {
    get: route(tag, {
      summary: 'Проверить сертификат по номеру',
      description: 'Публично: действителен ли номер, кому и за какой курс выдан. Больше ничего.',
      access: 'public',
      params: certificateNumber,
      ok: { status: 200, description: 'Сертификат действителен', schema: certificateCheckSchema },
      also: {
        ...noCertificate,
        429: {
          description: 'Слишком много проверок с этого адреса (заголовок Retry-After)',
          example: CERTIFICATE_MSG.tooManyChecks,
        },
      },
    }),
  },
  '/api/certificates': {
    post: route(tag, {
      summary: 'Получить сертификат за пройденный курс',
      description: 'Выдаётся, когда пройдены все уроки и все тесты курса; повторный запрос отвечает тем же сертификатом (200).',
      access: STUDY_ROLES,
      body: z.object({ courseId: entityIdField('courseId') }),
      example: { courseId: EXAMPLE_ID },
      idempotent: true,
      ok: { status: 201, description: 'Сертификат выдан', schema: certificateSchema },
      alsoOk: { 200: { description: 'Сертификат был выдан раньше', schema: certificateSchema } },
      also: { ...noCourse, ...noConsent, 400: { description: 'Курс ещё не пройден', example: CERTIFICATE_MSG.notCompleted } },
    }),
  },
  '/api/certificates/my': {
    get: route(tag, {
      summary: 'Мои сертификаты, новые первыми',
      access: STUDY_ROLES,
      query: assignmentListQuerySchema,
      ok: pageAnswer('Страница сертификатов', certificateSchema, 'CertificatePage'),
    }),
  },
  '/api/certificates/{number}/pdf': {
    get: route(tag, {
      summary: 'Сертификат в PDF',
      description: 'Его владельцу, автору курса и соавторам, а также ADMIN; другим — 404.',
      access: ROLES,
      params: certificateNumber,
      ok: fileAnswer('PDF', 'application/pdf'),
      also: noCertificate,
      without: [403],
    }),
  },
  '/api/assignments/{id}/report': {
    get: assignmentRead({
      summary: 'Отчёт по назначению: сколько назначено, завершили, в процессе, просрочили; процент; завершения по дням',
      query: z.object({ department: z.string().optional().meta({ description: 'Только люди этого подразделения' }) }),
      ok: { status: 200, description: 'Отчёт', schema: assignmentReportSchema },
    }),
  },
  '/api/assignments/{id}/people/export': {
    get: exportRoute(tag, {
      summary: 'Люди назначения со статусом в CSV или XLSX (assignment_report)',
      description: 'Те же фильтры, что у списка людей, все строки.',
      access: CRM_ROLES,
      params: assignmentId,
      query: assignmentExportQuerySchema,
      file: 'assignment_report',
      also: noAssignment,
    }),
  },
  '/api/assignments/{id}/people': {
    get: assignmentRead({
      summary: 'Люди назначения и статус каждого',
      query: assignmentPeopleQuerySchema,
      ok: pageAnswer('Страница людей', assignmentPersonSchema, 'AssignmentPersonPage'),
    }),
  },
};
