import {
  COURSE_STATUS_LABELS,
  DASHBOARD_MSG,
  ROLE_LABELS,
  type AuditAction,
  type AuditEntity,
  type AuditRecord,
} from '@portal/contracts';

/*
 * One Russian phrase per audit record, e.g. 'Иван Петров создал курс «Основы HR»'.
 *
 * A Russian past-tense verb agrees with the person's gender, which the portal does not store; it
 * is read from the name (surname endings first, then the first name), masculine when nothing
 * tells. Each kind of event the services publish has its own phrase (ACTIVITY_KINDS), told apart
 * by its action, entity and the known form of its details («title», "name", a contact's name
 * before <email>, a user's email); role and status codes are shown as their Russian labels.
 */

type Gender = 'm' | 'f';

const FEMALE_WORD = /(ова|ева|ёва|ина|ына|ская|цкая|ая)$/;
const MALE_WORD = /(ов|ев|ёв|ин|ын|ский|цкий|ой)$/;
// First names that end in -а/-я yet are a man's, and ones that end in -ь yet are a woman's.
const MALE_IN_A = new Set([
  'никита',
  'илья',
  'кузьма',
  'фома',
  'лука',
  'савва',
  'данила',
  'гаврила',
  'миша',
  'гоша',
  'паша',
  'дима',
  'ваня',
  'петя',
  'вася',
  'коля',
  'толя',
  'серёжа',
  'сережа',
  'лёша',
  'леша',
  'витя',
  'федя',
  'юра',
  'костя',
  'слава',
]);
const FEMALE_IN_SOFT_SIGN = new Set(['любовь', 'нинель', 'адель', 'эсфирь', 'рахиль', 'юдифь']);

/** The grammatical gender of a full name, as well as the name can tell. */
export function genderOf(fullName: string): Gender {
  const words = fullName.toLowerCase().split(/\s+/).filter(Boolean);
  for (const word of words) {
    if (MALE_IN_A.has(word)) return 'm';
    if (FEMALE_IN_SOFT_SIGN.has(word)) return 'f';
    if (word.length > 4 && FEMALE_WORD.test(word)) return 'f';
    if (word.length > 3 && MALE_WORD.test(word)) return 'm';
  }
  const first = words[0] ?? '';
  return /[ая]$/.test(first) ? 'f' : 'm';
}

type Verb = [masculine: string, feminine: string];

const VERBS: Record<AuditAction, Verb> = {
  create: ['создал', 'создала'],
  read: ['просмотрел', 'просмотрела'],
  update: ['изменил', 'изменила'],
  delete: ['удалил', 'удалила'],
  login: ['вошёл в систему', 'вошла в систему'],
  logout: ['вышел из системы', 'вышла из системы'],
};

/** The thing acted on, in the accusative: for records of a kind no phrase below knows. */
const NOUNS: Record<AuditEntity, string> = {
  dashboard: 'дашборд',
  course: 'курс',
  user: 'пользователя',
  organization: 'организацию',
  contact: 'контакт',
  audit: 'журнал действий',
  lesson: 'урок',
  quiz: 'квиз',
  block: 'блок',
  progress: 'прогресс',
  profile: 'профиль',
  consent: 'согласие',
  application: 'заявку',
  assignment: 'назначение',
  certificate: 'сертификат',
  program: 'программу обучения',
};

const CODE_LABELS: Record<string, string> = { ...ROLE_LABELS, ...COURSE_STATUS_LABELS };
// Services wrote codes after these words («статус draft → published», «с ролью CANDIDATE»).
const CODED = /(статус|ролью|роль) ([A-Za-z_]+)(?: → ([A-Za-z_]+))?/g;
const label = (code: string) => (Object.hasOwn(CODE_LABELS, code) ? CODE_LABELS[code] : code);

/** A record's details with role and status codes replaced by their Russian labels. */
export function readableDetails(details: string): string {
  return details.replace(CODED, (_all, word: string, from: string, to?: string) =>
    to ? `${word} ${label(from)} → ${label(to)}` : `${word} ${label(from)}`,
  );
}

const quoted = (name: string | null | undefined) => (name ? ` «${name}»` : '');
/** ' olga@example.test' after a word, or nothing. */
const spaced = (value: string | null | undefined) => (value ? ` ${value}` : '');
const titlesIn = (details: string) => [...details.matchAll(/«([^»]+)»/g)].map((m) => m[1]);
const emailIn = (details: string) => /[^\s<>,]+@[^\s<>,]+/.exec(details)?.[0] ?? null;

/** «: статус Черновик → Опубликован» when the details tell of such a change, else nothing. */
const changeOf = (details: string, word: 'статус' | 'роль') => {
  const change = new RegExp(`${word} ([^,→]+?) → ([^,]+)`).exec(readableDetails(details));
  return change ? `: ${word} ${change[1]} → ${change[2]}` : '';
};

/** The name of the thing a record is about, from its details. */
export function subjectOf(record: Pick<AuditRecord, 'entity' | 'details'>): string | null {
  const { entity, details } = record;
  if (entity === 'contact') {
    const contact = /контакт (.+?) </.exec(details);
    if (contact) return contact[1];
  }
  if (entity === 'user') return emailIn(details);
  if (entity === 'organization') return /"([^"]+)"/.exec(details)?.[1] ?? null;
  return titlesIn(details)[0] ?? /"([^"]+)"/.exec(details)?.[1] ?? null;
}

interface PhraseParts {
  /** The verb in the actor's gender. */
  verb: (v: Verb) => string;
  details: string;
  /** What the record is about (subjectOf). */
  subject: string | null;
}

export interface ActivityKind {
  action: AuditAction;
  entity: AuditEntity;
  /** Tells this kind from the others of the same action and entity, by the details its publisher writes. */
  details?: RegExp;
  /** Details as the publisher writes them (the tests read every kind from here). */
  example: string;
  /** What the actor did: everything after the actor's name. */
  phrase: (parts: PhraseParts) => string;
}

const kind = (
  action: AuditAction,
  entity: AuditEntity,
  details: RegExp | undefined,
  example: string,
  phrase: ActivityKind['phrase'],
): ActivityKind => ({ action, entity, details, example, phrase });

const CREATED: Verb = ['создал', 'создала'];
const CHANGED: Verb = ['изменил', 'изменила'];
const DELETED: Verb = ['удалил', 'удалила'];
const EXPORTED: Verb = ['выгрузил', 'выгрузила'];
const REQUESTED: Verb = ['запросил', 'запросила'];
const ACCEPTED: Verb = ['принял', 'приняла'];

const did =
  (verb: Verb, what: string) =>
  ({ verb: v, subject }: PhraseParts) =>
    `${v(verb)} ${what}${quoted(subject)}`;

/** The verb and the thing, with no name after it (the consent, a list). */
const saidOf =
  (verb: Verb, what: string) =>
  ({ verb: v }: PhraseParts) =>
    `${v(verb)} ${what}`;

/** «удалил записи журнала старше 1095 дн.: 120»: the verb, then what the details say was deleted. */
const deletedAsTold = ({ verb, details }: PhraseParts) => `${verb(DELETED)} ${details.replace(/^Удалены /, '')}`;

/** « на роль «Куратор»» for the role the details name, or nothing. */
const onRole = (details: string) => {
  const role = /роль ([A-Za-z_]+)/.exec(details)?.[1];
  return role ? ` на роль «${label(role)}»` : '';
};

/**
 * A new version of a module, lesson or quiz: asked of the generator («Запрошена новая версия урока …»),
 * then accepted («Принята …»); `names` are what the two records write after the noun.
 */
const newVersionKinds = (entity: AuditEntity, noun: string, names: [asked: string, accepted: string]): ActivityKind[] =>
  (
    [
      ['Запрошена', REQUESTED],
      ['Принята', ACCEPTED],
    ] as const
  ).map(([word, verb], i) =>
    kind(
      'update',
      entity,
      new RegExp(`^${word} новая версия ${noun}`),
      `${word} новая версия ${noun} ${names[i]}`,
      did(verb, `новую версию ${noun}`),
    ),
  );

/**
 * Every kind of audit event the services publish, with its phrase: the one definition the phrase
 * and its tests read. The first kind whose action, entity and details match names a record.
 */
export const ACTIVITY_KINDS: readonly ActivityKind[] = [
  // auth
  kind('create', 'user', /^Регистрация/, 'Регистрация с ролью CANDIDATE', ({ verb, details }) => {
    const role = /ролью ([A-Za-z_]+)/.exec(details)?.[1];
    return `${verb(['зарегистрировался', 'зарегистрировалась'])}${role ? ` с ролью «${label(role)}»` : ''}`;
  }),
  // A wrong administrator's password on registration (the bootstrap of an empty portal); no one is signed in.
  kind(
    'create',
    'user',
    /^Неудачная попытка регистрации администратора/,
    'Неудачная попытка регистрации администратора: неверный пароль администратора, anna@example.ru, адрес 192.0.2.10',
    ({ verb }) => `${verb(['попытался', 'попыталась'])} зарегистрироваться администратором с неверным паролем`,
  ),
  // Staff import (one event per finished import, with its counts).
  kind(
    'create',
    'user',
    /^Импорт сотрудников/,
    'Импорт сотрудников из файла «штат.xlsx»: новых 990, изменено 0, без изменений 0, с ошибками 10',
    ({ verb, details }) => {
      const counts = /новых (\d+), изменено (\d+)/.exec(details);
      return `${verb(['импортировал', 'импортировала'])} сотрудников${counts ? `: новых ${counts[1]}, изменено ${counts[2]}` : ''}`;
    },
  ),
  // Corporate sign-in: the person made on their first sign-in through the company's provider.
  kind(
    'create',
    'user',
    /^Создан при первом входе через корпоративный аккаунт/,
    'Создан при первом входе через корпоративный аккаунт, роль CLIENT',
    ({ verb, details }) => {
      const role = /роль ([A-Za-z_]+)/.exec(details)?.[1];
      return `${verb(['вошёл', 'вошла'])} впервые через корпоративный аккаунт${role ? ` и получил роль «${label(role)}»` : ''}`;
    },
  ),
  // The directory sync (LDAP / AD): one event per applied run, with its counts.
  kind(
    'update',
    'user',
    /^Синхронизация с корпоративным каталогом/,
    'Синхронизация с корпоративным каталогом (по расписанию): прочитано 1200, новых 3, изменено 2, без изменений 1190, приостановлено 1, деактивировано 0, восстановлено 0, с ошибками 0',
    ({ verb, details }) => {
      const counts = /новых (\d+), изменено (\d+), без изменений \d+, приостановлено (\d+), деактивировано (\d+)/.exec(details);
      const told = counts
        ? `: новых ${counts[1]}, изменено ${counts[2]}, приостановлено ${counts[3]}, деактивировано ${counts[4]}`
        : '';
      return `${verb(['синхронизировал', 'синхронизировала'])} сотрудников с корпоративным каталогом${told}`;
    },
  ),
  kind('login', 'user', undefined, 'Вход в систему', ({ verb }) => verb(VERBS.login)),
  kind('logout', 'user', undefined, 'Выход из системы', ({ verb }) => verb(VERBS.logout)),
  kind(
    'read',
    'user',
    /^Выгрузка справочника/,
    'Выгрузка справочника пользователей в users.xlsx',
    did(EXPORTED, 'справочник пользователей'),
  ),
  // Consent to the processing of personal data (152-FZ), and the requests it files when withdrawn.
  kind(
    'create',
    'consent',
    undefined,
    'Согласие на обработку персональных данных, редакция 2026-11-25, с адреса 192.0.2.10',
    saidOf(['дал', 'дала'], 'согласие на обработку персональных данных'),
  ),
  kind(
    'delete',
    'consent',
    undefined,
    'Отзыв согласия на обработку персональных данных, редакция 2026-11-25',
    saidOf(['отозвал', 'отозвала'], 'согласие на обработку персональных данных'),
  ),
  kind(
    'create',
    'profile',
    /^Запрос на обезличивание/,
    'Запрос на обезличивание данных olga@example.test: отзыв согласия',
    ({ verb, details }) => `${verb(REQUESTED)} обезличивание данных${spaced(emailIn(details))}`,
  ),
  kind(
    'create',
    'profile',
    /^Запрос «/,
    'Запрос «Выгрузка данных» о данных olga@example.test',
    ({ verb, details }) =>
      `${verb(REQUESTED)} ${details.includes('«Выгрузка') ? 'выгрузку' : 'обезличивание'} данных${spaced(emailIn(details))}`,
  ),
  // Reads of other people's personal data (152-FZ access log): one record per page or card.
  kind(
    'read',
    'profile',
    /^Просмотр данных пользователя/,
    'Просмотр данных пользователя olga@example.test',
    ({ verb, details }) => `${verb(VERBS.read)} данные пользователя${spaced(emailIn(details))}`,
  ),
  kind(
    'read',
    'profile',
    /^Просмотр сотрудников запуска синхронизации/,
    'Просмотр сотрудников запуска синхронизации с каталогом: страница 1, записей 50',
    saidOf(VERBS.read, 'сотрудников запуска синхронизации с каталогом'),
  ),
  kind(
    'read',
    'profile',
    /^Просмотр справочника/,
    'Просмотр справочника пользователей: страница 2, записей 20',
    saidOf(VERBS.read, 'справочник пользователей'),
  ),
  kind(
    'read',
    'profile',
    /^Просмотр контактов организации/,
    'Просмотр контактов организации "ООО Вектор": 3',
    ({ verb, details }) => `${verb(VERBS.read)} контакты организации${quoted(/"([^"]+)"/.exec(details)?.[1])}`,
  ),
  kind(
    'read',
    'profile',
    /^Просмотр результатов квизов/,
    'Просмотр результатов квизов: страница 1, записей 12',
    saidOf(VERBS.read, 'результаты квизов'),
  ),
  kind(
    'update',
    'user',
    undefined,
    'Изменён пользователь olga@example.test, роль CLIENT → CURATOR',
    ({ verb, subject, details }) => `${verb(CHANGED)} пользователя${spaced(subject)}${changeOf(details, 'роль')}`,
  ),
  // Candidate testing by link: the sweep that deletes candidates after the retention period.
  kind(
    'delete',
    'user',
    /^Удалены данные кандидатов/,
    'Удалены данные кандидатов, проходивших тесты по ссылке более 30 дн. назад: 3',
    deletedAsTold,
  ),
  kind(
    'delete',
    'user',
    undefined,
    'Удалён пользователь olga@example.test',
    ({ verb, subject }) => `${verb(DELETED)} пользователя${spaced(subject)}`,
  ),
  // auth: applications for a staff role
  kind(
    'create',
    'application',
    /^Заявка на роль/,
    'Заявка на роль CURATOR от olga@example.test',
    ({ verb, details }) => `${verb(['подал', 'подала'])} заявку${onRole(details)}`,
  ),
  ...(
    [
      [/^Одобрена заявка/, 'Одобрена', ['одобрил', 'одобрила']],
      [/^Отклонена заявка/, 'Отклонена', ['отклонил', 'отклонила']],
    ] as const
  ).map(([pattern, word, did]) =>
    kind(
      'update',
      'application',
      pattern,
      `${word} заявка olga@example.test на роль CURATOR`,
      ({ verb, details }) => `${verb([...did])} заявку${spaced(emailIn(details))}${onRole(details)}`,
    ),
  ),
  // crm
  kind(
    'read',
    'organization',
    /^Выгрузка организаций/,
    'Выгрузка организаций с контактами в organizations.csv',
    did(EXPORTED, 'организации с контактами'),
  ),
  kind('create', 'organization', undefined, 'Создана организация "ООО Вектор" (ИНН 7701234567)', did(CREATED, 'организацию')),
  kind(
    'update',
    'organization',
    undefined,
    'Изменена организация "ООО Вектор" (ИНН 7701234567): статус Активна → Неактивна',
    did(CHANGED, 'организацию'),
  ),
  kind(
    'delete',
    'organization',
    undefined,
    'Удалена организация "ООО Вектор" (ИНН 7701234567) вместе с контактами: 2',
    did(DELETED, 'организацию'),
  ),
  kind(
    'create',
    'contact',
    undefined,
    'Добавлен контакт Борис Орлов <boris@example.test> в организацию "ООО Вектор"',
    ({ verb, subject, details }) =>
      `${verb(['добавил', 'добавила'])} контакт${quoted(subject)} в организацию${quoted(/"([^"]+)"/.exec(details)?.[1])}`,
  ),
  kind('update', 'contact', undefined, 'Изменён контакт Борис Орлов <boris@example.test>', did(CHANGED, 'контакт')),
  kind('delete', 'contact', undefined, 'Удалён контакт Борис Орлов <boris@example.test>', did(DELETED, 'контакт')),
  // content: courses, favourites and the «started» mark
  kind('create', 'course', /^Создан курс/, 'Создан курс «Основы HR»', did(CREATED, 'курс')),
  kind(
    'create',
    'course',
    /^Создан черновик курса/,
    'Создан черновик курса «Основы HR» по шаблону по теме «Адаптация» (модулей: 3)',
    ({ verb, subject, details }) =>
      `${verb(CREATED)} ${/ ИИ по теме/.test(details) ? 'с помощью ИИ ' : ''}черновик курса${quoted(subject)}`,
  ),
  kind('create', 'course', /^Создана копия курса/, 'Создана копия курса «Основы HR»', did(CREATED, 'копию курса')),
  // SCORM: a package uploaded into a course (as a lesson's or as the whole course), a course exported as one.
  kind(
    'create',
    'course',
    /^Загружен SCORM-пакет/,
    'Загружен SCORM-пакет «Правила гольфа» (SCORM 2004, учебных объектов: 1, 0.21 МБ) в курс «Основы HR»',
    ({ verb, details }) => {
      const named = /^Загружен SCORM-пакет «([^»]*)».* в курс «([^»]*)»$/.exec(details);
      return `${verb(['загрузил', 'загрузила'])} SCORM-пакет${named ? ` «${named[1]}» в курс «${named[2]}»` : ''}`;
    },
  ),
  kind(
    'read',
    'course',
    /^Выгрузка курса .* в SCORM/,
    'Выгрузка курса «Основы HR» в SCORM 1.2',
    ({ verb, subject }) => `${verb(EXPORTED)} курс${quoted(subject)} как пакет SCORM 1.2`,
  ),
  // Course versions (docs/decisions/093): published, discarded, restored, pruned.
  kind(
    'update',
    'course',
    /^Опубликована версия \S+ курса/,
    'Опубликована версия 3 курса «Основы HR»: Обновлён раздел о СИЗ',
    ({ verb, details }) => {
      const named = /^Опубликована версия (\S+) курса «([^»]*)»/.exec(details);
      return `${verb(['опубликовал', 'опубликовала'])} ${named ? `версию ${named[1]} курса «${named[2]}»` : 'новую версию курса'}`;
    },
  ),
  kind(
    'update',
    'course',
    /^Отменены изменения черновика курса/,
    'Отменены изменения черновика курса «Основы HR»',
    ({ verb, subject }) => `${verb(['отменил', 'отменила'])} изменения черновика курса${quoted(subject)}`,
  ),
  kind(
    'update',
    'course',
    /^Версия \S+ курса .* восстановлена как черновик$/,
    'Версия 1 курса «Основы HR» восстановлена как черновик',
    ({ verb, details }) => {
      const named = /^Версия (\S+) курса «([^»]*)»/.exec(details);
      return `${verb(['восстановил', 'восстановила'])} ${named ? `версию ${named[1]} курса «${named[2]}»` : 'версию курса'} как черновик`;
    },
  ),
  kind(
    'delete',
    'course',
    /^(Удалены старые версии|Очистка версий) курса/,
    'Удалены старые версии курса «Основы HR»: 1, 2',
    ({ verb, subject }) => `${verb(['очистил', 'очистила'])} старые версии курса${quoted(subject)}`,
  ),
  // A person's favourite courses: the details say what was done after the course's title.
  ...(
    [
      ['create', 'добавлен в избранное', ['добавил', 'добавила'], 'в избранное курс'],
      ['delete', 'удалён из избранного', ['убрал', 'убрала'], 'из избранного курс'],
    ] as const
  ).map(([action, told, verb, what]) =>
    kind(action, 'course', new RegExp(told), `Курс «Основы HR» ${told}`, did([...verb], what)),
  ),
  kind(
    'update',
    'course',
    /^Изменён курс/,
    'Изменён курс «Основы HR», статус draft → published',
    ({ verb, subject, details }) => `${verb(CHANGED)} курс${quoted(subject)}${changeOf(details, 'статус')}`,
  ),
  kind('delete', 'course', /^Удалён курс/, 'Удалён курс «Основы HR»', did(DELETED, 'курс')),
  kind(
    'update',
    'course',
    /перенесён в архив/,
    'Курс «Основы HR» перенесён в архив: по нему есть попытки или прогресс учащихся',
    did(['перенёс', 'перенесла'], 'в архив курс'),
  ),
  kind(
    'update',
    'course',
    /^Добавлен соавтор/,
    'Добавлен соавтор olga@example.test курса «Основы HR»',
    ({ verb, subject, details }) =>
      `${verb(['добавил', 'добавила'])} соавтора${spaced(emailIn(details))} курса${quoted(subject)}`,
  ),
  kind('update', 'course', /^Удалён соавтор/, 'Удалён соавтор курса «Основы HR»', did(['убрал', 'убрала'], 'соавтора курса')),
  kind('create', 'progress', /^Начат курс/, 'Начат курс «Основы HR»', did(['начал', 'начала'], 'курс')),
  kind(
    'delete',
    'progress',
    /больше не отмечен начатым/,
    'Курс «Основы HR» больше не отмечен начатым',
    did(['снял', 'сняла'], 'отметку о начале курса'),
  ),
  // content: modules (entity block), lessons, files, quizzes, the course builder
  kind('create', 'block', /^Создан модуль/, 'Создан модуль «модуль_1» в курсе «Основы HR»', did(CREATED, 'модуль')),
  kind('update', 'block', /^Изменён модуль/, 'Изменён модуль «Введение»', did(CHANGED, 'модуль')),
  kind('delete', 'block', /^Удалён модуль/, 'Удалён модуль «Введение»', did(DELETED, 'модуль')),
  kind(
    'update',
    'block',
    /^Изменён порядок/,
    'Изменён порядок модулей и уроков курса «Основы HR» (12)',
    did(CHANGED, 'порядок модулей и уроков курса'),
  ),
  ...newVersionKinds('block', 'модуля', ['«Введение» (шаблон)', '«Введение» (уроков: 3)']),
  kind('create', 'block', /^Загружен файл/, 'Загружен файл «план.pdf» (1.20 МБ)', did(['загрузил', 'загрузила'], 'файл')),
  kind('create', 'lesson', /^Создан урок/, 'Создан урок «урок_1» в курсе «Основы HR»', did(CREATED, 'урок')),
  kind('create', 'lesson', /^Создана копия урока/, 'Создана копия урока «Знакомство»', did(CREATED, 'копию урока')),
  kind(
    'create',
    'lesson',
    /^Импортировано уроков/,
    'Импортировано уроков: 2 в модуль «Введение» курса «Основы HR» из «Старый курс»',
    ({ verb, details }) => {
      const [module, course] = titlesIn(details);
      return `${verb(['импортировал', 'импортировала'])} уроки в модуль${quoted(module)}${course ? ` курса «${course}»` : ''}`;
    },
  ),
  kind('update', 'lesson', /^Изменён урок/, 'Изменён урок «Знакомство»', did(CHANGED, 'урок')),
  ...newVersionKinds('lesson', 'урока', ['«Знакомство» (ИИ)', '«Знакомство»']),
  kind('delete', 'lesson', /^Удалён урок/, 'Удалён урок «Знакомство»', did(DELETED, 'урок')),
  kind('create', 'quiz', /^Создан квиз/, 'Создан квиз «Итоговый тест» (вопросов: 5)', did(CREATED, 'квиз')),
  kind('update', 'quiz', /^Изменён квиз/, 'Изменён квиз «Итоговый тест» (вопросов: 5)', did(CHANGED, 'квиз')),
  ...newVersionKinds('quiz', 'квиза', ['«Итоговый тест» (ИИ)', '«Итоговый тест» (вопросов: 5)']),
  kind('delete', 'quiz', /^Удалён квиз/, 'Удалён квиз «Итоговый тест»', did(DELETED, 'квиз')),
  // a course's question bank
  kind(
    'create',
    'quiz',
    /^Добавлен вопрос в банк курса/,
    'Добавлен вопрос в банк курса «Основы HR» (метки: отпуск)',
    did(['добавил', 'добавила'], 'вопрос в банк курса'),
  ),
  kind(
    'update',
    'quiz',
    /^Изменён вопрос банка курса/,
    'Изменён вопрос банка курса «Основы HR»',
    did(CHANGED, 'вопрос банка курса'),
  ),
  kind(
    'delete',
    'quiz',
    /^Удалён вопрос банка курса/,
    'Удалён вопрос банка курса «Основы HR»',
    did(DELETED, 'вопрос банка курса'),
  ),
  // candidate links
  kind(
    'create',
    'quiz',
    /^Создана ссылка для кандидатов/,
    'Создана ссылка для кандидатов на тест «Итоговый тест» (курс «Основы HR»)',
    did(CREATED, 'ссылку для кандидатов на тест'),
  ),
  kind(
    'update',
    'quiz',
    /^Отозвана ссылка для кандидатов/,
    'Отозвана ссылка для кандидатов на тест «Итоговый тест» (курс «Основы HR»)',
    did(['отозвал', 'отозвала'], 'ссылку для кандидатов на тест'),
  ),
  // progress: attempts, completions, the results export
  kind(
    'create',
    'quiz',
    /^Начата попытка/,
    'Начата попытка 1 квиза «Итоговый тест» (курс «Основы HR»)',
    did(['начал', 'начала'], 'попытку квиза'),
  ),
  kind(
    'update',
    'quiz',
    /^Квиз «[^»]*» пройден/,
    'Квиз «Итоговый тест» пройден: 3 из 3 (100%), попытка 1',
    did(['прошёл', 'прошла'], 'квиз'),
  ),
  kind(
    'update',
    'quiz',
    /^Квиз «[^»]*» не пройден/,
    'Квиз «Итоговый тест» не пройден: 1 из 3 (33%), попытка 2, время вышло',
    did(['не прошёл', 'не прошла'], 'квиз'),
  ),
  kind(
    'update',
    'quiz',
    /^Время попытки/,
    'Время попытки 1 квиза «Итоговый тест» (Иван Петров) истекло: 0 из 3 (0%)',
    ({ verb, subject, details }) => {
      const learner = /» \((.+)\) истекло/.exec(details)?.[1];
      return `${verb(['завершил', 'завершила'])} по истечении времени попытку квиза${quoted(subject)}${learner ? ` (${learner})` : ''}`;
    },
  ),
  kind(
    'update',
    'quiz',
    /^Проверен ответ/,
    'Проверен ответ на вопрос «Опишите порядок действий» (Иван Петров, квиз «Итоговый тест»): 2 из 3',
    ({ verb, details }) => {
      const quiz = /квиз «([^»]+)»/.exec(details)?.[1];
      const learner = /» \(([^,]+), квиз/.exec(details)?.[1];
      return `${verb(['проверил', 'проверила'])} ответ в квизе${quoted(quiz)}${learner ? ` (${learner})` : ''}`;
    },
  ),
  kind(
    'read',
    'quiz',
    /^Выгрузка результатов/,
    'Выгрузка результатов квизов в quiz_results.csv',
    did(EXPORTED, 'результаты квизов'),
  ),
  // audit
  kind('read', 'audit', /^Выгрузка журнала/, 'Выгрузка журнала действий в audit_history.xlsx', did(EXPORTED, 'журнал действий')),
  kind('delete', 'audit', /^Удалены записи журнала/, 'Удалены записи журнала старше 1095 дн.: 120', deletedAsTold),
  kind(
    'create',
    'progress',
    /^Урок «[^»]*» курса «[^»]*» пройден/,
    'Урок «Знакомство» курса «Основы HR» пройден',
    did(['завершил', 'завершила'], 'урок'),
  ),
  kind(
    'create',
    'progress',
    /^Курс «[^»]*» пройден полностью/,
    'Курс «Основы HR» пройден полностью',
    ({ verb, subject }) => `${verb(['прошёл', 'прошла'])} курс${quoted(subject)} полностью`,
  ),
  // progress: training assignments and certificates
  kind(
    'create',
    'assignment',
    /^Курс «[^»]*» назначен/,
    'Курс «Охрана труда» назначен: Подразделение «Склад», срок 2026-12-31',
    ({ verb, subject }) => `${verb(['назначил', 'назначила'])} курс${quoted(subject)}`,
  ),
  kind(
    'update',
    'assignment',
    /^Срок назначения/,
    'Срок назначения курса «Охрана труда» продлён до 2027-01-31 для всех',
    ({ verb, subject }) => `${verb(['продлил', 'продлила'])} срок назначения курса${quoted(subject)}`,
  ),
  kind(
    'update',
    'assignment',
    /^Изменено назначение/,
    'Изменено назначение курса «Охрана труда»: Роль «Клиент», срок 2026-12-31',
    did(CHANGED, 'назначение курса'),
  ),
  kind(
    'delete',
    'assignment',
    /^Удалено назначение/,
    'Удалено назначение курса «Охрана труда»',
    did(DELETED, 'назначение курса'),
  ),
  kind(
    'read',
    'assignment',
    /^Выгрузка отчёта/,
    'Выгрузка отчёта по назначению курса «Охрана труда» в assignment.xlsx',
    did(EXPORTED, 'отчёт по назначению курса'),
  ),
  // progress: learning programs
  kind(
    'create',
    'program',
    /^Создана программа обучения/,
    'Создана программа обучения «Адаптация»: этапов 3',
    did(CREATED, 'программу обучения'),
  ),
  kind(
    'create',
    'program',
    /^Программа обучения «[^»]*» скопирована/,
    'Программа обучения «Адаптация» скопирована как «Адаптация (копия)»',
    did(['скопировал', 'скопировала'], 'программу обучения'),
  ),
  kind(
    'create',
    'program',
    /^Программа обучения «[^»]*» назначена/,
    'Программа обучения «Адаптация» назначена: Подразделение «Склад»',
    did(['назначил', 'назначила'], 'программу обучения'),
  ),
  kind(
    'update',
    'program',
    /^Изменена программа обучения/,
    'Изменена программа обучения «Адаптация»: этапов 3, курсов 4',
    did(CHANGED, 'программу обучения'),
  ),
  kind(
    'update',
    'program',
    /^Программа обучения «[^»]*» перенесена в архив/,
    'Программа обучения «Адаптация» перенесена в архив',
    did(['перенёс в архив', 'перенесла в архив'], 'программу обучения'),
  ),
  kind(
    'update',
    'program',
    /^Программа обучения «[^»]*» возвращена из архива/,
    'Программа обучения «Адаптация» возвращена из архива',
    did(['вернул из архива', 'вернула из архива'], 'программу обучения'),
  ),
  kind(
    'update',
    'program',
    /^Срок этапа/,
    'Срок этапа «Охрана труда» программы «Адаптация» продлён до 2027-01-31 для Анна Смирнова',
    did(['продлил', 'продлила'], 'срок этапа'),
  ),
  kind(
    'delete',
    'program',
    /^Удалено назначение программы/,
    'Удалено назначение программы обучения «Адаптация»',
    did(DELETED, 'назначение программы обучения'),
  ),
  kind(
    'read',
    'program',
    /^Выгрузка отчёта по программе/,
    'Выгрузка отчёта по программе обучения «Адаптация» в program_report.xlsx',
    did(EXPORTED, 'отчёт по программе обучения'),
  ),
  kind(
    'create',
    'certificate',
    /^Выдан сертификат за программу/,
    'Выдан сертификат за программу обучения «Адаптация»',
    ({ verb, subject }) => `${verb(['получил', 'получила'])} сертификат за программу обучения${quoted(subject)}`,
  ),
  kind(
    'create',
    'certificate',
    /^Выдан сертификат/,
    'Выдан сертификат за курс «Охрана труда»',
    ({ verb, subject }) => `${verb(['получил', 'получила'])} сертификат за курс${quoted(subject)}`,
  ),
];

/** The kind a record is of, or null for one no service publishes today. */
export function kindOf(record: Pick<AuditRecord, 'action' | 'entity' | 'details'>): ActivityKind | null {
  return (
    ACTIVITY_KINDS.find(
      (k) => k.action === record.action && k.entity === record.entity && (!k.details || k.details.test(record.details)),
    ) ?? null
  );
}

/** 'Иван Петров создал курс «Основы HR»', 'Анна Смирнова вошла в систему'. */
export function activityPhrase(record: AuditRecord): string {
  const actor = record.user?.fullName.trim() || DASHBOARD_MSG.system;
  // Without a person it was the portal itself: «Система» is feminine.
  const gender: Gender = record.user ? genderOf(actor) : 'f';
  const verb = ([m, f]: Verb) => (gender === 'f' ? f : m);
  const subject = subjectOf(record);
  const known = kindOf(record);
  if (known) return `${actor} ${known.phrase({ verb, details: record.details, subject })}`;
  if (record.action === 'login' || record.action === 'logout') return `${actor} ${verb(VERBS[record.action])}`;
  const what = record.entity === 'user' ? `${NOUNS.user}${spaced(subject)}` : `${NOUNS[record.entity]}${quoted(subject)}`;
  return `${actor} ${verb(VERBS[record.action])} ${what}`;
}
