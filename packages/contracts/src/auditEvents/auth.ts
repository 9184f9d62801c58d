import { z } from 'zod';
import { SUBJECT_REQUEST_KINDS, SUBJECT_REQUEST_LABELS } from '../privacy';
import { ROLES } from '../roles';
import {
  auditEvent,
  CHANGED,
  changeSchema,
  DELETED,
  EXPORTED,
  labelOf,
  REQUESTED,
  spaced,
  VIEWED,
  type AuditEventDefinition,
  type Verb,
} from './define';

const role = z.enum(ROLES);
const count = z.number().int();

/** A page of other people's personal data that was read (152-FZ): which page, and how many people on it. */
const pageRead = z.object({ page: count, records: count });

/** How a corporate account was matched to a person on sign-in (`signInPerson`'s outcome). */
const CORPORATE_SIGN_INS = ['found', 'linked', 'created'] as const;
const CORPORATE_NOTES: Record<(typeof CORPORATE_SIGN_INS)[number], string> = {
  found: '',
  linked: ' (учётная запись связана по подтверждённому email)',
  created: ' (учётная запись создана при первом входе)',
};

/** The fields of a person's card an edit changed, before and after. */
const userChanges = z.object({
  fullName: changeSchema.optional(),
  email: changeSchema.optional(),
  role: z.object({ from: role, to: role }).optional(),
  // `from` is null in a record written before the codes: its text named only the new department.
  department: z.object({ from: z.string().nullable(), to: z.string() }).optional(),
  position: changeSchema.optional(),
});

const staffImportCounts = z.object({ new: count, update: count, same: count, error: count });
/** A sync's counts, by outcome (`DirectoryCounts`). */
const directoryCounts = z.object({
  create: count,
  update: count,
  same: count,
  suspend: count,
  deactivate: count,
  reactivate: count,
  error: count,
});
const DIRECTORY_TRIGGERS = { schedule: 'по расписанию', admin: 'запуск администратора' } as const;

/** An application for a staff role, decided: the applicant's email and the role, and who applied. */
const decidedApplication = z.object({ email: z.string(), role, userId: z.string().optional() });

const SIGNED_IN: Verb = ['вошёл в систему', 'вошла в систему'];
const SIGNED_OUT: Verb = ['вышел из системы', 'вышла из системы'];
const CONSENT = 'согласие на обработку персональных данных';

/** « на роль «Куратор»». */
const onRole = (code: string) => ` на роль «${labelOf(code)}»`;

/**
 * The auth service's events: signing up, in and out, passwords, the directory of people and reads
 * of it, the staff import and the directory sync, consent and data-subject requests, applications.
 * Password events and signing out everywhere read in the feed as the generic change or sign-out.
 */
export const AUTH_EVENTS = {
  'user.registered': auditEvent({
    action: 'create',
    entity: 'user',
    data: z.object({ role }),
    details: ({ role }) => `Регистрация с ролью ${role}`,
    phrase: ({ role }, said) => `${said(['зарегистрировался', 'зарегистрировалась'])} с ролью «${labelOf(role)}»`,
  }),
  // The administrator password of an empty portal's first ADMIN, wrong; nobody is signed in.
  'adminRegistration.failed': auditEvent({
    action: 'create',
    entity: 'user',
    data: z.object({ email: z.string(), address: z.string() }),
    details: ({ email, address }) =>
      `Неудачная попытка регистрации администратора: неверный пароль администратора, ${email}, адрес ${address}`,
    phrase: (_, said) => `${said(['попытался', 'попыталась'])} зарегистрироваться администратором с неверным паролем`,
  }),
  'user.createdOnSignIn': auditEvent({
    action: 'create',
    entity: 'user',
    data: z.object({ role }),
    details: ({ role }) => `Создан при первом входе через корпоративный аккаунт, роль ${role}`,
    phrase: ({ role }, said) =>
      `${said(['вошёл', 'вошла'])} впервые через корпоративный аккаунт и ${said(['получил', 'получила'])} роль «${labelOf(role)}»`,
  }),
  'user.signedIn': auditEvent({
    action: 'login',
    entity: 'user',
    // Present when the person came through the company's provider.
    data: z.object({ corporate: z.enum(CORPORATE_SIGN_INS).optional() }),
    details: ({ corporate }) =>
      corporate ? `Вход в систему через корпоративный аккаунт${CORPORATE_NOTES[corporate]}` : 'Вход в систему',
    phrase: (_, said) => said(SIGNED_IN),
  }),
  // The password is never part of it; the email names the account even when none exists.
  'signIn.failed': auditEvent({
    action: 'login',
    entity: 'user',
    data: z.object({ email: z.string(), address: z.string(), reason: z.enum(['wrongPassword', 'noAccount']) }),
    details: ({ email, address, reason }) =>
      `Неудачная попытка входа: ${reason === 'wrongPassword' ? 'неверный пароль' : 'нет пользователя'} ${email}, адрес ${address}`,
    // Nobody is signed in: the portal («Система») tells it.
    phrase: ({ email, reason }, said) =>
      `${said(['отклонил', 'отклонила'])} попытку входа${spaced(email)}: ${reason === 'wrongPassword' ? 'неверный пароль' : 'нет пользователя'}`,
  }),
  'user.signedOut': auditEvent({
    action: 'logout',
    entity: 'user',
    data: z.object({}),
    details: () => 'Выход из системы',
    phrase: (_, said) => said(SIGNED_OUT),
  }),
  'user.signedOutEverywhere': auditEvent({
    action: 'logout',
    entity: 'user',
    data: z.object({}),
    details: () => 'Выход на всех устройствах',
    phrase: (_, said) => `${said(SIGNED_OUT)} на всех устройствах`,
  }),
  'password.changed': auditEvent({
    action: 'update',
    entity: 'user',
    data: z.object({}),
    details: () => 'Смена пароля, остальные сеансы завершены',
    phrase: (_, said) => said(['сменил пароль', 'сменила пароль']),
  }),
  'passwordLink.issued': auditEvent({
    action: 'update',
    entity: 'user',
    data: z.object({ email: z.string() }),
    details: ({ email }) => `Выдана ссылка для смены пароля пользователю ${email}`,
    phrase: ({ email }, said) => `${said(['выдал', 'выдала'])} ссылку для смены пароля пользователю ${email}`,
  }),
  'passwordLink.mailed': auditEvent({
    action: 'update',
    entity: 'user',
    data: z.object({ email: z.string(), address: z.string() }),
    details: ({ email, address }) =>
      `Ссылка для смены пароля отправлена по запросу «Забыли пароль?» на ${email}, адрес ${address}`,
    phrase: ({ email }, said) => `${said(['отправил', 'отправила'])} ссылку для смены пароля на ${email}`,
  }),
  'password.reset': auditEvent({
    action: 'update',
    entity: 'user',
    data: z.object({}),
    details: () => 'Пароль установлен по одноразовой ссылке, все сеансы завершены',
    phrase: (_, said) => said(['сменил пароль по одноразовой ссылке', 'сменила пароль по одноразовой ссылке']),
  }),
  'users.exported': auditEvent({
    action: 'read',
    entity: 'user',
    data: z.object({ file: z.string() }),
    details: ({ file }) => `Выгрузка справочника пользователей в ${file}`,
    phrase: (_, said) => `${said(EXPORTED)} справочник пользователей`,
  }),
  'users.viewed': auditEvent({
    action: 'read',
    entity: 'profile',
    data: pageRead,
    details: ({ page, records }) => `Просмотр справочника пользователей: страница ${page}, записей ${records}`,
    phrase: (_, said) => `${said(VIEWED)} справочник пользователей`,
  }),
  'user.viewed': auditEvent({
    action: 'read',
    entity: 'profile',
    data: z.object({ email: z.string() }),
    details: ({ email }) => `Просмотр данных пользователя ${email}`,
    phrase: ({ email }, said) => `${said(VIEWED)} данные пользователя${spaced(email)}`,
  }),
  'user.updated': auditEvent({
    action: 'update',
    entity: 'user',
    data: z.object({ email: z.string(), changes: userChanges }),
    // Of the changes, the text names the role and the new department only.
    details: ({ email, changes: { role, department } }) =>
      `Изменён пользователь ${email}${role ? `, роль ${role.from} → ${role.to}` : ''}${
        department ? `, подразделение «${department.to}»` : ''
      }`,
    phrase: ({ email, changes: { role } }, said) =>
      `${said(CHANGED)} пользователя${spaced(email)}${role ? `: роль ${labelOf(role.from)} → ${labelOf(role.to)}` : ''}`,
  }),
  'user.deleted': auditEvent({
    action: 'delete',
    entity: 'user',
    data: z.object({ email: z.string() }),
    details: ({ email }) => `Удалён пользователь ${email}`,
    phrase: ({ email }, said) => `${said(DELETED)} пользователя${spaced(email)}`,
  }),
  // One event per finished import, with its counts.
  'staff.imported': auditEvent({
    action: 'create',
    entity: 'user',
    data: z.object({ file: z.string(), counts: staffImportCounts }),
    details: ({ file, counts: c }) =>
      `Импорт сотрудников из файла «${file}»: новых ${c.new}, изменено ${c.update}, без изменений ${c.same}, с ошибками ${c.error}`,
    phrase: ({ counts: c }, said) =>
      `${said(['импортировал', 'импортировала'])} сотрудников: новых ${c.new}, изменено ${c.update}`,
  }),
  // The directory sync (LDAP / AD): one event per applied run, with its counts; never a setting of the sync.
  'directory.synced': auditEvent({
    action: 'update',
    entity: 'user',
    data: z.object({ trigger: z.enum(['schedule', 'admin']), read: count, counts: directoryCounts }),
    details: ({ trigger, read, counts: c }) =>
      `Синхронизация с корпоративным каталогом (${DIRECTORY_TRIGGERS[trigger]}): прочитано ${read}, новых ${c.create}, изменено ${c.update}, без изменений ${c.same}, приостановлено ${c.suspend}, деактивировано ${c.deactivate}, восстановлено ${c.reactivate}, с ошибками ${c.error}`,
    phrase: ({ counts: c }, said) =>
      `${said(['синхронизировал', 'синхронизировала'])} сотрудников с корпоративным каталогом: новых ${c.create}, изменено ${c.update}, приостановлено ${c.suspend}, деактивировано ${c.deactivate}`,
  }),
  'directoryRun.peopleViewed': auditEvent({
    action: 'read',
    entity: 'profile',
    data: pageRead,
    details: ({ page, records }) =>
      `Просмотр сотрудников запуска синхронизации с каталогом: страница ${page}, записей ${records}`,
    phrase: (_, said) => `${said(VIEWED)} сотрудников запуска синхронизации с каталогом`,
  }),
  // Consent to the processing of personal data (152-FZ): the text's version, and where it was given from.
  'consent.given': auditEvent({
    action: 'create',
    entity: 'consent',
    data: z.object({ version: z.string(), address: z.string().nullable() }),
    details: ({ version, address }) =>
      `Согласие на обработку персональных данных, редакция ${version}, с адреса ${address ?? 'неизвестен'}`,
    phrase: (_, said) => `${said(['дал', 'дала'])} ${CONSENT}`,
  }),
  'consent.withdrawn': auditEvent({
    action: 'delete',
    entity: 'consent',
    data: z.object({ version: z.string() }),
    details: ({ version }) => `Отзыв согласия на обработку персональных данных, редакция ${version}`,
    phrase: (_, said) => `${said(['отозвал', 'отозвала'])} ${CONSENT}`,
  }),
  // A data-subject request: filed by an ADMIN, or (to anonymise) by the person's withdrawal of their consent.
  'subjectRequest.filed': auditEvent({
    action: 'create',
    entity: 'profile',
    data: z.object({
      kind: z.enum(SUBJECT_REQUEST_KINDS),
      reason: z.enum(['withdrawal', 'admin']),
      email: z.string(),
      userId: z.string().optional(),
    }),
    details: ({ kind, reason, email }) =>
      reason === 'withdrawal'
        ? `Запрос на обезличивание данных ${email}: отзыв согласия`
        : `Запрос «${SUBJECT_REQUEST_LABELS[kind]}» о данных ${email}`,
    phrase: ({ kind, email }, said) =>
      `${said(REQUESTED)} ${kind === 'export' ? 'выгрузку' : 'обезличивание'} данных${spaced(email)}`,
  }),
  // Applications for a staff role, filed at registration and decided by an ADMIN.
  'application.filed': auditEvent({
    action: 'create',
    entity: 'application',
    data: z.object({ role, email: z.string() }),
    details: ({ role, email }) => `Заявка на роль ${role} от ${email}`,
    phrase: ({ role }, said) => `${said(['подал', 'подала'])} заявку${onRole(role)}`,
  }),
  'application.approved': auditEvent({
    action: 'update',
    entity: 'application',
    data: decidedApplication,
    details: ({ email, role }) => `Одобрена заявка ${email} на роль ${role}`,
    phrase: ({ email, role }, said) => `${said(['одобрил', 'одобрила'])} заявку${spaced(email)}${onRole(role)}`,
  }),
  'application.declined': auditEvent({
    action: 'update',
    entity: 'application',
    data: decidedApplication,
    details: ({ email, role }) => `Отклонена заявка ${email} на роль ${role}`,
    phrase: ({ email, role }, said) => `${said(['отклонил', 'отклонила'])} заявку${spaced(email)}${onRole(role)}`,
  }),
} satisfies Record<string, AuditEventDefinition>;
