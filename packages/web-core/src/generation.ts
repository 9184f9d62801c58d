import { useQuery } from '@tanstack/react-query';
import type { GenerationJob } from '@portal/contracts';
import { ApiError } from './api';

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
