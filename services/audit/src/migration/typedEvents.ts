import type { Model } from 'mongoose';
import { AUDIT_EVENTS, type AuditCode, type AuditEventDefinition } from '@portal/contracts';
import { op, updateEach } from '@portal/service-kit';
import { trailRewritten, type AuditRecordDoc } from '../models/record';
import { LEGACY_KINDS } from './legacy';

type Legible = Pick<AuditRecordDoc, 'action' | 'entity' | 'details'>;

/**
 * The code and data a record written as free text reads as, or null. A reading counts only when
 * the code files under the record's action and entity, its data fits the code's schema, and the
 * code's details, given that data, are the stored details exactly: a record is never misread.
 */
export function readLegacyRecord(record: Legible): { code: AuditCode; data: Record<string, unknown> } | null {
  for (const kind of LEGACY_KINDS) {
    const definition: AuditEventDefinition = AUDIT_EVENTS[kind.code];
    if (definition.action !== record.action || definition.entity !== record.entity) continue;
    const match = kind.pattern.exec(record.details);
    if (!match) continue;
    const parsed = definition.data.safeParse(kind.data(match));
    if (parsed.success && definition.details(parsed.data) === record.details)
      return { code: kind.code, data: parsed.data as Record<string, unknown> };
  }
  return null;
}

export interface MigrationOutcome {
  /** Records without a code that were looked at. */
  read: number;
  /** Given a code and data. */
  migrated: number;
  /** Left as they were: they read as their stored text. */
  kept: number;
}

/**
 * The one-time migration of the records written before the codes: each one some legacy kind reads
 * gets its code and data, in pages by `_id` (a store's work bounded per page, and a rerun starts
 * over at no cost for the records done: they have a code). Runs beside a serving audit service.
 */
export async function migrateTypedEvents(records: Model<AuditRecordDoc>, batchSize = 500): Promise<MigrationOutcome> {
  const outcome: MigrationOutcome = { read: 0, migrated: 0, kept: 0 };
  let after: string | null = null;
  for (;;) {
    const page: Array<Legible & { _id: string }> = await records
      .find({ code: op({ $exists: false }), ...(after === null ? {} : { _id: op({ $gt: after }) }) })
      .sort({ _id: 1 })
      .limit(batchSize)
      .select({ action: 1, entity: 1, details: 1 })
      .lean<Array<Legible & { _id: string }>>();
    if (!page.length) break;
    after = page[page.length - 1]._id;
    outcome.read += page.length;
    const writes = page.flatMap((r) => {
      const read = readLegacyRecord(r);
      return read ? [{ updateOne: { filter: { _id: r._id }, update: { $set: read } } }] : [];
    });
    await updateEach(records, writes);
    outcome.migrated += writes.length;
    outcome.kept += page.length - writes.length;
  }
  // The history's pages are kept by the trail's version: they read the records anew.
  if (outcome.migrated) await trailRewritten(records.db);
  return outcome;
}
