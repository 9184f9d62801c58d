import type { Page, Role, User, UserUpdateInput } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

export const userKeys = {
  all: ['users'] as const,
  directory: (params: DirectoryParams) => ['users', 'directory', params] as const,
};

/** Spec section 7: the directory asks for page 1 with a limit of 100 (the auth service's maximum). */
export const DIRECTORY_PAGE_SIZE = 100;

export interface DirectoryParams {
  search: string;
  role: Role | '';
  page: number;
}

/** The auth service searches name, email and role (by code or by its Russian label). */
export const fetchDirectory = ({ search, role, page }: DirectoryParams, signal?: AbortSignal): Promise<Page<User>> =>
  apiRequest<Page<User>>('/users', { query: { page, limit: DIRECTORY_PAGE_SIZE, search, role }, signal });

/** `version`: the one the form was opened with (412 «Документ изменён другим пользователем» when stale). */
export const updateUser = (id: string, input: UserUpdateInput, version: number) =>
  apiRequest<User>(`/users/${encodeURIComponent(id)}`, { method: 'PATCH', body: { ...input, version } });
