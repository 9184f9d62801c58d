import { z } from 'zod';
import { SSO_ERRORS, corporateSignInSchema, ssoExchangeSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { ownAccount } from '../../policies/users';
import { authResponseSchema } from '../schema';

/*
 * The corporate sign-in (OpenID Connect, docs/decisions/corporate-sign-in): /auth asks whether it is
 * on, sends the browser to `start`, the provider sends it back to `callback`, which sends it on to
 * /auth with a one-time code (or `?ssoError=`), and /auth exchanges the code for a session. The
 * browser steps are open to anyone: what proves a person is the provider's answer, checked here.
 */

const location = z.object({ location: z.string().meta({ description: 'Куда перейти браузеру' }) });

export const getCorporateSignIn = defineRoute({
  method: 'GET',
  path: '/api/auth/oidc',
  operationId: 'getCorporateSignIn',
  summary: 'Вход через корпоративный аккаунт: включён ли, как называется, разрешён ли вход по паролю',
  access: 'public',
  ok: { status: 200, description: 'Настройки входа для страницы /auth', schema: corporateSignInSchema },
});

export const startCorporateSignIn = defineRoute({
  method: 'GET',
  path: '/api/auth/oidc/start',
  operationId: 'startCorporateSignIn',
  summary: 'Начать вход через корпоративный аккаунт',
  description:
    'Перенаправляет браузер на страницу входа провайдера (поток кода авторизации с PKCE, state и nonce). ' +
    '`returnTo` — страница портала, куда вернуться после входа. Если провайдер недоступен — на /auth?ssoError=…',
  access: 'public',
  query: z.object({
    returnTo: z.string().max(2000).optional().meta({ description: 'Путь страницы портала, например /courses' }),
  }),
  ok: { status: 302, description: 'Перенаправление на провайдера (или на /auth?ssoError=…)', headers: location },
  also: { 404: { description: 'Вход через корпоративный аккаунт не настроен', example: SSO_ERRORS.disabled } },
});

export const finishCorporateSignIn = defineRoute({
  method: 'GET',
  path: '/api/auth/oidc/callback',
  operationId: 'finishCorporateSignIn',
  summary: 'Возврат от провайдера корпоративного входа',
  description:
    'Проверяет state, код (PKCE) и ID-токен (подпись, издатель, получатель, срок, nonce), находит, связывает по подтверждённому email ' +
    'или создаёт человека и перенаправляет на /auth?sso=<одноразовый код>; при любой ошибке — на /auth?ssoError=<код>.',
  access: 'public',
  query: z.looseObject({}),
  ok: { status: 302, description: 'Перенаправление на /auth', headers: location },
  also: { 404: { description: 'Вход через корпоративный аккаунт не настроен', example: SSO_ERRORS.disabled } },
  audit: ['user.createdOnSignIn'],
});

export const exchangeCorporateSignIn = defineRoute({
  method: 'POST',
  path: '/api/auth/oidc/session',
  operationId: 'exchangeCorporateSignIn',
  summary: 'Обменять одноразовый код корпоративного входа на сеанс',
  description: 'Код действует 60 секунд и один раз. Ответ такой же, как у входа по паролю.',
  access: 'public',
  body: ssoExchangeSchema,
  example: { code: 'одноразовый-код-из-адреса' },
  ok: { status: 200, description: 'Вход выполнен', schema: authResponseSchema },
  also: { 400: { description: 'Код неверен, устарел или уже использован', example: SSO_ERRORS.code } },
  audit: ['user.signedIn'],
});

export const getCorporateSignOut = defineRoute({
  method: 'GET',
  path: '/api/auth/oidc/logout-url',
  operationId: 'getCorporateSignOut',
  summary: 'Куда перейти после выхода, чтобы завершить и сеанс провайдера',
  description:
    'Для сеанса, открытого через корпоративный аккаунт, у провайдера с end_session_endpoint — адрес выхода у провайдера, ' +
    'который вернёт на /auth; иначе null. Сеанс портала завершает POST /api/auth/logout.',
  access: ownAccount,
  ok: {
    status: 200,
    description: 'Адрес или null',
    schema: z.object({ url: z.string().nullable() }).meta({ id: 'CorporateSignOut' }),
  },
  without: [403],
});
