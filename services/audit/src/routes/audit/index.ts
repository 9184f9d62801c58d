import Router from '@koa/router';
import type { Model } from 'mongoose';
import { STAFF_ROLES, auditListQuerySchema } from '@portal/contracts';
import { parse, requireRole, type ServiceContext } from '@portal/service-kit';
import type { AuditRecordDoc } from '../../models/record';
import { listRecords } from '../../queries/records';

export function auditRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/api/audit' });

  /** The whole trail, for ADMIN and CURATOR. */
  router.get('/', service.authenticate, requireRole(...STAFF_ROLES), async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = await listRecords(records, query);
  });

  /** Anyone's own actions and nobody else's: the activity history of a learner's dashboard. */
  router.get('/my', service.authenticate, async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = await listRecords(records, query, ctx.state.user.id);
  });

  return router;
}
