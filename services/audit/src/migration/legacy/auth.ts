import { SUBJECT_REQUEST_KINDS, SUBJECT_REQUEST_LABELS, type Role, type SubjectRequestKind } from '@portal/contracts';
import { legacy } from './define';

/** A role as the service wrote it, its code; one this portal does not have fails the schema, and the record keeps its text. */
const roleOf = (code: string) => code as Role;
const kindOf = (label: string): SubjectRequestKind =>
  SUBJECT_REQUEST_KINDS.find((kind) => SUBJECT_REQUEST_LABELS[kind] === label) ?? (label as SubjectRequestKind);
const count = (text: string) => Number(text);

/** What the corporate sign-in wrote in brackets after «через корпоративный аккаунт», by outcome. */
const corporateOf = (note: string | undefined) =>
  note === undefined
    ? ('found' as const)
    : note === 'учётная запись связана по подтверждённому email'
      ? ('linked' as const)
      : ('created' as const);

/** A role's code in the text. */
const ROLE = '([A-Za-z_]+)';

export const AUTH_LEGACY = [
  legacy('user.registered', new RegExp(`^Регистрация с ролью ${ROLE}$`), (m) => ({ role: roleOf(m[1]) }), {
    details: 'Регистрация с ролью CANDIDATE',
    phrase: 'зарегистрировался с ролью «Кандидат»',
  }),
  legacy(
    'adminRegistration.failed',
    /^Неудачная попытка регистрации администратора: неверный пароль администратора, (.*), адрес (.*)$/,
    (m) => ({ email: m[1], address: m[2] }),
    {
      details: 'Неудачная попытка регистрации администратора: неверный пароль администратора, anna@example.ru, адрес 192.0.2.10',
      phrase: 'попытался зарегистрироваться администратором с неверным паролем',
    },
  ),
  legacy(
    'user.createdOnSignIn',
    new RegExp(`^Создан при первом входе через корпоративный аккаунт, роль ${ROLE}$`),
    (m) => ({ role: roleOf(m[1]) }),
    {
      details: 'Создан при первом входе через корпоративный аккаунт, роль CLIENT',
      phrase: 'вошёл впервые через корпоративный аккаунт и получил роль «Клиент»',
    },
  ),
  legacy('user.signedIn', /^Вход в систему$/, () => ({}), { details: 'Вход в систему', phrase: 'вошёл в систему' }),
  legacy(
    'user.signedIn',
    /^Вход в систему через корпоративный аккаунт(?: \((.*)\))?$/,
    (m) => ({ corporate: corporateOf(m[1]) }),
    {
      details: 'Вход в систему через корпоративный аккаунт (учётная запись связана по подтверждённому email)',
      phrase: 'вошёл в систему',
    },
  ),
  legacy(
    'signIn.failed',
    /^Неудачная попытка входа: (неверный пароль|нет пользователя) (.*), адрес (.*)$/,
    (m) => ({ email: m[2], address: m[3], reason: m[1] === 'неверный пароль' ? 'wrongPassword' : 'noAccount' }),
    {
      details: 'Неудачная попытка входа: неверный пароль olga@example.test, адрес 192.0.2.40',
      phrase: 'отклонил попытку входа olga@example.test: неверный пароль',
    },
  ),
  legacy('user.signedOut', /^Выход из системы$/, () => ({}), { details: 'Выход из системы', phrase: 'вышел из системы' }),
  legacy('user.signedOutEverywhere', /^Выход на всех устройствах$/, () => ({}), {
    details: 'Выход на всех устройствах',
    phrase: 'вышел из системы на всех устройствах',
  }),
  legacy('password.changed', /^Смена пароля, остальные сеансы завершены$/, () => ({}), {
    details: 'Смена пароля, остальные сеансы завершены',
    phrase: 'сменил пароль',
  }),
  legacy('passwordLink.issued', /^Выдана ссылка для смены пароля пользователю (.*)$/, (m) => ({ email: m[1] }), {
    details: 'Выдана ссылка для смены пароля пользователю olga@example.test',
    phrase: 'выдал ссылку для смены пароля пользователю olga@example.test',
  }),
  legacy(
    'passwordLink.mailed',
    /^Ссылка для смены пароля отправлена по запросу «Забыли пароль\?» на (.*), адрес (.*)$/,
    (m) => ({ email: m[1], address: m[2] }),
    {
      details: 'Ссылка для смены пароля отправлена по запросу «Забыли пароль?» на olga@example.test, адрес 192.0.2.80',
      phrase: 'отправил ссылку для смены пароля на olga@example.test',
    },
  ),
  legacy('password.reset', /^Пароль установлен по одноразовой ссылке, все сеансы завершены$/, () => ({}), {
    details: 'Пароль установлен по одноразовой ссылке, все сеансы завершены',
    phrase: 'сменил пароль по одноразовой ссылке',
  }),
  legacy('users.exported', /^Выгрузка справочника пользователей в (\S+)$/, (m) => ({ file: m[1] }), {
    details: 'Выгрузка справочника пользователей в users.xlsx',
    phrase: 'выгрузил справочник пользователей',
  }),
  legacy(
    'users.viewed',
    /^Просмотр справочника пользователей: страница (\d+), записей (\d+)$/,
    (m) => ({ page: count(m[1]), records: count(m[2]) }),
    { details: 'Просмотр справочника пользователей: страница 2, записей 20', phrase: 'просмотрел справочник пользователей' },
  ),
  legacy('user.viewed', /^Просмотр данных пользователя (.*)$/, (m) => ({ email: m[1] }), {
    details: 'Просмотр данных пользователя olga@example.test',
    phrase: 'просмотрел данные пользователя olga@example.test',
  }),
  legacy(
    'user.updated',
    // The email ends at the first «, роль» or «, подразделение»; the department runs to the last «».
    new RegExp(`^Изменён пользователь (.*?)(?:, роль ${ROLE} → ${ROLE})?(?:, подразделение «(.*)»)?$`),
    (m) => ({
      email: m[1],
      changes: {
        ...(m[2] !== undefined ? { role: { from: roleOf(m[2]), to: roleOf(m[3]) } } : {}),
        // The text named only the new department.
        ...(m[4] !== undefined ? { department: { from: null, to: m[4] } } : {}),
      },
    }),
    {
      details: 'Изменён пользователь olga@example.test, роль CLIENT → CURATOR',
      phrase: 'изменил пользователя olga@example.test: роль Клиент → Куратор',
    },
  ),
  legacy('user.deleted', /^Удалён пользователь (.*)$/, (m) => ({ email: m[1] }), {
    details: 'Удалён пользователь olga@example.test',
    phrase: 'удалил пользователя olga@example.test',
  }),
  legacy(
    'staff.imported',
    /^Импорт сотрудников из файла «(.*)»: новых (\d+), изменено (\d+), без изменений (\d+), с ошибками (\d+)$/,
    (m) => ({
      file: m[1],
      counts: { new: count(m[2]), update: count(m[3]), same: count(m[4]), error: count(m[5]) },
    }),
    {
      details: 'Импорт сотрудников из файла «штат.xlsx»: новых 990, изменено 0, без изменений 0, с ошибками 10',
      phrase: 'импортировал сотрудников: новых 990, изменено 0',
    },
  ),
  legacy(
    'directory.synced',
    /^Синхронизация с корпоративным каталогом \((по расписанию|запуск администратора)\): прочитано (\d+), новых (\d+), изменено (\d+), без изменений (\d+), приостановлено (\d+), деактивировано (\d+), восстановлено (\d+), с ошибками (\d+)$/,
    (m) => ({
      trigger: m[1] === 'по расписанию' ? 'schedule' : 'admin',
      read: count(m[2]),
      counts: {
        create: count(m[3]),
        update: count(m[4]),
        same: count(m[5]),
        suspend: count(m[6]),
        deactivate: count(m[7]),
        reactivate: count(m[8]),
        error: count(m[9]),
      },
    }),
    {
      details:
        'Синхронизация с корпоративным каталогом (по расписанию): прочитано 1200, новых 3, изменено 2, без изменений 1190, приостановлено 1, деактивировано 0, восстановлено 0, с ошибками 0',
      phrase: 'синхронизировал сотрудников с корпоративным каталогом: новых 3, изменено 2, приостановлено 1, деактивировано 0',
    },
  ),
  legacy(
    'directoryRun.peopleViewed',
    /^Просмотр сотрудников запуска синхронизации с каталогом: страница (\d+), записей (\d+)$/,
    (m) => ({ page: count(m[1]), records: count(m[2]) }),
    {
      details: 'Просмотр сотрудников запуска синхронизации с каталогом: страница 1, записей 50',
      phrase: 'просмотрел сотрудников запуска синхронизации с каталогом',
    },
  ),
  legacy(
    'consent.given',
    /^Согласие на обработку персональных данных, редакция (.*), с адреса (.*)$/,
    // «неизвестен» stood for an address the request did not give.
    (m) => ({ version: m[1], address: m[2] === 'неизвестен' ? null : m[2] }),
    {
      details: 'Согласие на обработку персональных данных, редакция 2026-11-25, с адреса 192.0.2.10',
      phrase: 'дал согласие на обработку персональных данных',
    },
  ),
  legacy('consent.withdrawn', /^Отзыв согласия на обработку персональных данных, редакция (.*)$/, (m) => ({ version: m[1] }), {
    details: 'Отзыв согласия на обработку персональных данных, редакция 2026-11-25',
    phrase: 'отозвал согласие на обработку персональных данных',
  }),
  legacy(
    'subjectRequest.filed',
    /^Запрос на обезличивание данных (.*): отзыв согласия$/,
    (m) => ({ kind: 'anonymise', reason: 'withdrawal', email: m[1] }),
    {
      details: 'Запрос на обезличивание данных olga@example.test: отзыв согласия',
      phrase: 'запросил обезличивание данных olga@example.test',
    },
  ),
  legacy('subjectRequest.filed', /^Запрос «(.*)» о данных (.*)$/, (m) => ({ kind: kindOf(m[1]), reason: 'admin', email: m[2] }), {
    details: 'Запрос «Выгрузка данных» о данных olga@example.test',
    phrase: 'запросил выгрузку данных olga@example.test',
  }),
  legacy('application.filed', new RegExp(`^Заявка на роль ${ROLE} от (.*)$`), (m) => ({ role: roleOf(m[1]), email: m[2] }), {
    details: 'Заявка на роль CURATOR от olga@example.test',
    phrase: 'подал заявку на роль «Куратор»',
  }),
  legacy(
    'application.approved',
    new RegExp(`^Одобрена заявка (.*) на роль ${ROLE}$`),
    (m) => ({ email: m[1], role: roleOf(m[2]) }),
    {
      details: 'Одобрена заявка olga@example.test на роль CURATOR',
      phrase: 'одобрил заявку olga@example.test на роль «Куратор»',
    },
  ),
  legacy(
    'application.declined',
    new RegExp(`^Отклонена заявка (.*) на роль ${ROLE}$`),
    (m) => ({ email: m[1], role: roleOf(m[2]) }),
    {
      details: 'Отклонена заявка olga@example.test на роль CURATOR',
      phrase: 'отклонил заявку olga@example.test на роль «Куратор»',
    },
  ),
];
