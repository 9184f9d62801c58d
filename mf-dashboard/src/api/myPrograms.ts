import type { MyProgram, MyProgramSummary } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';
import { fetchPage } from '@portal/web-core/lists';

/** A learner's own programs: the dashboard's card, /my-programs and one program's page. */
export const myProgramKeys = {
  all: ['programs', 'my'] as const,
  list: (page: number, limit: number) => ['programs', 'my', 'list', page, limit] as const,
  one: (assignmentId: string) => ['programs', 'my', 'one', assignmentId] as const,
};

export const MY_PROGRAMS_PAGE_SIZE = 20;
/** How many programs the dashboard's card shows; «Все программы» opens the rest. */
export const MY_PROGRAMS_ON_DASHBOARD = 5;

export const fetchMyPrograms = (page: number, limit: number, signal?: AbortSignal) =>
  fetchPage<MyProgramSummary>('/programs/my', { page, limit }, signal);

export const fetchMyProgram = (assignmentId: string, signal?: AbortSignal) =>
  apiRequest<MyProgram>(`/programs/my/${encodeURIComponent(assignmentId)}`, { signal });
