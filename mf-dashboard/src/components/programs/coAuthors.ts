import type { User } from '@portal/contracts';
import { fetchPage } from '@portal/web-core/lists';

/** What the program editor's «Соавторы» reads from the directory: the curators one may add. */

export const CURATORS_PAGE_SIZE = 8;

export const coAuthorKeys = {
  curators: (search: string, page: number) => ['programs', 'curators', search, page] as const,
};

/** Curators found by name, email or department: only a CURATOR may co-author a program. */
export const fetchCurators = (search: string, page: number, signal?: AbortSignal) =>
  fetchPage<User>('/users', { search, role: 'CURATOR', page, limit: CURATORS_PAGE_SIZE }, signal);
