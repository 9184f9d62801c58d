import {
  PROGRAM_MSG,
  myProgramsQuerySchema,
  programAssignmentCreateSchema,
  programAssignmentListQuerySchema,
  programExportQuerySchema,
  programExtendSchema,
  programInputSchema,
  programListQuerySchema,
  programPeopleQuerySchema,
  programReportQuerySchema,
} from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { ownPrograms, programAssigners, programAuthors, programReaders } from '../../policies/programs';
import {
  myProgramPageSchema,
  myProgramParams,
  myProgramSchema,
  programAssignmentPageSchema,
  programAssignmentParams,
  programAssignmentSchema,
  programPageSchema,
  programParams,
  programPeoplePageSchema,
  programPersonDetailSchema,
  programPersonParams,
  programReportSchema,
  programSchema,
  programTemplatesSchema,
  templateParams,
} from './schema';

const noProgram = { description: 'Программы нет', example: PROGRAM_MSG.notFound };
const notYours = { description: 'Программа не ваша и вы не её соавтор', example: PROGRAM_MSG.notYours };
const noAssignment = { description: 'Назначения программы нет', example: PROGRAM_MSG.assignmentNotFound };
const EXAMPLE_COURSE = '6743a1f0c2b5e80012ab34cd';

const programExample = {
  title: 'Адаптация нового сотрудника',
  description: 'Первые недели в компании',
  certificate: true,
  stages: [
    { title: 'Знакомство с компанией', courseIds: [EXAMPLE_COURSE], dueDays: 7, dueFrom: 'assigned' },
    {
      title: 'Охрана труда',
      courseIds: ['6743a1f0c2b5e80012ab34ce'],
      required: null,
      dueDays: 14,
      dueFrom: 'previous',
      locked: true,
    },
  ],
};

export const listPrograms = defineRoute({
  method: 'GET',
  path: '/api/programs',
  operationId: 'listPrograms',
  summary: 'Программы обучения',
  description: 'Активные или в архиве, с поиском по названию; последние изменённые первыми.',
  access: programReaders,
  query: programListQuerySchema,
  ok: { status: 200, description: 'Страница программ', schema: programPageSchema },
});

export const listProgramTemplates = defineRoute({
  method: 'GET',
  path: '/api/programs/templates',
  operationId: 'listProgramTemplates',
  summary: 'Шаблоны программ обучения',
  description: 'Готовые этапы и сроки без курсов: «Адаптация нового сотрудника», «Ежегодная проверка знаний по охране труда».',
  access: programAuthors,
  ok: { status: 200, description: 'Шаблоны', schema: programTemplatesSchema },
});

export const copyProgramTemplate = defineRoute({
  method: 'POST',
  path: '/api/programs/templates/:key/copy',
  operationId: 'copyProgramTemplate',
  summary: 'Создать программу из шаблона',
  description: 'Новая программа с этапами и сроками шаблона; курсы в этапы добавляет автор.',
  access: programAuthors,
  params: templateParams,
  ok: { status: 201, description: 'Новая программа', schema: programSchema },
  also: { 404: { description: 'Шаблона нет', example: PROGRAM_MSG.templateNotFound } },
  audit: ['program.created'],
});

export const createProgram = defineRoute({
  method: 'POST',
  path: '/api/programs',
  operationId: 'createProgram',
  summary: 'Создать программу обучения',
  description:
    'Этапы по порядку; в этапе — опубликованные курсы, правило (все или любые N), срок и замок до завершения предыдущего.',
  access: programAuthors,
  body: programInputSchema,
  example: programExample,
  ok: { status: 201, description: 'Программа', schema: programSchema },
  audit: ['program.created'],
});

export const getProgram = defineRoute({
  method: 'GET',
  path: '/api/programs/:id',
  operationId: 'getProgram',
  summary: 'Программа обучения',
  access: programReaders,
  params: programParams,
  ok: { status: 200, description: 'Программа (ETag — её версия)', schema: programSchema },
  also: { 404: noProgram },
});

export const updateProgram = defineRoute({
  method: 'PUT',
  path: '/api/programs/:id',
  operationId: 'updateProgram',
  summary: 'Сохранить программу обучения',
  description: 'Вся программа целиком, от прочитанной версии: если её сохранил кто-то другой, ответ 412.',
  access: programAuthors,
  params: programParams,
  body: programInputSchema,
  example: { ...programExample, version: 3 },
  versioned: true,
  ok: { status: 200, description: 'Программа', schema: programSchema },
  also: { 403: notYours, 404: noProgram },
  audit: ['program.updated'],
});

export const copyProgram = defineRoute({
  method: 'POST',
  path: '/api/programs/:id/copy',
  operationId: 'copyProgram',
  summary: 'Копировать программу обучения',
  access: programAuthors,
  params: programParams,
  ok: { status: 201, description: 'Копия, её автор — вы', schema: programSchema },
  also: { 404: noProgram },
  audit: ['program.copied'],
});

export const archiveProgram = defineRoute({
  method: 'POST',
  path: '/api/programs/:id/archive',
  operationId: 'archiveProgram',
  summary: 'Перенести программу в архив',
  description: 'Программу в архиве не назначают снова; её назначения продолжают идти.',
  access: programAuthors,
  params: programParams,
  ok: { status: 200, description: 'Программа', schema: programSchema },
  also: { 403: notYours, 404: noProgram },
  audit: ['program.archived'],
});

export const restoreProgram = defineRoute({
  method: 'POST',
  path: '/api/programs/:id/restore',
  operationId: 'restoreProgram',
  summary: 'Вернуть программу из архива',
  access: programAuthors,
  params: programParams,
  ok: { status: 200, description: 'Программа', schema: programSchema },
  also: { 403: notYours, 404: noProgram },
  audit: ['program.restored'],
});

export const listMyPrograms = defineRoute({
  method: 'GET',
  path: '/api/programs/my',
  operationId: 'listMyPrograms',
  summary: 'Мои программы обучения',
  description: 'Только свои: этап, на котором вы сейчас, его статус и срок.',
  access: ownPrograms,
  query: myProgramsQuerySchema,
  ok: { status: 200, description: 'Страница программ', schema: myProgramPageSchema },
});

export const getMyProgram = defineRoute({
  method: 'GET',
  path: '/api/programs/my/:assignmentId',
  operationId: 'getMyProgram',
  summary: 'Моя программа обучения по этапам',
  access: ownPrograms,
  params: myProgramParams,
  ok: { status: 200, description: 'Этапы, их статусы, сроки и курсы', schema: myProgramSchema },
  also: { 404: { description: 'Программа вам не назначена', example: PROGRAM_MSG.notFound } },
});

export const listProgramAssignments = defineRoute({
  method: 'GET',
  path: '/api/program-assignments',
  operationId: 'listProgramAssignments',
  summary: 'Назначения программ обучения',
  access: programReaders,
  query: programAssignmentListQuerySchema,
  ok: { status: 200, description: 'Страница назначений', schema: programAssignmentPageSchema },
});

export const createProgramAssignment = defineRoute({
  method: 'POST',
  path: '/api/program-assignments',
  operationId: 'createProgramAssignment',
  summary: 'Назначить программу обучения',
  description:
    'Людям, подразделению, роли или всем; сроки этапов считаются для каждого человека. Новые сотрудники аудитории попадают в неё сами.',
  access: programAssigners,
  body: programAssignmentCreateSchema,
  example: {
    programId: EXAMPLE_COURSE,
    audience: { kind: 'department', department: 'Продажи' },
    mandatory: true,
    recurrenceMonths: null,
    message: '',
  },
  ok: { status: 201, description: 'Назначение', schema: programAssignmentSchema },
  also: { 404: noProgram },
  audit: ['programAssignment.created'],
});

export const getProgramAssignment = defineRoute({
  method: 'GET',
  path: '/api/program-assignments/:id',
  operationId: 'getProgramAssignment',
  summary: 'Назначение программы обучения',
  access: programReaders,
  params: programAssignmentParams,
  ok: { status: 200, description: 'Назначение', schema: programAssignmentSchema },
  also: { 404: noAssignment },
});

export const deleteProgramAssignment = defineRoute({
  method: 'DELETE',
  path: '/api/program-assignments/:id',
  operationId: 'deleteProgramAssignment',
  summary: 'Удалить назначение программы',
  access: programAssigners,
  params: programAssignmentParams,
  ok: { status: 204, description: 'Удалено' },
  also: { 403: { description: 'Назначение сделал другой куратор', example: PROGRAM_MSG.assignmentNotYours }, 404: noAssignment },
  audit: ['programAssignment.deleted'],
});

export const extendProgramStage = defineRoute({
  method: 'POST',
  path: '/api/program-assignments/:id/extend',
  operationId: 'extendProgramStage',
  summary: 'Продлить срок этапа одному человеку',
  access: programAssigners,
  params: programAssignmentParams,
  body: programExtendSchema,
  example: { userId: EXAMPLE_COURSE, stageKey: 'safety', dueDate: '2026-12-31' },
  ok: { status: 200, description: 'Этапы человека с новым сроком', schema: programPersonDetailSchema },
  also: {
    403: { description: 'Назначение сделал другой куратор', example: PROGRAM_MSG.assignmentNotYours },
    404: { description: 'Назначения нет, или человек в него не входит', example: PROGRAM_MSG.personNotInAudience },
  },
  audit: ['programStage.extended'],
});

export const programAssignmentReport = defineRoute({
  method: 'GET',
  path: '/api/program-assignments/:id/report',
  operationId: 'programAssignmentReport',
  summary: 'Отчёт по назначению программы',
  description: 'Люди по этапам, просроченные, процент завершивших; фильтр по подразделению.',
  access: programReaders,
  params: programAssignmentParams,
  query: programReportQuerySchema,
  ok: { status: 200, description: 'Отчёт', schema: programReportSchema },
  also: { 404: noAssignment },
});

export const listProgramPeople = defineRoute({
  method: 'GET',
  path: '/api/program-assignments/:id/people',
  operationId: 'listProgramPeople',
  summary: 'Люди назначения программы',
  description: 'Страница людей по алфавиту: этап, на котором каждый, его статус и срок; фильтры — подразделение, статус, этап.',
  access: programReaders,
  params: programAssignmentParams,
  query: programPeopleQuerySchema,
  ok: { status: 200, description: 'Страница людей', schema: programPeoplePageSchema },
  also: { 404: noAssignment },
});

export const getProgramPerson = defineRoute({
  method: 'GET',
  path: '/api/program-assignments/:id/people/:userId',
  operationId: 'getProgramPerson',
  summary: 'Один человек в программе: его этапы',
  access: programReaders,
  params: programPersonParams,
  ok: { status: 200, description: 'Этапы человека', schema: programPersonDetailSchema },
  also: { 404: { description: 'Назначения нет, или человек в него не входит', example: PROGRAM_MSG.personNotInAudience } },
});

export const exportProgramPeople = defineExportRoute({
  method: 'GET',
  path: '/api/program-assignments/:id/export',
  operationId: 'exportProgramPeople',
  summary: 'Выгрузить отчёт по программе',
  access: programReaders,
  params: programAssignmentParams,
  query: programExportQuerySchema,
  file: 'program_report',
  also: { 404: noAssignment },
  audit: ['programReport.exported'],
});
