/** Every user-facing server message, in one place, so services and clients quote the same text. */
export const MSG = {
  internal: 'Внутренняя ошибка сервера. Попробуйте ещё раз позже',
  notFoundRoute: 'Такого адреса API нет',
  notFound: 'Запись не найдена',
  badJson: 'Некорректный JSON в теле запроса',
  bodyTooLarge: 'Слишком большой запрос',
  validation: 'Проверьте правильность заполнения полей',
  unauthorized: 'Требуется вход в систему',
  badToken: 'Сессия недействительна или истекла. Войдите снова',
  forbidden: 'Недостаточно прав для этого действия',
  storeUnavailable: 'Хранилище данных временно недоступно. Повторите попытку позже',
  serviceUnavailable: 'Сервис временно недоступен. Повторите попытку позже',
  serviceTimeout: 'Сервис не ответил вовремя. Повторите попытку позже',
  fillAllFields: 'Пожалуйста, заполните все поля',
  enterName: 'Пожалуйста, введите ваше имя',
  passwordsMismatch: 'Пароли не совпадают',
  adminPasswordRequired: 'Для роли администратора требуется специальный пароль',
  roleNotAllowed: 'Эту роль нельзя выбрать при регистрации',
  emailTaken: 'Пользователь с таким email уже зарегистрирован',
  emailInvalid: 'Некорректный email',
  passwordTooShort: 'Пароль должен содержать не менее 8 символов',
  badCredentials: 'Неверный email или пароль',
  tooManyAttempts: 'Слишком много неудачных попыток входа. Попробуйте снова через {seconds} с',
  fillRequired: 'Заполните обязательные поля',
  curatorCannotGrantAdmin: 'Куратор не может назначить роль администратора',
  lastAdmin: 'Нельзя снять роль с последнего администратора',
  loginOk: 'Вход выполнен успешно',
  registerOk: 'Регистрация прошла успешно',
} as const;

export const formatMessage = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
