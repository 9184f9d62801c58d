/** Every user-facing server message, in one place, so services and clients quote the same text. */
export const MSG = {
  internal: 'Внутренняя ошибка сервера. Попробуйте ещё раз позже',
  notFoundRoute: 'Такого адреса API нет',
  methodNotAllowed: 'Этот адрес API не принимает запросы такого вида',
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
  overloaded: 'Сервер перегружен. Повторите попытку через секунду',
  badCharacters: 'Недопустимые символы в запросе',
  badBodyEncoding: 'Тело запроса повреждено: оно не сжато указанным способом',
  unsupportedBodyEncoding: 'Неподдерживаемый способ сжатия тела запроса',
  jsonOnly: 'Поддерживается только JSON',
  headersTooLarge: 'Слишком длинный адрес или заголовки запроса',
  malformedRequest: 'Некорректный HTTP-запрос',
  requestTimeout: 'Запрос не был получен вовремя',
  rangeNotSatisfiable: 'Запрошенная часть файла недоступна',
  fillAllFields: 'Пожалуйста, заполните все поля',
  enterName: 'Пожалуйста, введите ваше имя',
  passwordsMismatch: 'Пароли не совпадают',
  adminPasswordRequired: 'Для роли администратора требуется специальный пароль',
  adminExists: 'Администратор на портале уже есть: роль администратора назначает администратор в справочнике пользователей',
  tooManyAdminGuesses: 'Слишком много неверных попыток ввести пароль администратора. Попробуйте снова через {seconds} с',
  roleNotAllowed: 'Эту роль нельзя выбрать при регистрации',
  emailTaken: 'Пользователь с таким email уже зарегистрирован',
  emailInvalid: 'Некорректный email',
  passwordTooShort: 'Пароль должен содержать не менее 8 символов',
  passwordTooCommon: 'Этот пароль слишком распространён, его легко подобрать. Придумайте другой',
  passwordHasEmail: 'Пароль не должен содержать имя из вашего email',
  currentPasswordWrong: 'Текущий пароль указан неверно',
  passwordChanged: 'Пароль изменён. Остальные сеансы завершены',
  resetLinkInvalid: 'Ссылка для смены пароля недействительна: она устарела или уже использована',
  passwordReset: 'Пароль установлен. Войдите с новым паролем',
  resetRequested:
    'Если на портале есть учётная запись с этим email, на него отправлена ссылка для смены пароля. Она действует 24 часа и один раз',
  tooManyResetRequests: 'Слишком много запросов ссылки для смены пароля. Попробуйте снова через {seconds} с',
  badCredentials: 'Неверный email или пароль',
  tooManyAttempts: 'Слишком много неудачных попыток входа. Попробуйте снова через {seconds} с',
  fillRequired: 'Заполните обязательные поля',
  userDepartmentAdminOnly: 'Подразделение и должность меняет только администратор',
  curatorCannotGrantAdmin: 'Куратор не может назначить роль администратора',
  lastAdmin: 'Нельзя снять роль с последнего администратора',
  loginOk: 'Вход выполнен успешно',
  registerOk: 'Регистрация прошла успешно',
  applicationFiled:
    'Регистрация прошла успешно. Заявка на роль «{role}» отправлена администратору; пока она рассматривается, вы можете учиться как кандидат',
  applicationNotFound: 'Заявка не найдена',
  applicationDecided: 'Заявка уже рассмотрена',
  applicationApproved: 'Заявка одобрена: роль «{role}» назначена',
  applicationDeclined: 'Заявка отклонена',
  userEditPeer: 'Изменять можно только учётные записи учащихся (клиентов и кандидатов)',
  userEmailRoleAdminOnly: 'Email и роль другого пользователя меняет только администратор',
  ownRoleAdminOnly: 'Свою роль может изменить только администратор',
  staleDocument: 'Документ изменён другим пользователем',
  versionInvalid: 'Версия документа должна быть целым неотрицательным числом',
  versionRequired: 'Укажите версию изменяемой записи (поле version или заголовок If-Match): без неё можно затереть чужие правки',
  idempotencyKeyInvalid: 'Заголовок Idempotency-Key — от 1 до 255 печатных латинских символов',
  idempotencyKeyReused: 'Этот Idempotency-Key уже использован для другого запроса',
  idempotencyInProgress: 'Запрос с этим Idempotency-Key ещё выполняется. Повторите его чуть позже',
} as const;

/** What a model's own checks say (behind the zod schemas, which say it first). */
export const STORE_MSG = {
  required: 'Поле «{field}» обязательно',
  tooLong: 'Поле «{field}» слишком длинное: не более {max} символов',
  tooShort: 'Поле «{field}» слишком короткое: не менее {min} символов',
  tooBig: 'Поле «{field}» слишком большое: не более {max}',
  tooSmall: 'Поле «{field}» слишком маленькое: не менее {min}',
  wrongType: 'Поле «{field}» имеет неверный тип',
  invalid: 'Поле «{field}» заполнено неверно',
} as const;

/**
 * The whole raw answer to a request node's HTTP parser refused before any handler ran (a URL or
 * headers over the size limit, a malformed request line or header, a request sent too slowly):
 * node's own answer has no body, so the person would get a bare status.
 */
export function malformedRequestAnswer(code: string | undefined): string {
  const [status, reason, message] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', MSG.headersTooLarge]
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', MSG.requestTimeout]
        : [400, 'Bad Request', MSG.malformedRequest];
  const body = JSON.stringify({ message, statusCode: status });
  const length = new TextEncoder().encode(body).length;
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`;
}

export const formatMessage = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
