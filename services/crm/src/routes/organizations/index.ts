import Router from '@koa/router';
import {
  organizationCreateSchema,
  organizationListQuerySchema,
  organizationUpdateSchema,
  pageOffset,
  type OrganizationListItem,
  type Page,
} from '@portal/contracts';
import { escapeRegExp, op, parse, takeExpectedVersion, versionTag, type ServiceContext } from '@portal/service-kit';
import type { Types } from 'mongoose';
import { createOrganization, deleteOrganization, loadOrganization, updateOrganization } from '../../commands/organizations';
import type { CrmModels } from '../../models';
import type { ContactDoc } from '../../models/contact';
import type { OrganizationDoc } from '../../models/organization';
import { authorizeCrm } from '../../policies/crm';
import { presentOrganization, presentOrganizationDetail, presentOrganizationListItem } from '../../presenters/organization';

export function organizationsRouter(service: ServiceContext, models: CrmModels): Router {
  const router = new Router({ prefix: '/api/organizations' });
  const { authenticate, audit } = service;

  router.get('/', authenticate, authorizeCrm, async (ctx) => {
    const { page, limit, search, status } = parse(organizationListQuerySchema, ctx.query);
    const filter: Record<string, unknown> = {};
    if (status) filter.status = status;
    if (search) {
      const pattern = new RegExp(escapeRegExp(search), 'i');
      filter.$or = [{ name: pattern }, { inn: pattern }];
    }
    const [rows, total] = await Promise.all([
      models.organizations
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip(pageOffset({ page, limit }))
        .limit(limit)
        .lean<OrganizationDoc[]>(),
      models.organizations.countDocuments(filter),
    ]);
    const counts = new Map<string, number>();
    if (rows.length) {
      const grouped = await models.contacts.aggregate<{ _id: Types.ObjectId; count: number }>([
        { $match: { orgId: op({ $in: rows.map((o) => o._id) }) } },
        { $group: { _id: '$orgId', count: { $sum: 1 } } },
      ]);
      for (const g of grouped) counts.set(String(g._id), g.count);
    }
    const body: Page<OrganizationListItem> = {
      data: rows.map((o) => presentOrganizationListItem(o, counts.get(String(o._id)) ?? 0)),
      total,
      page,
      limit,
    };
    ctx.body = body;
  });

  router.get('/:id', authenticate, authorizeCrm, async (ctx) => {
    const org = await loadOrganization(models, ctx.params.id);
    const contacts = await models.contacts.find({ orgId: org._id }).sort({ createdAt: 1, _id: 1 }).lean<ContactDoc[]>();
    ctx.set('ETag', versionTag(org.version ?? 0));
    ctx.body = presentOrganizationDetail(org, contacts);
  });

  router.post('/', authenticate, authorizeCrm, async (ctx) => {
    const input = parse(organizationCreateSchema, ctx.request.body);
    const org = await createOrganization({ models, audit, actor: ctx.state.user }, input);
    ctx.status = 201;
    ctx.body = presentOrganizationListItem(org, 0);
  });

  router.patch('/:id', authenticate, authorizeCrm, async (ctx) => {
    const expected = takeExpectedVersion(ctx);
    const input = parse(organizationUpdateSchema, ctx.request.body);
    const org = await updateOrganization({ models, audit, actor: ctx.state.user }, ctx.params.id, input, expected);
    ctx.body = presentOrganization(org);
  });

  router.delete('/:id', authenticate, authorizeCrm, async (ctx) => {
    await deleteOrganization({ models, audit, actor: ctx.state.user }, ctx.params.id);
    ctx.status = 204;
  });

  return router;
}
