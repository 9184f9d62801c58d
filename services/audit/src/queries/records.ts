import type { Model } from 'mongoose';
import { pageOffset, type AuditListQuery, type AuditPage } from '@portal/contracts';
import { escapeRegExp, op } from '@portal/service-kit';
import type { AuditRecordDoc } from '../models/record';
import { presentRecord } from '../presenters/record';
import { endOfDay, startOfDay } from './period';

type StoredRecord = AuditRecordDoc & { _id: unknown };

/** The store filter of a history query; `actorId` narrows it to one person's own actions. */
export function recordFilter(query: AuditListQuery, actorId?: string): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (actorId) filter.actorId = actorId;
  if (query.entity) filter.entity = query.entity;
  if (query.action) filter.action = query.action;
  if (query.startDate || query.endDate) {
    filter.timestamp = op({
      ...(query.startDate ? { $gte: startOfDay(query.startDate, query.tz) } : {}),
      ...(query.endDate ? { $lte: endOfDay(query.endDate, query.tz) } : {}),
    });
  }
  if (query.search) {
    const pattern = new RegExp(escapeRegExp(query.search), 'i');
    filter.$or = [{ details: pattern }, { 'actor.fullName': pattern }, { 'actor.email': pattern }];
  }
  return filter;
}

/** One page of the history, newest or oldest first, with the total that matches. */
export async function listRecords(records: Model<AuditRecordDoc>, query: AuditListQuery, actorId?: string): Promise<AuditPage> {
  const filter = recordFilter(query, actorId);
  const direction = query.sort === 'newest' ? -1 : 1;
  const [rows, total] = await Promise.all([
    records
      .find(filter)
      // _id breaks ties between events of the same millisecond, so pages never overlap.
      .sort({ timestamp: direction, _id: direction })
      .skip(pageOffset(query))
      .limit(query.limit)
      .lean<StoredRecord[]>(),
    // Without a filter the collection's own count answers at once, even at millions of records.
    Object.keys(filter).length ? records.countDocuments(filter) : records.estimatedDocumentCount(),
  ]);
  return { data: rows.map(presentRecord), total, page: query.page, limit: query.limit };
}

/**
 * Records stored before `actorId` existed get it from `actor.id`, in batches (run in the background
 * at start; idempotent, so replicas may run it at once). Until it has passed, a person's own history
 * lacks those older records.
 */
export async function backfillActorIds(records: Model<AuditRecordDoc>, batchSize = 500): Promise<number> {
  let moved = 0;
  const cursor = records
    .find({ actorId: op({ $exists: false }) })
    .select({ actor: 1 })
    .lean<Array<Pick<AuditRecordDoc, '_id' | 'actor'>>>()
    .cursor({ batchSize });
  let batch: Array<Pick<AuditRecordDoc, '_id' | 'actor'>> = [];
  const flush = async () => {
    if (!batch.length) return;
    await records.bulkWrite(
      batch.map((r) => ({ updateOne: { filter: { _id: r._id }, update: { $set: { actorId: r.actor?.id ?? null } } } })),
      { ordered: false },
    );
    moved += batch.length;
    batch = [];
  };
  for await (const record of cursor) {
    batch.push(record);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return moved;
}
