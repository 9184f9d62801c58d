import type { z } from 'zod';
import type { AuditAction, AuditEntity } from '../audit';
import { AUTH_EVENTS } from './auth';
import { CONTENT_EVENTS } from './content';
import { CRM_EVENTS } from './crm';
import type { AuditEventDefinition, Said } from './define';
import { PROGRESS_EVENTS } from './progress';
import { TRAIL_EVENTS } from './trail';

export * from './define';

/**
 * Every kind of audit event the services publish, by its code: the one table the publishers, the
 * history, its export and the dashboard's feed read (docs/decisions/098).
 */
export const AUDIT_EVENTS = {
  ...AUTH_EVENTS,
  ...CRM_EVENTS,
  ...CONTENT_EVENTS,
  ...PROGRESS_EVENTS,
  ...TRAIL_EVENTS,
};

/** Each service's table, for the test that no two name the same code. */
export const AUDIT_EVENT_TABLES = { AUTH_EVENTS, CRM_EVENTS, CONTENT_EVENTS, PROGRESS_EVENTS, TRAIL_EVENTS };

export type AuditCode = keyof typeof AUDIT_EVENTS;
export type AuditDataOf<C extends AuditCode> = z.input<(typeof AUDIT_EVENTS)[C]['data']>;
/** An event as a service publishes it: its code and the data that code declares. */
export type AuditEventOf<C extends AuditCode> = { code: C; data: AuditDataOf<C> };
export type TypedAuditEvent = { [C in AuditCode]: AuditEventOf<C> }[AuditCode];

const definitionOf = (code: unknown): AuditEventDefinition | null =>
  typeof code === 'string' && Object.hasOwn(AUDIT_EVENTS, code)
    ? (AUDIT_EVENTS as Record<string, AuditEventDefinition>)[code]
    : null;

/** What a stored record holds that its reading needs. */
export interface ReadableAuditRecord {
  code?: string | null;
  data?: unknown;
  details: string;
}

interface ReadEvent {
  definition: AuditEventDefinition;
  data: unknown;
}

/**
 * A record's kind and data, or null when it has no code this portal knows, or data its code no longer
 * fits (a record from before the codes that the migration could not read: it keeps its stored text).
 */
export function readAuditEvent(record: Pick<ReadableAuditRecord, 'code' | 'data'>): ReadEvent | null {
  const definition = definitionOf(record.code);
  if (!definition) return null;
  const parsed = definition.data.safeParse(record.data);
  return parsed.success ? { definition, data: parsed.data } : null;
}

/** A record's details as the history and its export show them: from its code and data, else its stored text. */
export function auditDetailsOf(record: ReadableAuditRecord): string {
  const read = readAuditEvent(record);
  return read ? read.definition.details(read.data) : record.details;
}

/** What the person did (after their name), or null for a record that has no readable code. */
export function auditPhraseOf(record: ReadableAuditRecord, said: Said): string | null {
  const read = readAuditEvent(record);
  return read ? read.definition.phrase(read.data, said) : null;
}

/** What a published event is filed under: its action and entity, and its details as written today. */
export function describeAuditEvent(event: TypedAuditEvent): {
  action: AuditAction;
  entity: AuditEntity;
  details: string;
  data: Record<string, unknown>;
} {
  const definition = definitionOf(event.code);
  if (!definition) throw new Error(`unknown audit event ${event.code}`);
  const data = definition.data.parse(event.data) as Record<string, unknown>;
  return { action: definition.action, entity: definition.entity, details: definition.details(data), data };
}
