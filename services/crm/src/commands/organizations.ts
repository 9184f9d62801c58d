import { CRM_MSG, type organizationCreateSchema, type organizationUpdateSchema } from '@portal/contracts';
import { assertVersion, conflict, notFound, op, writeVersioned, type AuditPublisher, type Principal } from '@portal/service-kit';
import type { z } from 'zod';
import type { CrmModels } from '../models';
import type { OrganizationDoc } from '../models/organization';
import { namedFields, objectIdOr404, uniquely } from './ids';

type CreateInput = z.output<typeof organizationCreateSchema>;
type UpdateInput = z.output<typeof organizationUpdateSchema>;

export interface CommandContext {
  models: CrmModels;
  audit: AuditPublisher;
  actor: Principal;
}

/** An organization as the audit trail names it. */
const named = (o: Pick<OrganizationDoc, 'name' | 'inn'>) => ({ name: o.name, inn: o.inn });

/** The card's fields an edit changed, before and after (an emptied field is `to: null`). */
function changesOf(before: OrganizationDoc, after: OrganizationDoc) {
  const changed = (field: 'name' | 'inn' | 'kpp' | 'ogrn' | 'site') => {
    const [from, to] = [before[field] ?? null, after[field] ?? null];
    return from !== to ? { [field]: { from, to } } : {};
  };
  return {
    ...changed('name'),
    ...changed('inn'),
    ...changed('kpp'),
    ...changed('ogrn'),
    ...changed('site'),
    ...(before.status !== after.status ? { status: { from: before.status, to: after.status } } : {}),
  };
}

const innTaken = () => conflict(CRM_MSG.innTaken, 'inn');

async function ensureInnFree(models: CrmModels, inn: string, except?: OrganizationDoc['_id']): Promise<void> {
  const filter = except ? { inn, _id: op({ $ne: except }) } : { inn };
  if (await models.organizations.exists(filter)) throw innTaken();
}

export async function loadOrganization(models: CrmModels, id: string): Promise<OrganizationDoc> {
  const org = await models.organizations.findById(objectIdOr404(id, CRM_MSG.orgNotFound)).lean<OrganizationDoc>();
  if (!org) throw notFound(CRM_MSG.orgNotFound);
  return org;
}

export async function createOrganization({ models, audit, actor }: CommandContext, input: CreateInput): Promise<OrganizationDoc> {
  await ensureInnFree(models, input.inn);
  const org = await uniquely(async () => (await models.organizations.create(input)).toObject<OrganizationDoc>(), innTaken);
  audit.publish({ code: 'organization.created', data: named(org), entityId: String(org._id), actor });
  return org;
}

export async function updateOrganization(
  { models, audit, actor }: CommandContext,
  id: string,
  input: UpdateInput,
  expected?: number[],
): Promise<OrganizationDoc> {
  const before = await loadOrganization(models, id);
  assertVersion(before, expected);
  const changes = namedFields<OrganizationDoc>(input);
  if (changes.inn !== undefined && changes.inn !== before.inn) await ensureInnFree(models, changes.inn, before._id);
  const write = () => writeVersioned(models.organizations, before, expected, { $set: changes }, { runValidators: true });
  if (!(await uniquely(write, innTaken))) throw notFound(CRM_MSG.orgNotFound);
  const after = await loadOrganization(models, id);
  audit.publish({
    code: 'organization.updated',
    data: { ...named(after), changes: changesOf(before, after) },
    entityId: String(after._id),
    actor,
  });
  return after;
}

/**
 * Deletes an organization together with its contacts (a contact belongs to exactly one
 * organization and means nothing without it). The organization goes first, so a failure half-way
 * leaves only unreachable contacts, which `removeOrphanContacts` sweeps at the next start.
 */
export async function deleteOrganization(
  { models, audit, actor }: CommandContext,
  id: string,
): Promise<{ org: OrganizationDoc; contacts: number }> {
  const org = await loadOrganization(models, id);
  const { deletedCount } = await models.organizations.deleteOne({ _id: org._id });
  if (!deletedCount) throw notFound(CRM_MSG.orgNotFound); // someone else deleted it a moment ago
  const removed = await models.contacts.deleteMany({ orgId: org._id });
  audit.publish({
    code: 'organization.deleted',
    data: { ...named(org), contacts: removed.deletedCount },
    entityId: String(org._id),
    actor,
  });
  return { org, contacts: removed.deletedCount };
}
