import {
  ASSIGNMENT_MSG,
  CONTENT_MSG,
  assignmentCreateSchema,
  assignmentExportQuerySchema,
  assignmentExtendSchema,
  assignmentListQuerySchema,
  assignmentPeopleQuerySchema,
  assignmentStaffQuerySchema,
  assignmentUpdateSchema,
} from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { assignmentAssigners, assignmentReaders, ownAssignments } from '../../policies/assignments';
import {
  assignmentPageSchema,
  assignmentParams,
  assignmentPersonPageSchema,
  assignmentReportQuery,
  assignmentReportSchema,
  assignmentSchema,
  myAssignmentPageSchema,
  myAssignmentsQuery,
  personAssignmentsSchema,
  personParams,
} from './schema';

const noAssignment = { description: 'Назначения нет', example: ASSIGNMENT_MSG.notFound };
const notYours = { description: 'Роли не хватает прав, или назначение сделал другой куратор', example: ASSIGNMENT_MSG.notYours };
const example = {
  courseId: '6743a1f0c2b5e80012ab34cd',
  audience: { kind: 'department', department: 'Отдел продаж' },
  dueDate: '2026-12-31',
  mandatory: true,
  recurrenceMonths: 12,
  message: 'Пройдите курс до конца года',
};
const { courseId: _courseId, ...editExample } = example;

/** The signed-in learner's assignments, the earliest due first, each with their status. */
export const listMyAssignments = defineRoute({
  method: 'GET',
  path: '/api/assignments/my',
  operationId: 'listMyAssignments',
  summary: 'Мои назначения: по сроку, со статусом',
  description: 'Назначения, адресованные этому человеку: ему лично, его подразделению, его роли или всем.',
  access: ownAssignments,
  query: myAssignmentsQuery,
  ok: { status: 200, description: 'Страница назначений', schema: myAssignmentPageSchema },
});

/** One person's drill-down: every assignment that reaches them, the earliest due first, with their status. */
export const listPersonAssignments = defineRoute({
  method: 'GET',
  path: '/api/assignments/person/:userId',
  operationId: 'listPersonAssignments',
  summary: 'Назначения одного человека со статусом (отчёт по человеку)',
  access: assignmentReaders,
  params: personParams,
  query: assignmentListQuerySchema,
  ok: { status: 200, description: 'Человек и страница его назначений', schema: personAssignmentsSchema },
  also: { 404: { description: 'Обучающегося нет', example: ASSIGNMENT_MSG.personNotFound } },
});

export const listAssignments = defineRoute({
  method: 'GET',
  path: '/api/assignments',
  operationId: 'listAssignments',
  summary: 'Назначения, новые первыми',
  description: 'Фильтры: курс и период, в который попадает срок (dueFrom, dueTo — включительно).',
  access: assignmentReaders,
  query: assignmentStaffQuerySchema,
  ok: { status: 200, description: 'Страница назначений', schema: assignmentPageSchema },
});

/** 201 with a new assignment, or 200 with the identical one that exists (same course, audience and day). */
export const createAssignment = defineRoute({
  method: 'POST',
  path: '/api/assignments',
  operationId: 'createAssignment',
  summary: 'Назначить опубликованный курс',
  description:
    'Аудитория: выбранные люди, подразделение, роль или все обучающиеся. Пришедшие в подразделение позже тоже его получают. ' +
    'Такое же назначение (тот же курс, та же аудитория, тот же срок) не создаётся второй раз: ответ 200 с существующим.',
  access: assignmentAssigners,
  body: assignmentCreateSchema,
  example,
  idempotent: true,
  ok: { status: 201, description: 'Назначение', schema: assignmentSchema },
  alsoOk: { 200: { description: 'Такое назначение уже есть: оно и есть ответ', schema: assignmentSchema } },
  also: { 404: { description: 'Курса нет', example: CONTENT_MSG.courseNotFound } },
});

export const getAssignment = defineRoute({
  method: 'GET',
  path: '/api/assignments/:id',
  operationId: 'getAssignment',
  summary: 'Назначение',
  access: assignmentReaders,
  params: assignmentParams,
  ok: { status: 200, description: 'Назначение', schema: assignmentSchema },
  also: { 404: noAssignment },
});

export const updateAssignment = defineRoute({
  method: 'PATCH',
  path: '/api/assignments/:id',
  operationId: 'updateAssignment',
  summary: 'Изменить назначение',
  description: 'ADMIN меняет любое, CURATOR — свои. Курс не меняется.',
  access: assignmentAssigners,
  params: assignmentParams,
  body: assignmentUpdateSchema,
  example: editExample,
  ok: { status: 200, description: 'Назначение после изменения', schema: assignmentSchema },
  also: { 404: noAssignment, 403: notYours },
});

export const deleteAssignment = defineRoute({
  method: 'DELETE',
  path: '/api/assignments/:id',
  operationId: 'deleteAssignment',
  summary: 'Удалить назначение',
  access: assignmentAssigners,
  params: assignmentParams,
  ok: { status: 204, description: 'Удалено' },
  also: { 404: noAssignment, 403: notYours },
});

/** A later due date for everyone, or for one person (`userId`). */
export const extendAssignment = defineRoute({
  method: 'POST',
  path: '/api/assignments/:id/extend',
  operationId: 'extendAssignment',
  summary: 'Продлить срок для всех или для одного человека',
  access: assignmentAssigners,
  params: assignmentParams,
  body: assignmentExtendSchema,
  example: { dueDate: '2027-01-31', userId: '6743a1f0c2b5e80012ab34cd' },
  ok: { status: 200, description: 'Назначение', schema: assignmentSchema },
  also: {
    404: { description: 'Назначения нет, или человек не входит в него', example: ASSIGNMENT_MSG.personNotInAudience },
    403: notYours,
  },
});

/** One page of the people it reaches (as they are now), each with their status; filters: status, department. */
export const listAssignmentPeople = defineRoute({
  method: 'GET',
  path: '/api/assignments/:id/people',
  operationId: 'listAssignmentPeople',
  summary: 'Люди назначения и статус каждого',
  access: assignmentReaders,
  params: assignmentParams,
  query: assignmentPeopleQuerySchema,
  ok: { status: 200, description: 'Страница людей', schema: assignmentPersonPageSchema },
  also: { 404: noAssignment },
});

/** Counts by status, the percent completed and completions per day. */
export const assignmentReport = defineRoute({
  method: 'GET',
  path: '/api/assignments/:id/report',
  operationId: 'assignmentReport',
  summary: 'Отчёт по назначению: сколько назначено, завершили, в процессе, просрочили; процент; завершения по дням',
  access: assignmentReaders,
  params: assignmentParams,
  query: assignmentReportQuery,
  ok: { status: 200, description: 'Отчёт', schema: assignmentReportSchema },
  also: { 404: noAssignment },
});

/** assignment_report.csv or .xlsx: its people as the filters select them, with their status. */
export const exportAssignmentPeople = defineExportRoute({
  method: 'GET',
  path: '/api/assignments/:id/people/export',
  operationId: 'exportAssignmentPeople',
  summary: 'Люди назначения со статусом в CSV или XLSX (assignment_report)',
  description: 'Те же фильтры, что у списка людей, все строки.',
  access: assignmentReaders,
  params: assignmentParams,
  query: assignmentExportQuerySchema,
  file: 'assignment_report',
  also: { 404: noAssignment },
  audit: ['assignmentReport.exported'],
});
