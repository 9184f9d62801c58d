import type { Model } from 'mongoose';
import { pageOffset, type AuditListQuery, type AuditPage } from '@portal/contracts';
import { escapeRegExp, op } from '@portal/service-kit';
import type { AuditRecordDoc } from '../models/record';
import { presentRecord } from '../presenters/record';
import { endOfDay, startOfDay } from './period';

type StoredRecord = AuditRecordDoc & { _id: unknown };
type RecordFilterQuery = Pick<AuditListQuery, 'entity' | 'action' | 'startDate' | 'endDate' | 'search' | 'tz'>;

/** The store filter of a history query; `actorId` narrows it to one person's own actions. */
export function recordFilter(query: RecordFilterQuery, actorId?: string): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (actorId) filter['actor.id'] = actorId;
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

/** How many records a filter selects; without a filter the collection's own count answers at once, even at millions. */
export const countRecords = (records: Model<AuditRecordDoc>, filter: Record<string, unknown>): Promise<number> =>
  Object.keys(filter).length ? records.countDocuments(filter) : records.estimatedDocumentCount();

/** The sort of the history: _id breaks ties between events of the same millisecond, so pages never overlap. */
export const recordOrder = (sort: 'newest' | 'oldest') => {
  const direction = sort === 'newest' ? -1 : 1;
  return { timestamp: direction, _id: direction } as const;
};

/** One page of the history, newest or oldest first, with the total that matches. */
export async function listRecords(records: Model<AuditRecordDoc>, query: AuditListQuery, actorId?: string): Promise<AuditPage> {
  const filter = recordFilter(query, actorId);
  const [rows, total] = await Promise.all([
    records.find(filter).sort(recordOrder(query.sort)).skip(pageOffset(query)).limit(query.limit).lean<StoredRecord[]>(),
    countRecords(records, filter),
  ]);
  return { data: rows.map(presentRecord), total, page: query.page, limit: query.limit };
}
