import { z } from 'zod';

/** Who may sign in with a portal password: everyone, only ADMIN accounts (the break-glass), nobody. */
export const LOCAL_LOGIN_MODES = ['all', 'admins', 'none'] as const;
export type LocalLoginMode = (typeof LOCAL_LOGIN_MODES)[number];

/** What /auth needs to know about the corporate sign-in (OpenID Connect). */
export const corporateSignInSchema = z.object({
  enabled: z.boolean(),
  /** The provider's name as the button says it: «Войти через <displayName>». */
  displayName: z.string(),
  localLogin: z.enum(LOCAL_LOGIN_MODES),
});
export type CorporateSignIn = z.infer<typeof corporateSignInSchema>;

/** The one-time code /auth receives in `?sso=` and exchanges for a session. */
export const ssoExchangeSchema = z.strictObject({
  code: z.string({ error: 'Код входа не передан' }).min(1, 'Код входа не передан').max(200, 'Код входа не распознан'),
});

/**
 * Why a corporate sign-in failed: the code in `/auth?ssoError=`, and what the screen says for it.
 * The technical reason is in the auth service's log, never in the address.
 */
export const SSO_ERRORS = {
  disabled: 'Вход через корпоративный аккаунт не настроен',
  unavailable: 'Сервер корпоративного входа сейчас недоступен. Попробуйте позже',
  denied: 'Вход через корпоративный аккаунт отменён',
  state: 'Попытка входа устарела или уже использована. Начните вход заново',
  nonce: 'Ответ сервера корпоративного входа не относится к этой попытке входа. Начните вход заново',
  audience: 'Ответ сервера корпоративного входа выдан другому приложению. Вход отклонён',
  expired: 'Ответ сервера корпоративного входа просрочен. Проверьте время на устройстве и начните вход заново',
  signature: 'Подпись ответа сервера корпоративного входа не подтверждена. Вход отклонён',
  rejected: 'Ответ сервера корпоративного входа не прошёл проверку. Вход отклонён',
  email: 'Корпоративный аккаунт не сообщил адрес электронной почты. Обратитесь к администратору',
  unverified:
    'Учётная запись с этим адресом уже есть на портале, а сервер корпоративного входа не подтвердил адрес. Обратитесь к администратору',
  code: 'Код входа устарел или уже использован. Начните вход заново',
  suspended: 'Учётная запись приостановлена: человека нет в корпоративном справочнике. Обратитесь к администратору',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;

export const LOCAL_LOGIN_MSG = {
  passwordOff: 'Вход по паролю отключён: войдите через корпоративный аккаунт',
  registrationOff: 'Регистрация отключена: войдите через корпоративный аккаунт',
  resetOff: 'Восстановление пароля отключено: войдите через корпоративный аккаунт',
} as const;
