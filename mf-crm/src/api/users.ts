import type { ExportFormat, Role, RoleApplication, User, UserUpdateInput } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';
import { downloadExport, fetchPage } from '@portal/web-core/lists';

export const userKeys = {
  all: ['users'] as const,
  directory: (params: DirectoryParams) => ['users', 'directory', params] as const,
};

/** The directory asks for page 1 with a limit of 100 (the auth service's maximum). */
export const DIRECTORY_PAGE_SIZE = 100;

export interface DirectoryParams {
  search: string;
  role: Role | '';
  /** Exact department and position ('' for any). */
  department: string;
  position: string;
  page: number;
}

/** The auth service searches name, email and role (by code or by its Russian label). */
export const fetchDirectory = ({ page, ...filters }: DirectoryParams, signal?: AbortSignal) =>
  fetchPage<User>('/users', { page, limit: DIRECTORY_PAGE_SIZE, ...filters }, signal);

/** users.csv or .xlsx: the directory as its search and role filter select it. */
export const downloadDirectory = (filters: Omit<DirectoryParams, 'page'>, format: ExportFormat) =>
  downloadExport('/users/export', 'users', format, filters);

/** `version`: the one the form was opened with (412 «Документ изменён другим пользователем» when stale). */
export const updateUser = (id: string, input: UserUpdateInput, version: number) =>
  apiRequest<User>(`/users/${encodeURIComponent(id)}`, { method: 'PATCH', body: { ...input, version } });

export const applicationKeys = {
  all: ['applications'] as const,
  page: (page: number) => ['applications', 'pending', page] as const,
};

export const APPLICATIONS_PAGE_SIZE = 20;

/** Pending applications for a staff role, the longest waiting first (ADMIN only). */
export const fetchPendingApplications = (page: number, signal?: AbortSignal) =>
  fetchPage<RoleApplication>('/applications', { page, limit: APPLICATIONS_PAGE_SIZE, status: 'pending' }, signal);

export const decideApplication = (id: string, decision: 'approve' | 'decline') =>
  apiRequest<{ application: RoleApplication; user: User; message: string }>(
    `/applications/${encodeURIComponent(id)}/${decision}`,
    { method: 'POST' },
  );
