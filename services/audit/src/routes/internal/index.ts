import Router from '@koa/router';
import type { Model } from 'mongoose';
import { activityQuerySchema, type AuditActivity } from '@portal/contracts';
import { op, parse, requireInternal, type ServiceContext } from '@portal/service-kit';
import type { AuditRecordDoc } from '../../models/record';
import { presentRecord } from '../../presenters/record';
import { lastDays } from '../../queries/period';

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /**
   * The latest actions and how many there were on each of the last days (in the reader's time
   * zone); with actorId, only that person's own. Two queries whatever the number of days: on
   * MongoDB each walks an index (the day counts read only the timestamps of the window, a covered
   * index scan); on the local FerretDB, which reads whole collections, two scans instead of fifteen.
   */
  router.get('/activity', async (ctx) => {
    const query = parse(activityQuerySchema, ctx.query);
    const scope: Record<string, unknown> = query.actorId ? { 'actor.id': query.actorId } : {};
    const days = lastDays(query.days, query.tz);
    const [recent, stamps] = await Promise.all([
      records.find(scope).sort({ timestamp: -1, _id: -1 }).limit(query.limit).lean<Array<AuditRecordDoc & { _id: unknown }>>(),
      records
        .find({ ...scope, timestamp: op({ $gte: days[0].start, $lt: days[days.length - 1].end }) })
        .select({ timestamp: 1, _id: 0 })
        .lean<Array<{ timestamp: Date }>>(),
    ]);
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
