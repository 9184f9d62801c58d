import { CRM_MSG, type contactCreateSchema, type contactUpdateSchema } from '@portal/contracts';
import { assertVersion, conflict, notFound, op, writeVersioned, type Logger } from '@portal/service-kit';
import type { Types } from 'mongoose';
import type { z } from 'zod';
import type { CrmModels } from '../models';
import type { ContactDoc } from '../models/contact';
import { namedFields, objectIdOr404, uniquely } from './ids';
import { loadOrganization, type CommandContext } from './organizations';

type CreateInput = z.output<typeof contactCreateSchema>;
type UpdateInput = z.output<typeof contactUpdateSchema>;

async function loadContact(models: CrmModels, id: string): Promise<ContactDoc> {
  const contact = await models.contacts.findById(objectIdOr404(id, CRM_MSG.contactNotFound)).lean<ContactDoc>();
  if (!contact) throw notFound(CRM_MSG.contactNotFound);
  return contact;
}

const emailTaken = () => conflict(CRM_MSG.contactEmailTaken, 'email');

async function ensureEmailFree(models: CrmModels, orgId: Types.ObjectId, email: string, except?: Types.ObjectId): Promise<void> {
  const filter = except ? { orgId, email, _id: op({ $ne: except }) } : { orgId, email };
  if (await models.contacts.exists(filter)) throw emailTaken();
}

export async function createContact({ models, audit, actor }: CommandContext, input: CreateInput): Promise<ContactDoc> {
  const org = await loadOrganization(models, input.orgId);
  await ensureEmailFree(models, org._id, input.email);
  const contact = await uniquely(
    async () => (await models.contacts.create({ ...input, orgId: org._id })).toObject<ContactDoc>(),
    emailTaken,
  );
  // Without transactions: if the organization was deleted meanwhile, take the contact back.
  if (!(await models.organizations.exists({ _id: org._id }))) {
    await models.contacts.deleteOne({ _id: contact._id });
    throw notFound(CRM_MSG.orgNotFound);
  }
  audit.publish({
    code: 'contact.created',
    data: { fullName: contact.fullName, email: contact.email, organization: org.name },
    entityId: String(contact._id),
    actor,
  });
  return contact;
}

export async function updateContact(
  { models, audit, actor }: CommandContext,
  id: string,
  input: UpdateInput,
  expected?: number[],
): Promise<ContactDoc> {
  const before = await loadContact(models, id);
  assertVersion(before, expected);
  const changes = namedFields<ContactDoc>(input);
  if (changes.email !== undefined && changes.email !== before.email)
    await ensureEmailFree(models, before.orgId, changes.email, before._id);
  const write = () => writeVersioned(models.contacts, before, expected, { $set: changes }, { runValidators: true });
  if (!(await uniquely(write, emailTaken))) throw notFound(CRM_MSG.contactNotFound);
  const after = await loadContact(models, id);
  audit.publish({ code: 'contact.updated', data: { fullName: after.fullName, email: after.email }, entityId: id, actor });
  return after;
}

export async function deleteContact({ models, audit, actor }: CommandContext, id: string): Promise<ContactDoc> {
  const contact = await loadContact(models, id);
  const { deletedCount } = await models.contacts.deleteOne({ _id: contact._id });
  if (!deletedCount) throw notFound(CRM_MSG.contactNotFound);
  audit.publish({ code: 'contact.deleted', data: { fullName: contact.fullName, email: contact.email }, entityId: id, actor });
  return contact;
}

/** Contacts whose organization is gone (an interrupted cascade); run at start. Ids are never reused. */
export async function removeOrphanContacts(models: CrmModels, logger: Logger): Promise<number> {
  const orgIds = await models.contacts.distinct('orgId');
  if (!orgIds.length) return 0;
  const existing = new Set(
    (await models.organizations.find({ _id: op({ $in: orgIds }) }, { _id: 1 }).lean<{ _id: Types.ObjectId }[]>()).map((o) =>
      String(o._id),
    ),
  );
  const missing = orgIds.filter((id) => !existing.has(String(id)));
  if (!missing.length) return 0;
  const { deletedCount } = await models.contacts.deleteMany({ orgId: op({ $in: missing }) });
  logger.warn({ deletedCount }, 'removed contacts of deleted organizations');
  return deletedCount;
}
