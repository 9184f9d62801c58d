import type {
  Contact,
  ContactCreateInput,
  ContactUpdateInput,
  ExportFormat,
  Organization,
  OrganizationCreateInput,
  OrganizationDetail,
  OrganizationListItem,
  OrganizationUpdateInput,
} from '@portal/contracts';
import { apiRequest } from '@portal/web-core';
import { downloadExport, fetchPage } from '@portal/web-core/lists';

/** Query keys: every CRM list and record sits under one root, so a mutation can refresh them all. */
export const crmKeys = {
  all: ['crm'] as const,
  organizations: (params: { search: string; page: number }) => ['crm', 'organizations', params] as const,
  organization: (id: string) => ['crm', 'organization', id] as const,
};

export const ORG_PAGE_SIZE = 24;

export const listOrganizations = ({ search, page }: { search: string; page: number }, signal?: AbortSignal) =>
  fetchPage<OrganizationListItem>('/organizations', { page, limit: ORG_PAGE_SIZE, search }, signal);

/** organizations.csv or .xlsx: the organizations the search selects, with their contacts. */
export const downloadOrganizations = (search: string, format: ExportFormat) =>
  downloadExport('/organizations/export', 'organizations', format, { search });

export const getOrganization = (id: string, signal?: AbortSignal) =>
  apiRequest<OrganizationDetail>(`/organizations/${encodeURIComponent(id)}`, { signal });

export const createOrganization = (input: OrganizationCreateInput) =>
  apiRequest<OrganizationListItem>('/organizations', { method: 'POST', body: input });

/** Writes send the version the form was opened with: 412 «Документ изменён другим пользователем» when stale. */
export const updateOrganization = (id: string, input: OrganizationUpdateInput, version: number) =>
  apiRequest<Organization>(`/organizations/${encodeURIComponent(id)}`, { method: 'PATCH', body: { ...input, version } });

export const deleteOrganization = (id: string) =>
  apiRequest<void>(`/organizations/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const createContact = (input: ContactCreateInput) => apiRequest<Contact>('/contacts', { method: 'POST', body: input });

export const updateContact = (id: string, input: ContactUpdateInput, version: number) =>
  apiRequest<Contact>(`/contacts/${encodeURIComponent(id)}`, { method: 'PATCH', body: { ...input, version } });

export const deleteContact = (id: string) => apiRequest<void>(`/contacts/${encodeURIComponent(id)}`, { method: 'DELETE' });
