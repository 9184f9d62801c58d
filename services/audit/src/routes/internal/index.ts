import Router from '@koa/router';
import type { Model } from 'mongoose';
import {
  LIST_TOTAL_CAP,
  activityQuerySchema,
  scopedActivitySchema,
  type ActivityQuery,
  type AuditActivity,
  type DayCount,
} from '@portal/contracts';
import { cappedTotal, op, parse, requireInternal, type ServiceContext } from '@portal/service-kit';
import { dayOf, type AuditRecordDoc } from '../../models/record';
import { pageByDays } from '../../queries/records';
import { presentRecord } from '../../presenters/record';
import { lastDays } from '../../queries/period';

/**
 * The actions of one of the reader's days (`start` to `end`), counted to LIST_TOTAL_CAP in each UTC
 * day it touches (two, unless the reader's zone is UTC): past the cap the day's count is the cap and
 * `exact: false`.
 */
async function countDay(
  records: Model<AuditRecordDoc>,
  scope: Record<string, unknown>,
  { date, start, end }: { date: string; start: Date; end: Date },
): Promise<DayCount & { exact?: false }> {
  const utcDays: string[] = [];
  for (let at = start.getTime(); dayOf(at) <= dayOf(end.getTime() - 1); at += 86_400_000) utcDays.push(dayOf(at));
  const parts = await Promise.all(
    utcDays.map((day) => cappedTotal(records, { ...scope, day, timestamp: op({ $gte: start, $lt: end }) })),
  );
  const count = parts.reduce((sum, part) => sum + part.total, 0);
  return parts.every((part) => part.totalExact === undefined)
    ? { date, count }
    : { date, count: Math.min(count, LIST_TOTAL_CAP), exact: false };
}

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /**
   * The latest actions and how many there were on each of the last days (in the reader's time
   * zone); with actorId, only that person's own. The work is bounded by the window, not by the
   * size of the trail: the latest actions walk back from today (pageByDays), and each day is counted
   * to LIST_TOTAL_CAP, one count per UTC day it touches (an equality on `day` the store pushes down;
   * FerretDB would otherwise read every record for the latest ten and again for the counts, see
   * docs/FERRETDB.md). A day counted to the cap says `exact: false`: there were more.
   */
  router.get('/activity', async (ctx) => {
    const query = parse(activityQuerySchema, ctx.query);
    const scope: Record<string, unknown> = query.actorId ? { actorId: query.actorId } : {};
    // A person's own actions are few and found by their actorId at once; the whole trail is walked.
    ctx.body = await activity(scope, query, !query.actorId);
  });

  /**
   * A curator's feed (POST: the ids do not fit in an address): their own actions and the records
   * about their courses' parts, walked day by day as the whole trail is.
   */
  router.post('/activity', async (ctx) => {
    const { entityIds, actorId, ...query } = parse(scopedActivitySchema, ctx.request.body);
    const scope = { $or: [{ actorId }, { entityId: op({ $in: entityIds }) }] };
    ctx.body = await activity(scope, query, true);
  });

  async function activity(
    scope: Record<string, unknown>,
    query: Pick<ActivityQuery, 'days' | 'tz' | 'limit'>,
    walkDays: boolean,
  ): Promise<AuditActivity> {
    const days = lastDays(query.days, query.tz);
    const [recentByDays, byDay] = await Promise.all([
      walkDays ? pageByDays(records, scope, {}, -1, 0, query.limit) : null,
      Promise.all(days.map((day) => countDay(records, scope, day))),
    ]);
    const recent =
      recentByDays ??
      (await records
        .find(scope)
        .sort({ timestamp: -1, _id: -1 })
        .limit(query.limit)
        .lean<Array<AuditRecordDoc & { _id: unknown }>>());
    return { recent: recent.map(presentRecord), byDay };
  }

  return router;
}
