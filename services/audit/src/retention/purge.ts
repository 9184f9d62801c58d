import type { Model } from 'mongoose';
import { op, type AuditPublisher } from '@portal/service-kit';
import { dayOf, type AuditRecordDoc } from '../models/record';
import { daySummaryModel, invalidateLateDays } from '../queries/daySummaries';

const DAY_MS = 86_400_000;

export interface PurgeOptions {
  /** Records older than this many days before `now` go. */
  days: number;
  /** Records removed per store round trip (one find of ids, one delete). */
  batchSize: number;
  now: Date;
}

export interface PurgeOutcome {
  cutoff: Date;
  removed: number;
  batches: number;
}

/**
 * Removes the audit records older than the retention period, `batchSize` at a time, so no single
 * store call grows with the backlog (a first run on years of records, or FerretDB, which filters a
 * range itself instead of in an index). Safe to run twice at once: a record deleted by the other
 * run is simply not counted here.
 */
export async function purgeExpiredRecords(
  records: Model<AuditRecordDoc>,
  { days, batchSize, now }: PurgeOptions,
): Promise<PurgeOutcome> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let removed = 0;
  let batches = 0;
  for (;;) {
    const expired = await records
      .find({ timestamp: op({ $lt: cutoff }) }, { _id: 1 })
      .limit(batchSize)
      .lean<Array<{ _id: string }>>();
    if (!expired.length) break;
    const { deletedCount } = await records.deleteMany({
      _id: op({ $in: expired.map((r) => r._id) }),
      timestamp: op({ $lt: cutoff }),
    });
    removed += deletedCount;
    batches++;
    if (expired.length < batchSize) break;
  }
  // The summaries of the days purged go with them; the cutoff's own day lost part of its records.
  const summaries = daySummaryModel(records.db);
  await summaries.deleteMany({ _id: op({ $lt: dayOf(cutoff) }) });
  await invalidateLateDays(summaries, [dayOf(cutoff)], now.getTime());
  return { cutoff, removed, batches };
}

/** Purges, and records the purge in the trail it shortened (one record with the count, by the system). */
export async function runRetention(
  records: Model<AuditRecordDoc>,
  audit: AuditPublisher,
  options: PurgeOptions,
): Promise<PurgeOutcome> {
  const outcome = await purgeExpiredRecords(records, options);
  if (outcome.removed > 0)
    audit.publish({ code: 'audit.purged', data: { days: options.days, removed: outcome.removed }, actor: null });
  return outcome;
}
