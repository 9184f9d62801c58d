import type { Model } from 'mongoose';
import { AUDIT_MAX_DAYS_COUNTED, AUDIT_TOTAL_CAP, pageOffset, type AuditListQuery, type AuditPage } from '@portal/contracts';
import { clock, escapeRegExp, op, updateEach, VersionedCache } from '@portal/service-kit';
import {
  dayOf,
  filedAt,
  hourOf,
  minuteOf,
  tenSecondsOf,
  trailRewritten,
  TRAIL_REWRITE_VERSION,
  type AuditRecordDoc,
} from '../models/record';
import {
  countFromSummaries,
  dayCounts,
  lastSealedDay,
  MAX_DAYS_SUMMED,
  validSummaries,
  type ValidSummaries,
} from './daySummaries';
import { presentRecord } from '../presenters/record';
import { endOfDay, startOfDay } from './period';

type StoredRecord = AuditRecordDoc & { _id: unknown };
type RecordFilterQuery = Pick<AuditListQuery, 'entity' | 'action' | 'startDate' | 'endDate' | 'search' | 'tz'>;

const DAY_MS = 86_400_000;
/** Days a page walks at most (one query each) before it asks for the whole filter at once. */
export const MAX_DAYS_WALKED = 14;

/**
 * Whose records a history holds: one person's own actions (`actorId`), or a curator's:
 * their own actions and the records about their courses' parts (`entityIds`), as their feed.
 */
export interface RecordScope {
  actorId: string;
  entityIds?: readonly string[];
}

/** The store filter of a history query, narrowed to a scope when there is one. */
export function recordFilter(query: RecordFilterQuery, scope?: RecordScope): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const alternatives: Array<Array<Record<string, unknown>>> = [];
  if (scope?.entityIds) alternatives.push([{ actorId: scope.actorId }, { entityId: op({ $in: [...scope.entityIds] }) }]);
  else if (scope) filter.actorId = scope.actorId;
  if (query.entity) filter.entity = query.entity;
  if (query.action) filter.action = query.action;
  const { from, to } = periodOf(query);
  if (from || to) filter.timestamp = op({ ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) });
  if (query.search) {
    const pattern = new RegExp(escapeRegExp(query.search), 'i');
    // A curator's history shows no one's email but their own, so it finds no one else by it either.
    const email = scope?.entityIds ? { actorId: scope.actorId, 'actor.email': pattern } : { 'actor.email': pattern };
    alternatives.push([{ details: pattern }, { 'actor.fullName': pattern }, email]);
  }
  if (alternatives.length === 1) filter.$or = alternatives[0];
  if (alternatives.length > 1) filter.$and = alternatives.map(($or) => ({ $or }));
  return filter;
}

/** Day queries of a period's count in flight at once. */
const DAYS_COUNTED_AT_ONCE = 4;

/** Filters a period's total can take from the day summaries: entity, action and the period itself. */
const SUMMED_FIELDS = new Set(['entity', 'action', 'timestamp']);

/**
 * The total of a history page, with bounded store work at any size of the trail.
 * - A period filtered by entity and action at most: its whole days that are over come from the day
 *   summaries (queries/daySummaries.ts), and the rest (today, yesterday, and a first or last day the
 *   reader's time zone cuts) is counted record by record, one equality on `day` each. Exact, unless
 *   the period starts before the summaries reach or some days were not summarised yet.
 * - Anything else (a search, a person's own history, no period) is counted up to AUDIT_TOTAL_CAP
 *   records (then «500+»), a period day by day, newest first, for at most AUDIT_MAX_DAYS_COUNTED days;
 *   past them the total is a lower bound too.
 */
export async function countRecords(
  records: Model<AuditRecordDoc>,
  filter: Record<string, unknown>,
  period: { from?: Date; to?: Date },
  now = clock.now().getTime(),
  summaries = summariesOf(records, period, now),
  capped?: CappedTotals,
): Promise<Pick<AuditPage, 'total' | 'totalExact'>> {
  if (countedBySummaries(filter, period)) return countBySummaries(records, filter, period, now, summaries);
  const count = () => countCapped(records, filter, period, now);
  // The days a period's count walks are told from today: a total kept yesterday may cover other days.
  return capped ? capped.get({ filter, period, day: dayOf(now) }, count, reachedCap) : count();
}

type Total = Pick<AuditPage, 'total' | 'totalExact'>;

/**
 * The totals counted to the cap that reached it («500+»), kept per process: a new record only adds
 * to what a filter selects, so such a total stays right until a stored record is changed or removed
 * (an erasure, the retention, a backfill), which moves TRAIL_REWRITE_VERSION. A busy trail moves the
 * pages' own version with every event, so without it each page would count 501 records again.
 */
export type CappedTotals = VersionedCache<Total>;
export const cappedTotals = (records: Model<AuditRecordDoc>): CappedTotals =>
  new VersionedCache<Total>(records.db, { name: TRAIL_REWRITE_VERSION });
const reachedCap = (total: Total) => !total.totalExact && total.total >= AUDIT_TOTAL_CAP;

/** Whether a filter's total comes from the day summaries (exact past the cap), not from counting records. */
const countedBySummaries = (filter: Record<string, unknown>, period: { from?: Date; to?: Date }) =>
  !!(period.from || period.to) && summable(filter);

/** Whether the day summaries can count what a filter selects: an entity, an action and a period at most. */
const summable = (filter: Record<string, unknown>) => Object.keys(filter).every((field) => SUMMED_FIELDS.has(field));

/**
 * The valid summaries of the sealed days a period covers whole, read once when first asked for: a
 * page's count and its walk share one read, and neither reads them when it does not need them.
 */
function summariesOf(records: Model<AuditRecordDoc>, period: { from?: Date; to?: Date }, now: number) {
  let read: Promise<ValidSummaries> | undefined;
  const { summedFrom, summedTo } = periodDays(period, now);
  return () => (read ??= validSummaries(records, summedFrom, summedTo));
}

const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const shiftDay = (day: string, days: number): string => dayOf(dayStart(day) + days * DAY_MS);

/**
 * The days of a period as the summaries see them: `first`..`last` (UTC days, from the oldest day the
 * summaries reach to tomorrow, as a publisher's clock may run a little ahead), and within them
 * `summedFrom`..`summedTo`, the sealed days the period covers whole (the reader's midnight need not
 * be UTC's), whose records the summaries count.
 */
function periodDays({ from, to }: { from?: Date; to?: Date }, now: number) {
  const tomorrow = dayOf(now + DAY_MS);
  const oldest = dayOf(now - (MAX_DAYS_SUMMED - 1) * DAY_MS);
  const last = to && dayOf(to) < tomorrow ? dayOf(to) : tomorrow;
  const first = from && dayOf(from) > oldest ? dayOf(from) : oldest;
  const firstWhole = !from || from.getTime() <= dayStart(first);
  const lastWhole = !to || to.getTime() >= dayStart(last) + DAY_MS - 1;
  const summedFrom = firstWhole ? first : shiftDay(first, 1);
  const summedTo = [lastWhole ? last : shiftDay(last, -1), lastSealedDay(now)].sort()[0];
  return { first, last, firstWhole, lastWhole, summedFrom, summedTo, reachesStart: !!from && dayOf(from) >= oldest };
}

async function countBySummaries(
  records: Model<AuditRecordDoc>,
  filter: Record<string, unknown>,
  period: { from?: Date; to?: Date },
  now: number,
  summaries: () => Promise<ValidSummaries>,
): Promise<Pick<AuditPage, 'total' | 'totalExact'>> {
  const { first, last, firstWhole, lastWhole, summedFrom, summedTo, reachesStart } = periodDays(period, now);
  if (first > last) return { total: 0, totalExact: reachesStart };
  // Days the period covers only in part are counted record by record.
  const live = new Set<string>();
  if (!firstWhole) live.add(first);
  if (!lastWhole) live.add(last);
  // The days after the summed ones: the last few that are not over yet (at most three).
  for (let day = shiftDay(summedTo, 1); day <= last; day = shiftDay(day, 1)) if (day >= first) live.add(day);
  const [summed, ...counted] = await Promise.all([
    summaries().then((valid) =>
      countFromSummaries(records, { from: summedFrom, to: summedTo, entity: filter.entity, action: filter.action }, valid),
    ),
    ...[...live].map((day) => records.countDocuments({ ...filter, day })),
  ]);
  return { total: counted.reduce((n, c) => n + c, summed.count), totalExact: reachesStart && summed.complete };
}

async function countCapped(
  records: Model<AuditRecordDoc>,
  filter: Record<string, unknown>,
  { from, to }: { from?: Date; to?: Date },
  now: number,
): Promise<Pick<AuditPage, 'total' | 'totalExact'>> {
  const capped = (n: number, exact: boolean) =>
    n > AUDIT_TOTAL_CAP ? { total: AUDIT_TOTAL_CAP, totalExact: false } : { total: n, totalExact: exact };
  // FerretDB reads every record it counts (`estimatedDocumentCount` too), so never past the cap.
  if (!from && !to) return capped(await records.countDocuments(filter, { limit: AUDIT_TOTAL_CAP + 1 }), true);
  const days: string[] = [];
  const first = dayOf(from ?? 0);
  for (let at = to ? to.getTime() : now + DAY_MS; dayOf(at) >= first && days.length < AUDIT_MAX_DAYS_COUNTED; at -= DAY_MS)
    days.push(dayOf(at));
  const walkedAll =
    !!from && dayOf(from.getTime()) >= dayOf((to ? to.getTime() : now + DAY_MS) - (AUDIT_MAX_DAYS_COUNTED - 1) * DAY_MS);
  let counted = 0;
  for (let i = 0; i < days.length && counted <= AUDIT_TOTAL_CAP; i += DAYS_COUNTED_AT_ONCE) {
    const counts = await Promise.all(
      days
        .slice(i, i + DAYS_COUNTED_AT_ONCE)
        .map((day) => records.countDocuments({ ...filter, day }, { limit: AUDIT_TOTAL_CAP + 1 - counted })),
    );
    counted += counts.reduce((sum, n) => sum + n, 0);
  }
  return capped(counted, walkedAll);
}

/** The sort of the history: _id breaks ties between events of the same millisecond, so pages never overlap. */
export const recordOrder = (sort: 'newest' | 'oldest') => {
  const direction = sort === 'newest' ? -1 : 1;
  return { timestamp: direction, _id: direction } as const;
};

const periodOf = (query: RecordFilterQuery) => ({
  from: query.startDate ? startOfDay(query.startDate, query.tz) : undefined,
  to: query.endDate ? endOfDay(query.endDate, query.tz) : undefined,
});

const byTime = (direction: 1 | -1) => (a: StoredRecord, b: StoredRecord) => {
  const t = new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime();
  return direction * (t || (String(a._id) < String(b._id) ? -1 : String(a._id) > String(b._id) ? 1 : 0));
};

/**
 * A page read day by day: each day's records are one equality query (`day`, plus the filter's
 * other equalities), sorted in code, until the page is full. On FerretDB this is what keeps a page
 * cheap at any size: it pushes equalities down to PostgreSQL but does ranges, sorts, skips and
 * counts itself over everything the filter selects (docs/FERRETDB.md), so one query for the first
 * page of a year of history read the whole year. On MongoDB each day is an index walk.
 *
 * When the filter is a period with an entity and an action at most, the day summaries (read once
 * for the page's count too) say how many records of each sealed day the period covers whole match
 * it: such a day with nothing to show, or one the page skips whole, is passed without a query, so
 * a rare action or a deep page costs no more days read than a first page of a frequent one.
 *
 * A newest page that reaches the present first tries the current ten seconds, minute and hour (recentPage).
 *
 * Answers null when the walk cannot be bounded (oldest first without a start date, or more than
 * MAX_DAYS_WALKED days to read): the caller then asks for the whole filter at once.
 */
export async function pageByDays(
  records: Model<AuditRecordDoc>,
  filter: Record<string, unknown>,
  { from, to }: { from?: Date; to?: Date },
  direction: 1 | -1,
  skip: number,
  limit: number,
  now = clock.now().getTime(),
  summaries = summariesOf(records, { from, to }, now),
  /** Filled with how many records of the filter each day (or part of today) it read holds, in the period. */
  seen?: Map<string, number>,
): Promise<StoredRecord[] | null> {
  if (direction === 1 && !from) return null;
  const { timestamp: _range, ...equalities } = filter;
  // Newest first starts at tomorrow (UTC): a publisher's clock may run a little ahead of ours.
  const first = direction === -1 ? (to ? to.getTime() : now + DAY_MS) : from!.getTime();
  const last = direction === -1 ? from?.getTime() : (to?.getTime() ?? now + DAY_MS);
  const inRange = (r: StoredRecord) => {
    const t = new Date(r.timestamp).getTime();
    return (!from || t >= from.getTime()) && (!to || t <= to.getTime());
  };
  if (direction === -1 && (!to || to.getTime() >= now)) {
    const recent = await recentPage(records, equalities, inRange, skip, limit, now);
    if (recent) {
      seen?.set(recent.bucket, recent.read);
      return recent.rows;
    }
  }
  // The summaries a period's count reads anyway (one read for both), taken when the walk first
  // reaches a sealed day: a first page of recent history never needs them. Without a period they
  // would be every day the summaries reach, more to read than the days they spare.
  const sealed = lastSealedDay(now);
  const countable = (from || to) && summable(equalities);
  let known: Map<string, number> | undefined;
  const rows: StoredRecord[] = [];
  let toSkip = skip;
  for (let read = 0, passed = 0, at = first; read < MAX_DAYS_WALKED && passed <= MAX_DAYS_SUMMED; at += direction * DAY_MS) {
    const day = dayOf(at);
    if (last !== undefined && (direction === -1 ? day < dayOf(last) : day > dayOf(last))) return rows;
    if (!known && day <= sealed)
      known = countable ? dayCounts(await summaries(), equalities.entity, equalities.action) : new Map();
    const count = known?.get(day);
    if (count !== undefined && count <= toSkip) {
      toSkip -= count;
      passed++;
      continue;
    }
    read++;
    const found = (await records.find({ ...equalities, day }).lean<StoredRecord[]>()).filter(inRange).sort(byTime(direction));
    seen?.set(day, found.length);
    if (toSkip >= found.length) {
      toSkip -= found.length;
      continue;
    }
    rows.push(...found.slice(toSkip, toSkip + limit - rows.length));
    toSkip = 0;
    if (rows.length >= limit) return rows;
  }
  return null;
}

/**
 * A newest page from the records of the current ten seconds, or else of the current minute, or else
 * of the current hour (one equality each, which FerretDB pushes down), when they hold the page whole:
 * all other records are older. On a busy trail, whose kept pages a new record outdates at once, a
 * first page then reads the records of its last seconds, not the whole day's: 30 events a second fill
 * a minute with 1,800. Answers null when they do not hold it (a quiet trail, a deep page, a period
 * that starts within the hour), and the caller walks the days. A record whose publisher's clock ran
 * ahead into the next ten seconds is on the page once they come.
 */
async function recentPage(
  records: Model<AuditRecordDoc>,
  equalities: Record<string, unknown>,
  inRange: (r: StoredRecord) => boolean,
  skip: number,
  limit: number,
  now: number,
): Promise<{ rows: StoredRecord[]; bucket: string; read: number } | null> {
  for (const [field, bucket] of [
    ['tenSeconds', tenSecondsOf(now)],
    ['minute', minuteOf(now)],
    ['hour', hourOf(now)],
  ] as const) {
    const found = await records.find({ ...equalities, [field]: bucket }).lean<StoredRecord[]>();
    const shown = found.filter(inRange);
    if (shown.length >= skip + limit)
      return { rows: shown.sort(byTime(-1)).slice(skip, skip + limit), bucket, read: shown.length };
  }
  return null;
}

/** One page of the history, newest or oldest first, with the total that matches. */
export async function listRecords(
  records: Model<AuditRecordDoc>,
  query: AuditListQuery,
  scope?: RecordScope,
  capped?: CappedTotals,
): Promise<AuditPage> {
  const filter = recordFilter(query, scope);
  const direction = query.sort === 'newest' ? -1 : 1;
  const period = periodOf(query);
  const now = clock.now().getTime();
  const summaries = summariesOf(records, period, now);
  const count = () => countRecords(records, filter, period, now, summaries, capped);
  const direct = () =>
    records.find(filter).sort(recordOrder(query.sort)).skip(pageOffset(query)).limit(query.limit).lean<StoredRecord[]>();
  // A person's own history is found by their actorId at once, and counted beside it.
  if (scope && !scope.entityIds) {
    const [rows, counted] = await Promise.all([direct(), count()]);
    return pageOf(query, rows, counted);
  }
  // The whole trail, and a curator's part of it (records of many people), are walked by day. When
  // the days the walk read already hold more than the count's cap, the total is that «500+» and the
  // count is not asked: on a busy day it would read the same records again (on FerretDB, every
  // record of the filter; docs/FERRETDB.md). A total the day summaries give exactly is still asked.
  const seen = new Map<string, number>();
  const walked = await pageByDays(records, filter, period, direction, pageOffset(query), query.limit, now, summaries, seen);
  const rows = walked ?? (await direct());
  const read = [...seen.values()].reduce((sum, n) => sum + n, 0);
  const counted =
    read > AUDIT_TOTAL_CAP && !countedBySummaries(filter, period) ? { total: AUDIT_TOTAL_CAP, totalExact: false } : await count();
  return pageOf(query, rows, counted);
}

/** The page, with a lower bound of a total never below what the page has shown to be there. */
function pageOf(query: AuditListQuery, rows: StoredRecord[], counted: Pick<AuditPage, 'total' | 'totalExact'>): AuditPage {
  const total = counted.totalExact ? counted.total : Math.max(counted.total, pageOffset(query) + rows.length);
  return { data: rows.map(presentRecord), total, totalExact: counted.totalExact, page: query.page, limit: query.limit };
}

/**
 * Records stored before `actorId` and `day` existed get them from `actor.id` and `timestamp`, with
 * their hour, minute and ten seconds; then today's and tomorrow's records stored before those
 * existed get them (a newest page reads the current ones: recentPage). In
 * batches, run in the background at start; idempotent, so replicas may run it at once. Until it
 * has passed, pages walked by day and a person's own history lack the older records.
 */
export async function backfillRecordFields(records: Model<AuditRecordDoc>, batchSize = 100): Promise<number> {
  type Older = Pick<AuditRecordDoc, '_id' | 'actor' | 'timestamp'>;
  const dayless = await moveInBatches(records, { day: op({ $exists: false }) }, batchSize, (r: Older) => ({
    actorId: r.actor?.id ?? null,
    ...filedAt(r.timestamp),
  }));
  // Only the days a newest page reads by their parts: an equality on `day` each, so the walk reads
  // those days' records, never the whole trail.
  let recent = 0;
  const today = clock.now().getTime();
  for (const day of [dayOf(today), dayOf(today + DAY_MS)])
    recent += await moveInBatches(records, { day, tenSeconds: op({ $exists: false }) }, batchSize, (r: Older) =>
      filedAt(r.timestamp),
    );
  return dayless + recent;
}

/** Sets `fields(record)` on every record `filter` selects, `batchSize` read at a time; answers how many. */
async function moveInBatches<R extends Pick<AuditRecordDoc, '_id' | 'actor' | 'timestamp'>>(
  records: Model<AuditRecordDoc>,
  filter: Record<string, unknown>,
  batchSize: number,
  fields: (record: R) => Partial<AuditRecordDoc>,
): Promise<number> {
  let moved = 0;
  const cursor = records.find(filter).select({ actor: 1, timestamp: 1 }).lean<R[]>().cursor({ batchSize });
  let batch: R[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await updateEach(
      records,
      batch.map((r) => ({ updateOne: { filter: { _id: r._id }, update: { $set: fields(r) } } })),
    );
    await trailRewritten(records.db);
    moved += batch.length;
    batch = [];
  };
  // Closed however the walk ends: mongoose's cursor is its own async iterator, with no `return()`
  // for a `for await` to call when a write in its body throws (the store lost mid-backfill).
  try {
    for await (const record of cursor) {
      batch.push(record);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } finally {
    await cursor.close().catch(() => undefined);
  }
  return moved;
}
