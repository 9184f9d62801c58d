import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';
import { ADMIN_ROLES, PRIVACY_MSG, subjectExportQuerySchema } from '@portal/contracts';
import { subjectRequestSchema } from '@portal/svc-auth/routes/api';
import { idParam, missing, routesOf, withOperationIds } from '../route';
import { TAGS } from '../tags';

const tag = TAGS.auth.name;
/**
 * The requests are the administrator's alone; a route about one takes its id and answers 404 without
 * it. Filing, listing and the act are the auth service's declared routes; these two are the gateway's.
 */
const requestRoute = routesOf(tag, {
  access: ADMIN_ROLES,
  params: idParam('id', 'Идентификатор запроса'),
  also: missing('Запроса нет', PRIVACY_MSG.requestNotFound),
});

/** 152-FZ data-subject requests: filed in the auth service, carried out by the gateway across all services. */
const privacyOperations: ZodOpenApiPathsObject = {
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
};

export const privacyPaths = withOperationIds(privacyOperations, {
  'GET /api/subject-requests/{id}/export': 'exportSubjectData',
  'POST /api/subject-requests/{id}/anonymise': 'anonymiseSubject',
});
