import type { Context } from 'koa';
import {
  EXPORT_MAX_ROWS,
  ORGANIZATIONS_EXPORT_HEADER,
  ORG_STATUS_LABELS,
  exportFileName,
  type OrgStatus,
  type OrganizationListItem,
  type Page,
} from '@portal/contracts';
import {
  assertExportable,
  escapeRegExp,
  exportColumns,
  implement,
  op,
  readPage,
  sendExport,
  versionTag,
  VersionedCache,
  type AuditPublisher,
  type DeclaredHandler,
  type ExportCell,
} from '@portal/service-kit';
import type { Types } from 'mongoose';
import { createOrganization, deleteOrganization, loadOrganization, updateOrganization } from '../../commands/organizations';
import type { CrmModels } from '../../models';
import type { ContactDoc } from '../../models/contact';
import { ORGANIZATION_LIST_VERSION, type OrganizationDoc } from '../../models/organization';
import { presentOrganization, presentOrganizationDetail, presentOrganizationListItem } from '../../presenters/organization';
import * as declared from './declarations';

/** The list's filter: a status, and a search in the name or the tax number (any case, taken literally). */
function organizationFilter(search?: string, status?: OrgStatus): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (status) filter.status = status;
  if (search) {
    const pattern = new RegExp(escapeRegExp(search), 'i');
    filter.$or = [{ name: pattern }, { inn: pattern }];
  }
  return filter;
}

/** Organizations whose contacts are read in one query. */
const EXPORT_ORG_BATCH = 200;
/** Widths (characters) of ORGANIZATIONS_EXPORT_HEADER's columns in the XLSX. */
const ORGANIZATION_COLUMN_WIDTHS = [34, 14, 26, 12, 17, 28, 28, 18, 22, 17];

async function* organizationRows(models: CrmModels, organizations: AsyncIterable<OrganizationDoc>): AsyncGenerator<ExportCell[]> {
  let batch: OrganizationDoc[] = [];
  async function* flush(): AsyncGenerator<ExportCell[]> {
    const contacts = await models.contacts
      .find({ orgId: op({ $in: batch.map((o) => o._id) }) })
      .sort({ createdAt: 1, _id: 1 })
      .lean<ContactDoc[]>();
    const byOrg = new Map<string, ContactDoc[]>();
    for (const c of contacts) byOrg.set(String(c.orgId), [...(byOrg.get(String(c.orgId)) ?? []), c]);
    for (const o of batch) {
      const org = [o.name, o.inn, o.site ?? null, ORG_STATUS_LABELS[o.status], o.createdAt];
      const own = byOrg.get(String(o._id)) ?? [];
      if (!own.length) yield [...org, null, null, null, null, null];
      for (const c of own) yield [...org, c.fullName, c.email, c.phone ?? null, c.role ?? null, c.createdAt];
    }
    batch = [];
  }
  for await (const o of organizations) {
    batch.push(o);
    if (batch.length === EXPORT_ORG_BATCH) yield* flush();
  }
  if (batch.length) yield* flush();
}

/**
 * The organizations' public routes, each beside its declaration (`declarations.ts`): the kit has
 * already authenticated, checked the CRM roles and parsed the input when the handler runs.
 */
export function organizationRoutes(models: CrmModels, audit: AuditPublisher): DeclaredHandler[] {
  const deps = (ctx: Context) => ({ models, audit, actor: ctx.state.user });
  // A page of the list is the same for everyone allowed to see it until an organization or a contact
  // is written. Building it reads every organization the filter selects: FerretDB pushes down
  // neither the sort nor the count (docs/FERRETDB.md). So pages are kept, stamped with the list's
  // version (VersionedCache), and a write anywhere in the CRM moves it.
  const pages = new VersionedCache<Page<OrganizationListItem>>(models.organizations.db, ORGANIZATION_LIST_VERSION);

  return [
    implement(declared.listOrganizations, async (_ctx, { query: { page, limit, search, status } }) => {
      const filter = organizationFilter(search, status);
      return pages.get({ filter, page, limit }, async () => {
        const { rows, ...counted } = await readPage(models.organizations, filter, { page, limit }, { createdAt: -1, _id: -1 });
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
          ...counted,
          page,
          limit,
        };
        return body;
      });
    }),

    /**
     * organizations.csv or .xlsx: the organizations the list's search and status select, in its
     * order, one row per contact (an organization without contacts: one row with the contact empty).
     * Organizations are read through one cursor, their contacts per 200 organizations.
     */
    implement(declared.exportOrganizations, async (ctx, { query: { search, status, format, tz }, record }) => {
      const filter = organizationFilter(search, status);
      await assertExportable(models.organizations, filter);
      const cursor = models.organizations
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .limit(EXPORT_MAX_ROWS)
        .lean<OrganizationDoc[]>()
        .cursor({ batchSize: EXPORT_ORG_BATCH });
      sendExport(ctx, format, {
        file: 'organizations',
        sheet: 'Организации',
        columns: exportColumns(ORGANIZATIONS_EXPORT_HEADER, ORGANIZATION_COLUMN_WIDTHS),
        timeZone: tz,
        rows: organizationRows(models, cursor),
      });
      record({ code: 'organizations.exported', data: { file: exportFileName('organizations', format) } });
    }),

    implement(declared.getOrganization, async (ctx, { params, record }) => {
      const org = await loadOrganization(models, params.id);
      const contacts = await models.contacts.find({ orgId: org._id }).sort({ createdAt: 1, _id: 1 }).lean<ContactDoc[]>();
      ctx.set('ETag', versionTag(org.version ?? 0));
      // 152-FZ: the contacts' names, emails and phones are personal data; one record per read of the card.
      if (contacts.length)
        record({
          code: 'organization.contactsViewed',
          data: { name: org.name, contacts: contacts.length },
          entityId: String(org._id),
        });
      return presentOrganizationDetail(org, contacts);
    }),

    // A new organization has no contacts yet.
    implement(declared.createOrganization, async (ctx, { body }) =>
      presentOrganizationListItem(await createOrganization(deps(ctx), body), 0),
    ),
    implement(declared.updateOrganization, async (ctx, { params, body, expected }) =>
      presentOrganization(await updateOrganization(deps(ctx), params.id, body, expected)),
    ),
    implement(declared.deleteOrganization, async (ctx, { params }) => {
      await deleteOrganization(deps(ctx), params.id);
    }),
  ];
}
