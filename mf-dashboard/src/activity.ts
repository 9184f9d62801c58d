import {
  AUDIT_ACTION_VERBS,
  AUDIT_ENTITY_NOUNS,
  DASHBOARD_MSG,
  auditPhraseOf,
  labelOf,
  type AuditRecord,
  type Said,
} from '@portal/contracts';
import { genderOf } from './gender';

/*
 * One Russian phrase per audit record, e.g. 'Иван Петров создал курс «Основы HR»'. The phrase of
 * each kind of event is written once, beside its code, in the contracts' table (auditEvents); this
 * module only puts the person's name before it, with the verb in the person's gender (read from the
 * name: the portal stores no gender). A record from before the codes that the migration could not
 * read says what was done to what (its details, shown beside it in the history, are its own text).
 */

/** 'Иван Петров создал курс «Основы HR»', 'Анна Смирнова вошла в систему'. */
export function activityPhrase(record: AuditRecord): string {
  const actor = record.user?.fullName.trim() || DASHBOARD_MSG.system;
  // Without a person it was the portal itself: «Система» is feminine.
  const feminine = record.user ? genderOf(actor) === 'f' : true;
  const said: Said = ([masculine, female]) => (feminine ? female : masculine);
  const known = auditPhraseOf(record, said);
  if (known) return `${actor} ${known}`;
  const verb = said(AUDIT_ACTION_VERBS[record.action]);
  return record.action === 'login' || record.action === 'logout'
    ? `${actor} ${verb}`
    : `${actor} ${verb} ${AUDIT_ENTITY_NOUNS[record.entity]}`;
}

// Older records wrote codes after these words («статус draft → published», «с ролью CANDIDATE»).
const CODED = /(статус|ролью|роль) ([A-Za-z_]+)(?: → ([A-Za-z_]+))?/g;

/** A record's details with role and status codes shown as their Russian labels. */
export function readableDetails(details: string): string {
  return details.replace(CODED, (_all, word: string, from: string, to?: string) =>
    to ? `${word} ${labelOf(from)} → ${labelOf(to)}` : `${word} ${labelOf(from)}`,
  );
}
