import { PRIVACY_MSG, subjectRequestCreateSchema, subjectRequestListQuerySchema } from '@portal/contracts';
import { binarySchema, defineRoute } from '@portal/service-kit';
import { handleSubjectRequests } from '../../policies/users';
import { idParams, subjectRequestPageSchema, subjectRequestSchema } from '../schema';

/*
 * 152-FZ data-subject requests, the administrator's alone: filed here (or by a withdrawn consent),
 * carried out by the gateway across all services (its export and anonymise routes).
 */

export const listSubjectRequests = defineRoute({
  method: 'GET',
  path: '/api/subject-requests',
  operationId: 'listSubjectRequests',
  summary: 'Запросы субъектов персональных данных',
  description: 'Выгрузка данных и обезличивание; запрос на обезличивание создаётся и сам, когда человек отзывает согласие.',
  access: handleSubjectRequests,
  query: subjectRequestListQuerySchema,
  ok: { status: 200, description: 'Страница запросов', schema: subjectRequestPageSchema },
});

export const createSubjectRequest = defineRoute({
  method: 'POST',
  path: '/api/subject-requests',
  operationId: 'createSubjectRequest',
  summary: 'Создать запрос о данных человека',
  access: handleSubjectRequests,
  body: subjectRequestCreateSchema,
  example: { userId: '665f1c2e9b1e8a0012345678', kind: 'export' },
  ok: { status: 201, description: 'Запрос создан', schema: subjectRequestSchema },
  also: { 404: { description: 'Пользователя нет', example: PRIVACY_MSG.userGone } },
  audit: ['subjectRequest.filed'],
});

export const getSubjectRequestAct = defineRoute({
  method: 'GET',
  path: '/api/subject-requests/:id/act',
  operationId: 'getSubjectRequestAct',
  summary: 'Акт об обезличивании (PDF)',
  access: handleSubjectRequests,
  params: idParams('Идентификатор запроса'),
  ok: { status: 200, description: 'PDF', mediaType: 'application/pdf', schema: binarySchema },
  also: { 404: { description: 'Акта нет', example: PRIVACY_MSG.noAct } },
});
