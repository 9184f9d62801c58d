import Router from '@koa/router';
import type { Model } from 'mongoose';
import { activityQuerySchema, type AuditActivity } from '@portal/contracts';
import { parse, requireInternal, type ServiceContext } from '@portal/service-kit';
import { dayOf, type AuditRecordDoc } from '../../models/record';
import { pageByDays } from '../../queries/records';
import { presentRecord } from '../../presenters/record';
import { lastDays } from '../../queries/period';

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /**
   * The latest actions and how many there were on each of the last days (in the reader's time
   * zone); with actorId, only that person's own. Read day by day (the UTC days the window touches,
   * one equality query each, in parallel; the latest actions walk back from today), so the work is
   * bounded by the window, not by the size of the trail: FerretDB would otherwise read every record
   * for the latest ten and again for the counts (docs/FERRETDB.md).
   */
  router.get('/activity', async (ctx) => {
    const query = parse(activityQuerySchema, ctx.query);
    const scope: Record<string, unknown> = query.actorId ? { actorId: query.actorId } : {};
    const days = lastDays(query.days, query.tz);
    const from = days[0].start;
    const to = days[days.length - 1].end;
    const utcDays: string[] = [];
    for (let at = from.getTime(); dayOf(at) <= dayOf(to.getTime() - 1); at += 86_400_000) utcDays.push(dayOf(at));
    const [recentByDays, perDay] = await Promise.all([
      // A person's own actions are few and found by their actorId at once; the whole trail is walked.
      query.actorId ? null : pageByDays(records, scope, {}, -1, 0, query.limit),
      Promise.all(
        utcDays.map((day) =>
          records
            .find({ ...scope, day })
            .select({ timestamp: 1, _id: 0 })
            .lean<Array<{ timestamp: Date }>>(),
        ),
      ),
    ]);
    const recent =
      recentByDays ??
      (await records
        .find(scope)
        .sort({ timestamp: -1, _id: -1 })
        .limit(query.limit)
        .lean<Array<AuditRecordDoc & { _id: unknown }>>());
    const stamps = perDay.flat();
    const counts = days.map(() => 0);
    for (const { timestamp } of stamps) {
      const t = new Date(timestamp).getTime();
      const i = days.findIndex((day) => t >= day.start.getTime() && t < day.end.getTime());
      if (i >= 0) counts[i] += 1;
    }
    const body: AuditActivity = {
      recent: recent.map(presentRecord),
      byDay: days.map((day, i) => ({ date: day.date, count: counts[i] })),
    };
    ctx.body = body;
  });

  return router;
}
