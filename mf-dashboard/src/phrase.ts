import { DASHBOARD_MSG, type AuditAction, type AuditEntity, type AuditRecord } from '@portal/contracts';

/*
 * One Russian phrase per audit record, e.g. 'Иван Петров создал курс «Основы HR»'.
 *
 * A Russian past-tense verb agrees with the person's gender, which the portal does not store; it
 * is read from the name (surname endings first, then the first name), masculine when nothing
 * tells. The object's name is taken from the record's details, which our own services write in a
 * known form («title», "name", a contact's name before <email>, a user's email).
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

/** The thing acted on, in the accusative. */
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
};

const quoted = (name: string | null) => (name ? ` «${name}»` : '');

/** The name of the thing a record is about, from its details. */
export function subjectOf(record: Pick<AuditRecord, 'entity' | 'details'>): string | null {
  const { entity, details } = record;
  if (entity === 'contact') {
    const contact = /контакт (.+?) </.exec(details);
    if (contact) return contact[1];
  }
  if (entity === 'user') return /[^\s<>,]+@[^\s<>,]+/.exec(details)?.[0] ?? null;
  return /«([^»]+)»/.exec(details)?.[1] ?? /"([^"]+)"/.exec(details)?.[1] ?? null;
}

interface SpecialForm {
  test: RegExp;
  phrase: (verb: (v: Verb) => string, title: string | null) => string;
}

// Actions that the pair (action, entity) alone would misname: a favourite is stored as the
// creation of a mark on a course, not of a course.
const SPECIAL: SpecialForm[] = [
  { test: /добавлен в избранное/, phrase: (v, t) => `${v(['добавил', 'добавила'])} в избранное курс${quoted(t)}` },
  { test: /удалён из избранного/, phrase: (v, t) => `${v(['убрал', 'убрала'])} из избранного курс${quoted(t)}` },
  { test: /^Начат курс/, phrase: (v, t) => `${v(['начал', 'начала'])} курс${quoted(t)}` },
  { test: /больше не отмечен начатым/, phrase: (v, t) => `${v(['снял', 'сняла'])} отметку о начале курса${quoted(t)}` },
  { test: /^Загружен файл/, phrase: (v, t) => `${v(['загрузил', 'загрузила'])} файл${quoted(t)}` },
  { test: /^Создана копия курса/, phrase: (v, t) => `${v(['создал', 'создала'])} копию курса${quoted(t)}` },
  { test: /^Изменён порядок/, phrase: (v, t) => `${v(['изменил', 'изменила'])} порядок модулей и уроков курса${quoted(t)}` },
];

/** 'Иван Петров создал курс «Основы HR»', 'Анна Смирнова вошла в систему'. */
export function activityPhrase(record: AuditRecord): string {
  const actor = record.user?.fullName.trim() || DASHBOARD_MSG.system;
  // Without a person it was the portal itself: «Система» is feminine.
  const gender: Gender = record.user ? genderOf(actor) : 'f';
  const verb = ([m, f]: Verb) => (gender === 'f' ? f : m);
  const subject = subjectOf(record);

  if (
    record.entity === 'user' &&
    record.action === 'create' &&
    (/^Регистрация/.test(record.details) || record.user?.id === record.entityId)
  ) {
    return `${actor} ${verb(['зарегистрировался', 'зарегистрировалась'])}`;
  }
  if (record.action === 'login' || record.action === 'logout') return `${actor} ${verb(VERBS[record.action])}`;
  const special = SPECIAL.find((s) => s.test.test(record.details));
  if (special) return `${actor} ${special.phrase(verb, subject)}`;
  if (record.entity === 'user') {
    const what = record.action === 'read' ? 'данные пользователя' : NOUNS.user;
    return `${actor} ${verb(VERBS[record.action])} ${what}${subject ? ` ${subject}` : ''}`;
  }
  const noun = record.entity === 'block' && /модул/i.test(record.details) ? 'модуль' : NOUNS[record.entity];
  return `${actor} ${verb(VERBS[record.action])} ${noun}${quoted(subject)}`;
}
