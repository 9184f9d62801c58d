import {
  COURSE_PAGE_SIZE,
  TOTAL_COUNT_HEADER,
  type Course,
  type CourseCreateInput,
  type CourseListFilter,
  type CourseStatus,
  type CourseSummary,
  type Page,
} from '@portal/contracts';
import { apiRequest, apiResponse } from '@portal/web-core';

/** The catalogue's filters, and «Мои назначения» (`assigned`), which lists the learner's assignments instead. */
export type CourseListView = CourseListFilter | 'assigned';

export interface CourseListParams {
  search: string;
  status: CourseStatus | 'all';
  filter: CourseListView;
  page: number;
}

/** Every query of the course list starts with this key, so one invalidation refreshes them all. */
export const COURSES_KEY = ['courses'] as const;
export const courseListKey = (params: CourseListParams) => [...COURSES_KEY, 'list', params] as const;

/** One page of GET /courses: the spec's array, with the total from its header. */
export async function fetchCourses(
  { search, status, filter, page }: CourseListParams,
  signal?: AbortSignal,
): Promise<Page<CourseSummary>> {
  const { body, headers } = await apiResponse<CourseSummary[]>('/courses', {
    query: {
      search: search.trim() || undefined,
      status: status === 'all' ? undefined : status,
      filter: filter === 'all' || filter === 'assigned' ? undefined : filter,
      page: page > 1 ? page : undefined,
      limit: COURSE_PAGE_SIZE,
    },
    signal,
  });
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return { data: body, total: Number.isFinite(total) ? total : body.length, page, limit: COURSE_PAGE_SIZE };
}

export const createCourse = (input: CourseCreateInput) => apiRequest<Course>('/courses', { method: 'POST', body: input });
/** Deleted: nothing comes back. A curator's course learners worked in is archived instead, and says so. */
export type DeleteAnswer = { archived: true; message: string; course: CourseSummary } | undefined;
export const deleteCourse = (id: string) => apiRequest<DeleteAnswer>(`/courses/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const copyCourse = (id: string) => apiRequest<Course>(`/courses/${encodeURIComponent(id)}/copy`, { method: 'POST' });
export const setFavorite = (id: string, favorite: boolean) =>
  apiRequest<CourseSummary>(`/courses/${encodeURIComponent(id)}/favorite`, { method: favorite ? 'POST' : 'DELETE' });
export const startCourse = (id: string) =>
  apiRequest<CourseSummary>(`/courses/${encodeURIComponent(id)}/start`, { method: 'POST' });
