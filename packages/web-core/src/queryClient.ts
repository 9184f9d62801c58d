/**
 * `@portal/web-core/query`: the page's one query cache and the hooks on it, apart from the rest of
 * the web core, so a page without server lists (the landing for a visitor) loads no TanStack Query.
 * Federation shares it as a singleton of its own beside `@portal/web-core`.
 */
import { QueryClient, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { GenerationJob } from '@portal/contracts';
// Through the package's name, not './api': this entry is a shared module of its own, and a copy of
// the API client here would be another ApiError class.
import { ApiError } from '@portal/web-core';

/** One query cache for the page (the spec's call rules: retry once, no refetch on window focus). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: 0 },
  },
});

/**
 * Reads again every query under the given keys, after a write that touches them (a list, its count,
 * a card). A query still on its first read is stopped first: TanStack Query's invalidation lets a
 * read that has no answer yet run on, so a search typed just before a delete would keep the answer
 * its server gave before the delete (the deleted organization on screen, with no way to tell).
 */
export async function readAgain(client: QueryClient, ...keys: QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => client.cancelQueries({ queryKey })));
  await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

/** `readAgain` on the page's query cache. */
export function useReadAgain(): (...keys: QueryKey[]) => Promise<void> {
  const client = useQueryClient();
  return (...keys) => readAgain(client, ...keys);
}

/** How often a running course-builder job is asked for (GET /api/generations/{id}). */
export const GENERATION_POLL_MS = 700;

/**
 * Polls a course-builder job while it runs (the course list's dialog and the editor's regeneration
 * share it). A 404 means the job was lost with a restarted content service: said at once, not retried.
 */
export function useGenerationJobPoll(
  jobId: string | null,
  fetchJob: (id: string, signal?: AbortSignal) => Promise<GenerationJob>,
) {
  return useQuery({
    queryKey: ['generations', 'job', jobId],
    queryFn: ({ signal }) => fetchJob(jobId as string, signal),
    enabled: jobId !== null,
    refetchInterval: (query) => (!query.state.data || query.state.data.status === 'running' ? GENERATION_POLL_MS : false),
    refetchIntervalInBackground: true,
    staleTime: 0,
    gcTime: 0,
    retry: (count, err) => !(err instanceof ApiError && err.status === 404) && count < 2,
  });
}
