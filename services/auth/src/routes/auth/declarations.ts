import {
  LOCAL_LOGIN_MSG,
  MSG,
  formatMessage,
  loginSchema,
  passwordChangeSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  registerSchema,
} from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { administerUsers, ownAccount } from '../../policies/users';
import {
  authResponseSchema,
  idParams,
  messageSchema,
  presetsSchema,
  profileSchema,
  resetLinkSchema,
  verifySchema,
} from '../schema';

/*
 * Signing up and in, a new password by link, and what those pages show are open to anyone; a
 * person's own session and password to every role (never a 403). The limits of the login and of the
 * password change are counted in their handlers: what counts is the outcome (a wrong password), which
 * only the handler knows; «Забыли пароль?» counts every request, before its handler.
 */

export const register = defineRoute({
  method: 'POST',
  path: '/api/auth/register',
  operationId: 'register',
  summary: 'Регистрация',
  description:
    'Создаёт учётную запись и сразу выдаёт токен. Роль CURATOR подаёт заявку: до одобрения человек учится как кандидат. ' +
    'Роль ADMIN — только первому администратору пустого портала, с паролем администратора (неверные попытки ограничены, как вход).',
  access: 'public',
  body: registerSchema,
  example: { email: 'ivan.petrov@example.ru', password: 'Kursy-Portal-42', fullName: 'Иван Петров', role: 'CANDIDATE' },
  ok: { status: 201, description: 'Учётная запись создана', schema: authResponseSchema },
  also: {
    403: {
      description:
        'Роль нельзя выбрать: MANAGER; ADMIN без пароля администратора или когда администратор уже есть; регистрация отключена (LOCAL_LOGIN)',
      example: MSG.adminPasswordRequired,
    },
    409: { description: 'Email уже занят', example: MSG.emailTaken },
    429: 'Слишком много неверных паролей администратора (заголовок Retry-After)',
  },
  // The sign-up, a wrong administrator password, the consent given with it, and an application for a staff role.
  audit: ['user.registered', 'adminRegistration.failed', 'consent.given', 'application.filed'],
});

export const login = defineRoute({
  method: 'POST',
  path: '/api/auth/login',
  operationId: 'login',
  summary: 'Вход',
  access: 'public',
  body: loginSchema,
  example: { email: 'ivan.petrov@example.ru', password: 'Kursy-Portal-42' },
  ok: { status: 200, description: 'Вход выполнен', schema: authResponseSchema },
  also: {
    401: { description: 'Неверный email или пароль', example: MSG.badCredentials },
    403: { description: 'Вход по паролю отключён (LOCAL_LOGIN) для этой учётной записи', example: LOCAL_LOGIN_MSG.passwordOff },
    429: 'Слишком много неудачных попыток (заголовок Retry-After)',
  },
  audit: ['user.signedIn', 'signIn.failed'],
});

export const getProfile = defineRoute({
  method: 'GET',
  path: '/api/auth/profile',
  operationId: 'getProfile',
  summary: 'Свой профиль и последняя заявка на роль',
  access: ownAccount,
  ok: { status: 200, description: 'Профиль', schema: profileSchema },
  without: [403],
});

export const verifyToken = defineRoute({
  method: 'GET',
  path: '/api/auth/verify',
  operationId: 'verifyToken',
  summary: 'Проверка токена',
  access: ownAccount,
  ok: { status: 200, description: 'Токен действителен', schema: verifySchema },
  without: [403],
});

export const logout = defineRoute({
  method: 'POST',
  path: '/api/auth/logout',
  operationId: 'logout',
  summary: 'Выход (завершает этот сеанс)',
  access: ownAccount,
  ok: { status: 204, description: 'Сеанс завершён' },
  without: [403],
  audit: ['user.signedOut'],
});

export const logoutEverywhere = defineRoute({
  method: 'POST',
  path: '/api/auth/logout-all',
  operationId: 'logoutEverywhere',
  summary: 'Выход на всех устройствах',
  access: ownAccount,
  ok: { status: 204, description: 'Все сеансы завершены' },
  without: [403],
  audit: ['user.signedOutEverywhere'],
});

export const changePassword = defineRoute({
  method: 'POST',
  path: '/api/auth/password',
  operationId: 'changePassword',
  summary: 'Смена своего пароля',
  description: 'Остальные сеансы человека завершаются.',
  access: ownAccount,
  body: passwordChangeSchema,
  example: { currentPassword: 'Kursy-Portal-42', newPassword: 'Novyi-Parol-2027' },
  ok: { status: 200, description: 'Пароль изменён', schema: messageSchema },
  also: { 429: 'Слишком много неверных попыток' },
  without: [403],
  audit: ['password.changed'],
});

export const requestPasswordLink = defineRoute({
  method: 'POST',
  path: '/api/auth/forgot-password',
  operationId: 'requestPasswordLink',
  summary: '«Забыли пароль?»: одноразовая ссылка для смены пароля на почту',
  description:
    'Ответ один и тот же, есть ли учётная запись с этим email или нет; ссылка отправляется письмом, если учётная запись есть. ' +
    'Запросы ограничены, как неудачные входы.',
  access: 'public',
  body: passwordResetRequestSchema,
  example: { email: 'ivan.petrov@example.ru' },
  ok: { status: 202, description: 'Запрос принят', schema: messageSchema },
  also: { 403: { description: 'Восстановление пароля отключено (LOCAL_LOGIN)', example: LOCAL_LOGIN_MSG.resetOff } },
  rateLimit: {
    name: 'passwordLinkRequests',
    refusal: {
      description: 'Слишком много запросов (заголовок Retry-After)',
      example: formatMessage(MSG.tooManyResetRequests, { seconds: 60 }),
    },
  },
  audit: ['passwordLink.mailed'],
});

export const resetPassword = defineRoute({
  method: 'POST',
  path: '/api/auth/password-reset',
  operationId: 'resetPassword',
  summary: 'Новый пароль по одноразовой ссылке (администратора или «Забыли пароль?»)',
  access: 'public',
  body: passwordResetSchema,
  example: { token: 'токен-из-ссылки', password: 'Novyi-Parol-2027' },
  ok: { status: 200, description: 'Пароль установлен, все сеансы завершены', schema: messageSchema },
  also: {
    403: { description: 'Вход по паролю для этой учётной записи отключён (LOCAL_LOGIN)', example: LOCAL_LOGIN_MSG.resetOff },
  },
  audit: ['password.reset'],
});

/** The preset picker of /auth reads the accounts from here, so turning presets off hides it. */
export const listPresets = defineRoute({
  method: 'GET',
  path: '/api/auth/presets',
  operationId: 'listPresets',
  summary: 'Демонстрационные учётные записи для быстрого входа',
  access: 'public',
  ok: { status: 200, description: 'Список (пустой, когда они выключены)', schema: presetsSchema },
});

export const issuePasswordLink = defineRoute({
  method: 'POST',
  path: '/api/users/:id/password-reset',
  operationId: 'issuePasswordLink',
  summary: 'Выдать одноразовую ссылку для смены пароля',
  access: administerUsers,
  params: idParams('Идентификатор пользователя'),
  ok: { status: 201, description: 'Ссылка выдана', schema: resetLinkSchema },
  also: { 404: { description: 'Пользователя нет', example: 'Пользователь не найден' } },
  audit: ['passwordLink.issued'],
});
