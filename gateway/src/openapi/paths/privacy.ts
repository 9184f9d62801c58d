import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';
import {
  ADMIN_ROLES,
  PRIVACY_MSG,
  SUBJECT_REQUEST_KINDS,
  SUBJECT_REQUEST_STATUSES,
  subjectExportQuerySchema,
  subjectRequestCreateSchema,
  subjectRequestListQuerySchema,
  type SubjectRequest,
} from '@portal/contracts';
import { fileAnswer, idParam, missing, pageAnswer, routesOf } from '../route';
import { TAGS } from '../tags';
import { conforms } from '../schemas';

const tag = TAGS.auth.name;
/** The requests are the administrator's alone; a route about one takes its id and answers 404 without it. */
const adminRoute = routesOf(tag, { access: ADMIN_ROLES });
const requestRoute = routesOf(tag, {
  access: ADMIN_ROLES,
  params: idParam('id', 'Идентификатор запроса'),
  also: missing('Запроса нет', PRIVACY_MSG.requestNotFound),
});

const subjectRequestSchema = conforms<SubjectRequest>().as(
  z
    .object({
      id: z.string(),
      kind: z.enum(SUBJECT_REQUEST_KINDS),
      reason: z.enum(['withdrawal', 'admin']),
      status: z.enum(SUBJECT_REQUEST_STATUSES),
      user: z.object({ id: z.string(), fullName: z.string(), email: z.string() }),
      filedBy: z.string(),
      createdAt: z.string(),
      completedAt: z.string().nullable(),
      completedBy: z.string().nullable(),
      summary: z.record(z.string(), z.number()).nullable(),
      hasAct: z.boolean(),
    })
    .meta({ id: 'SubjectRequest' }),
);

/** 152-FZ data-subject requests: filed in the auth service, carried out by the gateway across all services. */
export const privacyPaths: ZodOpenApiPathsObject = {
  '/api/subject-requests': {
    get: adminRoute({
      summary: 'Запросы субъектов персональных данных',
      description: 'Выгрузка данных и обезличивание; запрос на обезличивание создаётся и сам, когда человек отзывает согласие.',
      query: subjectRequestListQuerySchema,
      ok: pageAnswer('Страница запросов', subjectRequestSchema, 'SubjectRequestPage'),
    }),
    post: adminRoute({
      summary: 'Создать запрос о данных человека',
      body: subjectRequestCreateSchema,
      example: { userId: '665f1c2e9b1e8a0012345678', kind: 'export' },
      ok: { status: 201, description: 'Запрос создан', schema: subjectRequestSchema },
      also: missing('Пользователя нет', PRIVACY_MSG.userGone),
    }),
  },
  '/api/subject-requests/{id}/export': {
    get: requestRoute({
      summary: 'Выгрузить всё, что портал хранит о человеке',
      description:
        'Собирается шлюзом из всех сервисов: профиль, согласия, обучение, попытки с ответами, сертификаты, записи журнала. ' +
        'JSON, XLSX (лист на каждый набор, закреплённая строка заголовков) или CSV (раздел, запись, поле, значение): русские заголовки и слова вместо кодов, даты по часовому поясу `tz`.',
      query: subjectExportQuerySchema,
      ok: { status: 200, description: 'Файл выгрузки', mediaType: 'application/json', schema: z.object({}).passthrough() },
    }),
  },
  '/api/subject-requests/{id}/anonymise': {
    post: requestRoute({
      summary: 'Обезличить данные человека',
      description:
        'Каждый сервис заменяет имя обозначением «Удалённый пользователь №N», удаляет email и телефон, сеансы завершаются; результаты и статистика остаются. Составляется и хранится акт (PDF).',
      ok: { status: 200, description: 'Запрос выполнен', schema: subjectRequestSchema },
      also: { 409: { description: 'Запрос уже выполнен или это выгрузка', example: PRIVACY_MSG.alreadyDone } },
    }),
  },
  '/api/subject-requests/{id}/act': {
    get: requestRoute({
      summary: 'Акт об обезличивании (PDF)',
      ok: fileAnswer('PDF', 'application/pdf'),
      also: missing('Акта нет', PRIVACY_MSG.noAct),
    }),
  },
};
