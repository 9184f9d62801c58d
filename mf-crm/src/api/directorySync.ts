import type {
  DirectoryConfig,
  DirectoryOutcome,
  DirectoryPersonOutcome,
  DirectoryRun,
  DirectoryRunMode,
} from '@portal/contracts';
import { apiRequest } from '@portal/web-core';
import { fetchPage } from '@portal/web-core/lists';

export const directoryKeys = {
  all: ['directory-sync'] as const,
  config: ['directory-sync', 'config'] as const,
  runs: (page: number) => ['directory-sync', 'runs', page] as const,
  people: (runId: string, page: number, outcome: DirectoryOutcome | '') =>
    ['directory-sync', 'people', runId, page, outcome] as const,
};

export const RUNS_PAGE_SIZE = 10;
export const PEOPLE_PAGE_SIZE = 50;

/** The sync's settings as the server shows them (never the bind password). */
export const fetchDirectoryConfig = (signal?: AbortSignal) => apiRequest<DirectoryConfig>('/directory/config', { signal });

/** The runs, the newest first. */
export const fetchDirectoryRuns = (page: number, signal?: AbortSignal) =>
  fetchPage<DirectoryRun>('/directory/runs', { page, limit: RUNS_PAGE_SIZE }, signal);

/** One run's people, in the directory's order, optionally of one outcome. */
export const fetchRunPeople = (runId: string, page: number, outcome: DirectoryOutcome | '', signal?: AbortSignal) =>
  fetchPage<DirectoryPersonOutcome>(
    `/directory/runs/${encodeURIComponent(runId)}/people`,
    { page, limit: PEOPLE_PAGE_SIZE, outcome },
    signal,
  );

/** A preview, or an apply (of a preview, recomputed at apply time); queued behind any run going on. */
export const startDirectoryRun = (mode: DirectoryRunMode, previewId?: string) =>
  apiRequest<DirectoryRun>('/directory/runs', { method: 'POST', body: { mode, ...(previewId ? { previewId } : {}) } });
