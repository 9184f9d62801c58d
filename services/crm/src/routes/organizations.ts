import Router from '@koa/router';
import type { Model } from 'mongoose';
import { CRM_ROLES } from '@portal/contracts';
import { escapeRegExp, requireRole, type ServiceContext } from '@portal/service-kit';
import type { OrganizationDoc } from '../models/organization';

export function organizationsRouter(service: ServiceContext, organizations: Model<OrganizationDoc>): Router {
  const router = new Router({ prefix: '/api/organizations' });

  router.get('/', service.authenticate, requireRole(...CRM_ROLES), async (ctx) => {
    const search = typeof ctx.query.search === 'string' ? ctx.query.search.trim().slice(0, 200) : '';
    const pattern = search ? new RegExp(escapeRegExp(search), 'i') : null;
    const filter = pattern ? { $or: [{ name: pattern }, { inn: pattern }] } : {};
    const rows = await organizations.find(filter).sort({ createdAt: -1 }).limit(500).lean<OrganizationDoc[]>();
    ctx.body = {
      data: rows.map((o) => ({
        id: String(o._id),
        name: o.name,
        inn: o.inn,
        site: o.site ?? null,
        status: o.status,
        createdAt: new Date(o.createdAt).toISOString(),
        updatedAt: new Date(o.updatedAt).toISOString(),
      })),
    };
  });

  return router;
}
