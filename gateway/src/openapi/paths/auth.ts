import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  MSG,
  ROLES,
  CONSENT_DOCUMENT,
  CONSENT_MSG,
  IMPORT_MSG,
  STAFF_ROLES,
  staffImportBatchSchema,
  staffImportSchema,
  staffImportTemplateQuerySchema,
  applicationListQuerySchema,
  consentAcceptSchema,
} from '@portal/contracts';
import { XLSX_TYPE, fileAnswer, idParam, missing, pageAnswer, route, routesOf } from '../route';
import { TAGS } from '../tags';
import {
  applicationDecisionSchema,
  applicationSchema,
  consentAnswerSchema,
  consentDocumentSchema,
  consentStateSchema,
  importBatchSchema,
  importPreviewSchema,
} from '@portal/svc-auth/routes/api';

const tag = TAGS.auth.name;
/** Signing up and in, a new password by link, and what those pages show: open to anyone. */
const publicRoute = routesOf(tag, { access: 'public' });
const decision = (summary: string, done: string) =>
  route(tag, {
    summary,
    access: ['ADMIN'],
    params: idParam('id', 'Идентификатор заявки'),
    ok: { status: 200, description: done, schema: applicationDecisionSchema },
    also: {
      404: { description: 'Заявки нет', example: MSG.applicationNotFound },
      409: { description: 'Заявка уже рассмотрена', example: MSG.applicationDecided },
    },
  });

export const authPaths: ZodOpenApiPathsObject = {
  '/api/applications': {
    get: route(tag, {
      summary: 'Заявки на роли',
      access: ['ADMIN'],
      query: applicationListQuerySchema,
      ok: pageAnswer('Страница заявок', applicationSchema, 'RoleApplicationPage'),
    }),
  },
  '/api/applications/{id}/approve': { post: decision('Одобрить заявку (назначает роль)', 'Заявка одобрена') },
  '/api/applications/{id}/decline': { post: decision('Отклонить заявку', 'Заявка отклонена') },
  '/api/consent/document': {
    get: publicRoute({
      summary: 'Текст согласия на обработку персональных данных',
      description: 'Действующая редакция (version); регистрация показывает её со своим флажком.',
      ok: { status: 200, description: 'Текст согласия', schema: consentDocumentSchema },
    }),
  },
  '/api/consent': {
    get: route(tag, {
      summary: 'Своё согласие на обработку персональных данных',
      description: 'required: true, пока нет действующего согласия с текущей редакцией; портал спрашивает его перед работой.',
      access: ROLES,
      ok: { status: 200, description: 'Своё согласие', schema: consentStateSchema },
    }),
    post: route(tag, {
      summary: 'Дать согласие на обработку персональных данных',
      description:
        'Записывает, кто, какую редакцию, когда и с какого адреса принял. Повторное согласие с той же редакцией ничего не меняет (200).',
      access: ROLES,
      body: consentAcceptSchema,
      example: { version: CONSENT_DOCUMENT.version },
      ok: { status: 201, description: 'Согласие записано', schema: consentAnswerSchema },
      alsoOk: { 200: { description: 'Согласие уже действует', schema: consentAnswerSchema } },
      also: { 409: { description: 'Редакция устарела', example: CONSENT_MSG.outdated } },
    }),
  },
  '/api/consent/withdraw': {
    post: route(tag, {
      summary: 'Отозвать согласие',
      description: 'Согласие помечается отозванным, и для администратора создаётся запрос на обезличивание данных.',
      access: ROLES,
      ok: { status: 200, description: 'Согласие отозвано', schema: consentAnswerSchema },
      also: { 409: { description: 'Действующего согласия нет', example: CONSENT_MSG.notGiven } },
    }),
  },
  '/api/staff-import/template': {
    get: route(tag, {
      summary: 'Шаблон файла импорта сотрудников',
      description:
        'XLSX или CSV (UTF-8, «;») со столбцами ФИО, Email, Подразделение, Должность, Роль и двумя строками-примерами.',
      access: STAFF_ROLES,
      query: staffImportTemplateQuerySchema,
      ok: fileAnswer('Файл шаблона', XLSX_TYPE),
    }),
  },
  '/api/staff-import': {
    post: route(tag, {
      summary: 'Предпросмотр импорта сотрудников',
      description:
        'Файл XLSX или CSV (base64) проверяется построчно: новый сотрудник, изменение, без изменений или ошибка с причиной. Ничего не записывается, кроме записи самого импорта. Куратор не может назначать роли выше своей.',
      access: STAFF_ROLES,
      body: staffImportSchema,
      example: { fileName: 'штат.csv', content: 'RklPO0VtYWlsOy4uLg==' },
      ok: { status: 201, description: 'Результат каждой строки', schema: importPreviewSchema },
    }),
  },
  '/api/staff-import/{id}/batch': {
    post: route(tag, {
      summary: 'Следующая партия импорта',
      description:
        'Записывает до 100 строк начиная с from, снова сверяясь с хранилищем по email (повторный запуск ничего не меняет). Новым сотрудникам — одноразовая ссылка для установки пароля: письмом, если настроена почта, иначе в ответе. Завершённый импорт записывается в журнал одним событием со счётчиками.',
      access: STAFF_ROLES,
      params: idParam('id', 'Идентификатор импорта'),
      body: staffImportBatchSchema,
      example: { from: 0 },
      ok: { status: 200, description: 'Партия записана', schema: importBatchSchema },
      also: missing('Импорта нет или он завершён', IMPORT_MSG.importNotFound),
    }),
  },
};
