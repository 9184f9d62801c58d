import type {
  BlockRecord,
  CourseVersionSummary,
  DraftState,
  Page,
  PublishVersionInput,
  VersionDiff,
  VersionOutline,
} from '@portal/contracts';
import { apiRequest as webApiRequest } from '@portal/web-core';
import type { ApiCall } from './content';

const id = (value: string) => encodeURIComponent(value);

/** How many versions a page of «История версий» holds. */
export const VERSIONS_PAGE_SIZE = 20;

/** Everything the editor caches about a course's versions, under one prefix to read again at once. */
export const versionsKey = (courseId: string) => ['editor', 'versions', courseId] as const;
export const draftKey = (courseId: string) => [...versionsKey(courseId), 'draft'] as const;

/**
 * A course's draft and published versions (docs/decisions/093). Not part of the EditorBackend: the
 * demo course has no learners, so it never has versions.
 */
export function createVersionsApi(apiRequest: ApiCall) {
  const course = (courseId: string) => `/courses/${id(courseId)}`;
  return {
    draft: (courseId: string, signal?: AbortSignal) => apiRequest<DraftState>(`${course(courseId)}/draft`, { signal }),
    publish: (courseId: string, input: PublishVersionInput) =>
      apiRequest<CourseVersionSummary>(`${course(courseId)}/versions`, { method: 'POST', body: input }),
    discard: (courseId: string, basedOn: number | null) =>
      apiRequest<DraftState>(`${course(courseId)}/draft/discard`, { method: 'POST', body: { basedOn } }),
    list: (courseId: string, page: number, signal?: AbortSignal) =>
      apiRequest<Page<CourseVersionSummary>>(`${course(courseId)}/versions`, {
        query: { page, limit: VERSIONS_PAGE_SIZE },
        signal,
      }),
    outline: (courseId: string, number: number, signal?: AbortSignal) =>
      apiRequest<VersionOutline>(`${course(courseId)}/versions/${number}`, { signal }),
    lesson: (courseId: string, number: number, lessonId: string, signal?: AbortSignal) =>
      apiRequest<BlockRecord>(`${course(courseId)}/versions/${number}/lessons/${id(lessonId)}`, { signal }),
    compare: (courseId: string, from: number, to: number, signal?: AbortSignal) =>
      apiRequest<VersionDiff>(`${course(courseId)}/versions/compare`, { query: { from, to }, signal }),
    restore: (courseId: string, number: number) =>
      apiRequest<DraftState>(`${course(courseId)}/versions/${number}/restore`, { method: 'POST' }),
    prune: (courseId: string, keep: number) =>
      apiRequest<{ removed: number[] }>(`${course(courseId)}/versions/prune`, { method: 'POST', body: { keep } }),
  };
}

export type VersionsApi = ReturnType<typeof createVersionsApi>;

export const versionsApi: VersionsApi = createVersionsApi(webApiRequest);
