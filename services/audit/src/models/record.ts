import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction, type AuditEntity } from '@portal/contracts';
import { bumpOnWrite, bumpVersion, storeModel } from '@portal/service-kit';

export interface AuditRecordDoc {
  _id: string;
  eventId: string;
  service: string;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | null;
  details: string;
  actor: { id: string; fullName: string; email: string } | null;
  /** `actor.id` at the top level: FerretDB pushes an equality on a top-level field down to the store, not one in dot notation. */
  actorId?: string | null;
  timestamp: Date;
  /** The UTC day of `timestamp` (YYYY-MM-DD): pages of the history walk it day by day (queries/records.ts). */
  day?: string;
  /**
   * Its UTC hour (YYYY-MM-DDTHH), minute (YYYY-MM-DDTHH:MM) and ten seconds (YYYY-MM-DDTHH:MM:S, the
   * tens of seconds): a newest page of a busy trail reads the current ten seconds' records, or the
   * minute's, or the hour's, instead of the whole day's (queries/records.ts).
   */
  hour?: string;
  minute?: string;
  tenSeconds?: string;
  /** The request that made the change (X-Request-Id), to find its log lines and trace. */
  requestId?: string;
  /**
   * The event's code in the contracts' table and its data, from which the record reads at any time
   * (auditDetailsOf); a record from before the codes that the migration could not read has neither,
   * and reads as its stored details.
   */
  code?: string;
  data?: Record<string, unknown>;
}

const recordSchema = new Schema<AuditRecordDoc>(
  {
    // The publisher's event id: unique, so a redelivered event is stored once.
    // The event id is also the document's _id: FerretDB's SQLite backend only looks up _id by index,
    // so the idempotent upsert stays fast at any size there too (and costs nothing on MongoDB).
    _id: { type: String, default: () => randomUUID() },
    eventId: { type: String, required: true }, // = _id; kept as a field for readers of the records
    service: { type: String, required: true },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    entity: { type: String, enum: AUDIT_ENTITIES, required: true },
    entityId: { type: String, default: null },
    details: { type: String, default: '' },
    actor: { type: { id: String, fullName: String, email: String }, default: null, _id: false },
    actorId: { type: String, default: null },
    timestamp: { type: Date, required: true },
    day: { type: String },
    hour: { type: String },
    minute: { type: String },
    tenSeconds: { type: String },
    requestId: { type: String },
    code: { type: String },
    data: { type: Schema.Types.Mixed },
  },
  { versionKey: false },
);
// The history is read newest (or oldest) first, filtered by entity, action, person and a date
// range. Each index ends with the full sort key (timestamp, _id), so a page at a million records is
// an index walk, never an in-memory sort; the one in reverse order reads the same index backwards.
recordSchema.index({ timestamp: -1, _id: -1 });
recordSchema.index({ entity: 1, timestamp: -1, _id: -1 });
recordSchema.index({ action: 1, timestamp: -1, _id: -1 });
recordSchema.index({ entity: 1, action: 1, timestamp: -1, _id: -1 });
recordSchema.index({ actorId: 1, timestamp: -1, _id: -1 });
// One day's records, whatever else the filter names (an equality FerretDB pushes down to the store).
recordSchema.index({ day: 1, timestamp: -1, _id: -1 });
recordSchema.index({ hour: 1, timestamp: -1, _id: -1 });
recordSchema.index({ minute: 1, timestamp: -1, _id: -1 });
recordSchema.index({ tenSeconds: 1, timestamp: -1, _id: -1 });

/** The version of the history pages kept (routes/audit): every write to the trail moves it. */
export const TRAIL_VERSION = 'audit_records';
/**
 * The version of the totals kept once they reached the cap (queries/records.ts): a new record adds
 * to every total, so only a change or a removal of stored records moves it.
 */
export const TRAIL_REWRITE_VERSION = 'audit_records_rewritten';

// Writes through the model move them, so none can forget it; the worker's bulk insert moves the
// first itself, as it can fail for some events and store the rest (queues/worker.ts).
bumpOnWrite(recordSchema, TRAIL_VERSION);
bumpOnWrite(recordSchema, TRAIL_REWRITE_VERSION, undefined, { inserts: false });

/** After a bulk write that changed stored records, which no middleware sees: moves both versions. */
export const trailRewritten = (store: Connection): Promise<unknown> =>
  Promise.all([bumpVersion(store, TRAIL_VERSION), bumpVersion(store, TRAIL_REWRITE_VERSION)]);

/** The UTC day a record is filed under. */
export const dayOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);
/** The UTC hour a record is filed under. */
export const hourOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 13);
/** The UTC minute a record is filed under. */
export const minuteOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 16);
/** The UTC ten seconds a record is filed under (the minute and the tens digit of its seconds). */
export const tenSecondsOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 18);

/** The fields a record is filed under by its time: its day, hour, minute and ten seconds. */
export const filedAt = (at: Date | number): Required<Pick<AuditRecordDoc, 'day' | 'hour' | 'minute' | 'tenSeconds'>> => ({
  day: dayOf(at),
  hour: hourOf(at),
  minute: minuteOf(at),
  tenSeconds: tenSecondsOf(at),
});

export const recordModel = storeModel<AuditRecordDoc>('AuditRecord', recordSchema, 'audit_records');
