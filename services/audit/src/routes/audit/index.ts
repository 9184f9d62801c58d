import Router from '@koa/router';
import type { Model } from 'mongoose';
import { STAFF_ROLES, auditQuerySchema } from '@portal/contracts';
import { op, parse, requireRole, type ServiceContext } from '@portal/service-kit';
import type { AuditRecordDoc } from '../../models/record';
import { presentRecord } from '../../presenters/record';

/** A date (YYYY-MM-DD) as the start of that day, or as its last millisecond for an inclusive end. */
export const dayBound = (day: string, end: boolean): Date => new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);

export function auditRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/api/audit' });

  router.get('/', service.authenticate, requireRole(...STAFF_ROLES), async (ctx) => {
    const query = parse(auditQuerySchema, ctx.query);
    const filter: Record<string, unknown> = {};
    if (query.entity) filter.entity = query.entity;
    if (query.action) filter.action = query.action;
    if (query.startDate || query.endDate) {
      filter.timestamp = op({
        ...(query.startDate ? { $gte: dayBound(query.startDate, false) } : {}),
        ...(query.endDate ? { $lte: dayBound(query.endDate, true) } : {}),
      });
    }
    const [rows, total] = await Promise.all([
      records
        .find(filter)
        .sort({ timestamp: query.sort === 'newest' ? -1 : 1 })
        .skip((query.page - 1) * query.limit)
        .limit(query.limit)
        .lean<Array<AuditRecordDoc & { _id: unknown }>>(),
      records.countDocuments(filter),
    ]);
    ctx.body = { data: rows.map(presentRecord), total, page: query.page, limit: query.limit };
  });

  return router;
}
