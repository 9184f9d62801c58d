import { Schema, type Model } from 'mongoose';
import { bumpVersion, coalesce, isDuplicateKey, onlyDuplicateKeys, op, storeModel } from '@portal/service-kit';
import { dayOf, TRAIL_VERSION, type AuditRecordDoc } from '../models/record';

/**
 * What one UTC day of the trail holds, by entity and action: a period's total is the sum of its
 * days' summaries, so counting a year reads 365 small documents instead of every record of the year
 * (on FerretDB, a count converts each record it counts).
 *
 * Only days that are over are summarised (before yesterday, with a day's margin for a publisher's
 * clock). A record can still arrive for such a day (an event delayed in the queue, a restore): the
 * audit worker then moves the day's `gen` before and after storing it, and a summary counts only
 * while its `countedGen` equals `gen`, so a stale summary is recounted, never trusted.
 */
export interface DaySummaryDoc {
  /** The UTC day, YYYY-MM-DD. */
  _id: string;
  /**
   * Its month, YYYY-MM: a period's summaries are read month by month, by equality. FerretDB pushes
   * an equality down to PostgreSQL but reads a whole collection for a range or an `$in` of `_id`s
   * (a year of summaries for each page of the history).
   */
  month?: string;
  /** Moved by every late write to the day; a summary is valid only for the generation it counted. */
  gen: number;
  countedGen?: number;
  /**
   * The day's records by entity and action, one `entity action n` a line. One string, not an array of
   * `{entity, action, n}`: FerretDB converts every nested value of every document it reads, and a
   * period's summaries read as strings cost a tenth of the same counts as subdocuments (measured).
   */
  tally?: string;
}

/** A day's records of one entity and action. */
export interface DayCount {
  entity: string;
  action: string;
  n: number;
}

const tallyOf = (counts: DayCount[]): string => counts.map((c) => `${c.entity} ${c.action} ${c.n}`).join('\n');

const countsOf = (tally: string): DayCount[] =>
  tally
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [entity, action, n] = line.split(' ');
      return { entity, action, n: Number(n) };
    });

const daySummarySchema = new Schema<DaySummaryDoc>(
  {
    _id: { type: String, required: true },
    month: { type: String },
    gen: { type: Number, default: 0 },
    countedGen: { type: Number },
    tally: { type: String },
  },
  { versionKey: false },
);

daySummarySchema.index({ month: 1 });

export const daySummaryModel = storeModel<DaySummaryDoc>('AuditDaySummary', daySummarySchema, 'audit_day_summaries');

const DAY_MS = 86_400_000;

/** Days summarised or counted from summaries in one request at most; a longer period is a lower bound. */
export const MAX_DAYS_SUMMED = 1100;
/** Missing summaries one request may make (4 at a time); the rest wait for the next request or the warm-up. */
export const SUMMARIES_MADE_PER_REQUEST = 32;
const MADE_AT_ONCE = 4;

/** The last day that is over by `now` with a day's margin: days up to it may be summarised. */
export const lastSealedDay = (now: number): string => dayOf(now - 2 * DAY_MS);

/** The day before `now`'s UTC day: a record filed at or before it is late, and the worker invalidates its summary. */
const lastClosedDay = (now: number): string => dayOf(now - DAY_MS);

/** Marks the summaries of the days of late records stale (see DaySummaryDoc). Costs nothing for today's records. */
export async function invalidateLateDays(summaries: Model<DaySummaryDoc>, days: string[], now = Date.now()): Promise<void> {
  const late = [...new Set(days)].filter((day) => day <= lastClosedDay(now));
  if (late.length) await summaries.updateMany({ _id: op({ $in: late }) }, { $inc: { gen: 1 } });
}

/**
 * Counts one day's records by entity and action and keeps the result, unless a late record moved the
 * day's generation meanwhile (then the count is still answered, but not kept).
 */
async function summarise(records: Model<AuditRecordDoc>, summaries: Model<DaySummaryDoc>, day: string): Promise<DayCount[]> {
  // Two readers may summarise a day at once: MongoDB retries an upsert that loses the insert race, FerretDB
  // answers E11000 instead; either way the summary now exists, which is all this write is for.
  await summaries
    .updateOne({ _id: day }, { $setOnInsert: { gen: 0 }, $set: { month: day.slice(0, 7) } }, { upsert: true })
    .catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
  const { gen } = (await summaries.findById(day).lean<DaySummaryDoc>()) ?? { gen: 0 };
  // An equality on `day` is pushed down to the store; only the two fields counted are sent.
  const rows = await records
    .find({ day })
    .select({ _id: 0, entity: 1, action: 1 })
    .lean<Array<{ entity: string; action: string }>>();
  const byKind = new Map<string, DayCount>();
  for (const { entity, action } of rows) {
    const key = `${entity}\u0001${action}`;
    const kind = byKind.get(key) ?? { entity, action, n: 0 };
    kind.n++;
    byKind.set(key, kind);
  }
  const counts = [...byKind.values()];
  // An older summary's `counts` (subdocuments) goes: this one is read instead.
  const kept = await summaries.updateOne(
    { _id: day, gen },
    { $set: { tally: tallyOf(counts), countedGen: gen }, $unset: { counts: 1 } },
    { strict: false }, // `counts` is no longer in the schema
  );
  // A page whose total was a lower bound for want of this summary can now be exact.
  if (kept.modifiedCount) await bumpVersion(records.db, TRAIL_VERSION);
  return counts;
}

/**
 * Requests of this process that need the same missing day wait for one count of it, instead of each
 * reading the day (the first page views after a restore, 50 at once). Only a de-duplication: nothing
 * is kept once the count is stored.
 */
const summarising = new Map<string, Promise<DayCount[]>>();
function summariseOnce(records: Model<AuditRecordDoc>, summaries: Model<DaySummaryDoc>, day: string) {
  return coalesce(summarising, `${records.db.name}\u0001${day}`, () => summarise(records, summaries, day));
}

const isValid = (s: DaySummaryDoc) => typeof s.tally === 'string' && s.countedGen === s.gen;

const sumOf = (counts: DayCount[], entity?: unknown, action?: unknown): number =>
  counts.reduce((n, c) => ((!entity || c.entity === entity) && (!action || c.action === action) ? n + c.n : n), 0);

/** The counts of the valid summaries of the sealed days `from`..`to`, by day: one read. */
export type ValidSummaries = Map<string, DayCount[]>;

export async function validSummaries(records: Model<AuditRecordDoc>, from: string, to: string): Promise<ValidSummaries> {
  if (from > to) return new Map();
  const months: string[] = [];
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); month = nextMonth(month)) months.push(month);
  const summaries = daySummaryModel(records.db);
  const stored = (await Promise.all(months.map((month) => summaries.find({ month }).lean<DaySummaryDoc[]>()))).flat();
  // A summary made before `month` was kept has none, so it is not found: it is made again.
  return new Map(stored.filter((s) => s._id >= from && s._id <= to && isValid(s)).map((s) => [s._id, countsOf(s.tally!)]));
}

const nextMonth = (month: string): string => {
  const [year, m] = month.split('-').map(Number);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
};

/**
 * The records of whole, sealed days (`from`..`to`, YYYY-MM-DD, inclusive) that match an entity and an
 * action, from the days' valid summaries (read by the caller), and at most SUMMARIES_MADE_PER_REQUEST
 * days summarised on the way. `complete` is false when some days were left unsummarised (their
 * records are then not in `count`).
 */
export async function countFromSummaries(
  records: Model<AuditRecordDoc>,
  { from, to, entity, action }: { from: string; to: string; entity?: unknown; action?: unknown },
  valid: ValidSummaries,
): Promise<{ count: number; complete: boolean }> {
  if (from > to) return { count: 0, complete: true };
  const summaries = daySummaryModel(records.db);
  let count = [...valid.values()].reduce((n, counts) => n + sumOf(counts, entity, action), 0);
  const missing: string[] = [];
  for (let at = Date.parse(`${to}T00:00:00Z`); dayOf(at) >= from; at -= DAY_MS)
    if (!valid.has(dayOf(at))) missing.push(dayOf(at));
  const made = missing.slice(0, SUMMARIES_MADE_PER_REQUEST);
  for (let i = 0; i < made.length; i += MADE_AT_ONCE) {
    const counted = await Promise.all(made.slice(i, i + MADE_AT_ONCE).map((day) => summariseOnce(records, summaries, day)));
    count += counted.reduce((n, counts) => n + sumOf(counts, entity, action), 0);
  }
  return { count, complete: made.length === missing.length };
}

/** How many records of each summarised day match an entity and an action. */
export const dayCounts = (valid: ValidSummaries, entity?: unknown, action?: unknown): Map<string, number> =>
  new Map([...valid].map(([day, counts]) => [day, sumOf(counts, entity, action)]));

/**
 * Summarises the sealed days of the last `days` days that have no valid summary, oldest last (run in
 * the background at start, so the first history pages find them; idempotent, replicas may run it at
 * once). Answers the number of days summarised.
 *
 * A store that is new, or was stopped for a while, misses many days, most of them without a record:
 * past `EMPTY_DAYS_AT_ONCE_FROM` missing days, those without a record are summarised together, in a few
 * operations whatever their number (a new installation's three years took 5,511 operations, five a day).
 */
export async function warmDaySummaries(records: Model<AuditRecordDoc>, days: number, now = Date.now()): Promise<number> {
  const summaries = daySummaryModel(records.db);
  const to = lastSealedDay(now);
  const from = dayOf(Date.parse(`${to}T00:00:00Z`) - (Math.min(days, MAX_DAYS_SUMMED) - 1) * DAY_MS);
  const valid = await validSummaries(records, from, to);
  const missing: string[] = [];
  for (let at = Date.parse(`${to}T00:00:00Z`); dayOf(at) >= from; at -= DAY_MS)
    if (!valid.has(dayOf(at))) missing.push(dayOf(at));
  const empty =
    missing.length >= EMPTY_DAYS_AT_ONCE_FROM ? await summariseEmptyDays(records, summaries, missing) : new Set<string>();
  for (const day of missing) if (!empty.has(day)) await summarise(records, summaries, day);
  return missing.length;
}

/** Missing days from which the warm-up first asks which of them hold a record (a restart after a day misses one or two). */
export const EMPTY_DAYS_AT_ONCE_FROM = 32;

/**
 * Gives the days of `missing` (newest first) that hold no record a valid empty summary, and answers
 * those it could; the others are left to `summarise`. In this order, so that a late record is never
 * missed: the summaries are made first (generation 0, no tally), then the days holding a record are
 * read, then the others are marked counted at generation 0. The worker moves a day's generation after
 * storing a late record, and its summary exists by then, so a record the read did not see leaves its
 * day's summary stale: it is counted again when asked.
 */
async function summariseEmptyDays(
  records: Model<AuditRecordDoc>,
  summaries: Model<DaySummaryDoc>,
  missing: string[],
): Promise<Set<string>> {
  await summaries
    .insertMany(
      missing.map((day) => ({ _id: day, month: day.slice(0, 7), gen: 0 })),
      { ordered: false },
    )
    .catch((err: unknown) => {
      // Days that had a summary already (stale, or made by a replica meanwhile) keep it.
      if (!onlyDuplicateKeys(err)) throw err;
    });
  const held = new Set(
    (await records.distinct('day', { day: op({ $gte: missing[missing.length - 1], $lte: missing[0] }) })) as string[],
  );
  const empty = missing.filter((day) => !held.has(day));
  if (!empty.length) return new Set();
  // A summary already moved past generation 0 belongs to a day a record reached: counted by `summarise`.
  const moved = await summaries
    .find({ _id: op({ $in: empty }), gen: op({ $ne: 0 }) })
    .select({ _id: 1 })
    .lean<Array<{ _id: string }>>();
  const movedDays = new Set(moved.map((m) => m._id));
  const counted = empty.filter((day) => !movedDays.has(day));
  const kept = await summaries.updateMany({ _id: op({ $in: counted }), gen: 0 }, { $set: { tally: '', countedGen: 0 } });
  if (kept.modifiedCount) await bumpVersion(records.db, TRAIL_VERSION);
  return new Set(counted);
}
