import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  CRM_ROLES,
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
  loginSchema,
  passwordChangeSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  registerSchema,
} from '@portal/contracts';
import { XLSX_TYPE, fileAnswer, idParam, missing, noContent, pageAnswer, route, routesOf } from '../route';
import { TAGS } from '../tags';
import {
  applicationDecisionSchema,
  applicationSchema,
  authResponseSchema,
  consentAnswerSchema,
  consentDocumentSchema,
  consentStateSchema,
  importBatchSchema,
  importPreviewSchema,
  messageSchema,
  presetsSchema,
  profileSchema,
  resetLinkSchema,
  verifySchema,
} from '@portal/svc-auth/routes/api';

const tag = TAGS.auth.name;
/** Signing up and in, a new password by link, and what those pages show: open to anyone. */
const publicRoute = routesOf(tag, { access: 'public' });
/** A person's own session and password: open to every role, refused to none. */
const ownRoute = routesOf(tag, { access: ROLES, without: [403] });
/** The directory's routes about one person. */
const userRoute = routesOf(tag, {
  access: CRM_ROLES,
  params: idParam('id', 'Идентификатор пользователя'),
  also: missing('Пользователя нет', 'Пользователь не найден'),
});

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
  '/api/auth/register': {
    post: publicRoute({
      summary: 'Регистрация',
      description:
        'Создаёт учётную запись и сразу выдаёт токен. Роль CURATOR подаёт заявку: до одобрения человек учится как кандидат. ' +
        'Роль ADMIN — только первому администратору пустого портала, с паролем администратора (неверные попытки ограничены, как вход).',
      body: registerSchema,
      example: { email: 'ivan.petrov@example.ru', password: 'Kursy-Portal-42', fullName: 'Иван Петров', role: 'CANDIDATE' },
      ok: { status: 201, description: 'Учётная запись создана', schema: authResponseSchema },
      also: {
        403: {
          description: 'Роль нельзя выбрать: MANAGER; ADMIN без пароля администратора или когда администратор уже есть',
          example: MSG.adminPasswordRequired,
        },
        409: { description: 'Email уже занят', example: MSG.emailTaken },
        429: 'Слишком много неверных паролей администратора (заголовок Retry-After)',
      },
    }),
  },
  '/api/auth/login': {
    post: publicRoute({
      summary: 'Вход',
      body: loginSchema,
      example: { email: 'ivan.petrov@example.ru', password: 'Kursy-Portal-42' },
      ok: { status: 200, description: 'Вход выполнен', schema: authResponseSchema },
      also: {
        401: { description: 'Неверный email или пароль', example: MSG.badCredentials },
        429: 'Слишком много неудачных попыток (заголовок Retry-After)',
      },
    }),
  },
  '/api/auth/profile': {
    get: ownRoute({
      summary: 'Свой профиль и последняя заявка на роль',
      ok: { status: 200, description: 'Профиль', schema: profileSchema },
    }),
  },
  '/api/auth/verify': {
    get: ownRoute({ summary: 'Проверка токена', ok: { status: 200, description: 'Токен действителен', schema: verifySchema } }),
  },
  '/api/auth/logout': {
    post: ownRoute({ summary: 'Выход (завершает этот сеанс)', ok: noContent('Сеанс завершён') }),
  },
  '/api/auth/logout-all': {
    post: ownRoute({ summary: 'Выход на всех устройствах', ok: noContent('Все сеансы завершены') }),
  },
  '/api/auth/password': {
    post: ownRoute({
      summary: 'Смена своего пароля',
      description: 'Остальные сеансы человека завершаются.',
      body: passwordChangeSchema,
      example: { currentPassword: 'Kursy-Portal-42', newPassword: 'Novyi-Parol-2027' },
      ok: { status: 200, description: 'Пароль изменён', schema: messageSchema },
      also: { 429: 'Слишком много неверных попыток' },
    }),
  },
  '/api/auth/forgot-password': {
    post: publicRoute({
      summary: '«Забыли пароль?»: одноразовая ссылка для смены пароля на почту',
      description:
        'Ответ один и тот же, есть ли учётная запись с этим email или нет; ссылка отправляется письмом, если учётная запись есть. ' +
        'Запросы ограничены, как неудачные входы.',
      body: passwordResetRequestSchema,
      example: { email: 'ivan.petrov@example.ru' },
      ok: { status: 202, description: 'Запрос принят', schema: messageSchema },
      also: { 429: 'Слишком много запросов (заголовок Retry-After)' },
    }),
  },
  '/api/auth/password-reset': {
    post: publicRoute({
      summary: 'Новый пароль по одноразовой ссылке (администратора или «Забыли пароль?»)',
      body: passwordResetSchema,
      example: { token: 'токен-из-ссылки', password: 'Novyi-Parol-2027' },
      ok: { status: 200, description: 'Пароль установлен, все сеансы завершены', schema: messageSchema },
    }),
  },
  '/api/auth/presets': {
    get: publicRoute({
      summary: 'Демонстрационные учётные записи для быстрого входа',
      ok: { status: 200, description: 'Список (пустой, когда они выключены)', schema: presetsSchema },
    }),
  },
  '/api/users/{id}/password-reset': {
    post: userRoute({
      summary: 'Выдать одноразовую ссылку для смены пароля',
      access: ['ADMIN'],
      ok: { status: 201, description: 'Ссылка выдана', schema: resetLinkSchema },
    }),
  },
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
