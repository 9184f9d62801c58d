import type { Contact, Organization, OrganizationDetail, OrganizationListItem } from '@portal/contracts';
import type { ContactDoc } from '../models/contact';
import type { OrganizationDoc } from '../models/organization';

const iso = (d: Date) => new Date(d).toISOString();

/** The only shapes in which CRM records leave the service. */
export const presentOrganization = (o: OrganizationDoc): Organization => ({
  id: String(o._id),
  name: o.name,
  inn: o.inn,
  kpp: o.kpp ?? null,
  ogrn: o.ogrn ?? null,
  site: o.site ?? null,
  status: o.status,
  version: o.version ?? 0,
  createdAt: iso(o.createdAt),
  updatedAt: iso(o.updatedAt),
});

export const presentOrganizationListItem = (o: OrganizationDoc, contacts: number): OrganizationListItem => ({
  ...presentOrganization(o),
  _count: { contacts },
});

export const presentContact = (c: ContactDoc): Contact => ({
  id: String(c._id),
  orgId: String(c.orgId),
  fullName: c.fullName,
  email: c.email,
  phone: c.phone ?? null,
  role: c.role ?? null,
  version: c.version ?? 0,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

export const presentOrganizationDetail = (o: OrganizationDoc, contacts: ContactDoc[]): OrganizationDetail => ({
  ...presentOrganization(o),
  contacts: contacts.map(presentContact),
  _count: { contacts: contacts.length },
});
