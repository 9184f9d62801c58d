import { z } from 'zod';
import type { AuditAction, AuditEntity } from '../audit';
import { COURSE_STATUS_LABELS } from '../contentRules';
import { ROLE_LABELS } from '../roles';

/** A Russian past-tense verb as a man and as a woman say it: ['создал', 'создала']. */
export type Verb = readonly [masculine: string, feminine: string];

/** The verb in the form that agrees with the person who acted (or with «Система», feminine). */
export type Said = (verb: Verb) => string;

/**
 * One kind of audit event: what it is (action and entity, which the history filters by), the data
 * its publisher gives (ids, names, changed fields before and after), the details the history and its
 * export show, and the phrase the dashboard's feed shows after the person's name. The services name
 * only the code and the data; every word of the trail is written here, so rewording an event is one
 * edit, and every record, old or new, reads the new wording.
 */
export interface AuditEventDefinition<S extends z.ZodType = z.ZodType> {
  action: AuditAction;
  entity: AuditEntity;
  data: S;
  /** The record's details, as its history and export show them: «Создан курс «Основы HR»». */
  details(data: z.output<S>): string;
  /** What the person did, after their name: «создал курс «Основы HR»». */
  phrase(data: z.output<S>, said: Said): string;
}

/** Declares a kind of event; each field is required, so a code without its phrase fails the typecheck. */
export const auditEvent = <S extends z.ZodType>(definition: AuditEventDefinition<S>): AuditEventDefinition<S> => definition;

/* ------------------------------------------------------------ pieces the phrases share */

export const CREATED: Verb = ['создал', 'создала'];
export const CHANGED: Verb = ['изменил', 'изменила'];
export const DELETED: Verb = ['удалил', 'удалила'];
export const EXPORTED: Verb = ['выгрузил', 'выгрузила'];
export const REQUESTED: Verb = ['запросил', 'запросила'];
export const ACCEPTED: Verb = ['принял', 'приняла'];
export const VIEWED: Verb = ['просмотрел', 'просмотрела'];
export const ADDED: Verb = ['добавил', 'добавила'];

/** « «Основы HR»» after a noun, or nothing. */
export const quoted = (name: string | null | undefined): string => (name ? ` «${name}»` : '');
/** « olga@example.test» after a word, or nothing. */
export const spaced = (value: string | null | undefined): string => (value ? ` ${value}` : '');

const CODE_LABELS: Record<string, string> = { ...ROLE_LABELS, ...COURSE_STATUS_LABELS };
/** A role's or a course status's Russian label («CURATOR» → «Куратор»); any other text as it is. */
export const labelOf = (code: string): string => (Object.hasOwn(CODE_LABELS, code) ? CODE_LABELS[code] : code);

/** A field that changed: its value before and after. */
export const changeSchema = z.object({ from: z.string(), to: z.string() });
export type Change = z.infer<typeof changeSchema>;

/** The thing an event is about, named. */
export const titled = z.object({ title: z.string() });

/** What was done, for a record that has no readable code: its action's verb… */
export const AUDIT_ACTION_VERBS: Record<AuditAction, Verb> = {
  create: CREATED,
  read: VIEWED,
  update: CHANGED,
  delete: DELETED,
  login: ['вошёл в систему', 'вошла в систему'],
  logout: ['вышел из системы', 'вышла из системы'],
};

/** …and what it was done to, in the accusative. */
export const AUDIT_ENTITY_NOUNS: Record<AuditEntity, string> = {
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
