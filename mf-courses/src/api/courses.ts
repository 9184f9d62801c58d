import type { Course, CourseCreateInput, CourseListFilter, CourseStatus, CourseSummary } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

export interface CourseListParams {
  search: string;
  status: CourseStatus | 'all';
  filter: CourseListFilter;
}

/** Every query of the course list starts with this key, so one invalidation refreshes them all. */
export const COURSES_KEY = ['courses'] as const;
export const courseListKey = (params: CourseListParams) => [...COURSES_KEY, 'list', params] as const;

export const fetchCourses = ({ search, status, filter }: CourseListParams, signal?: AbortSignal) =>
  apiRequest<CourseSummary[]>('/courses', {
    query: {
      search: search.trim() || undefined,
      status: status === 'all' ? undefined : status,
      filter: filter === 'all' ? undefined : filter,
    },
    signal,
  });

export const createCourse = (input: CourseCreateInput) => apiRequest<Course>('/courses', { method: 'POST', body: input });
export const deleteCourse = (id: string) => apiRequest<void>(`/courses/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const copyCourse = (id: string) => apiRequest<Course>(`/courses/${encodeURIComponent(id)}/copy`, { method: 'POST' });
export const setFavorite = (id: string, favorite: boolean) =>
  apiRequest<CourseSummary>(`/courses/${encodeURIComponent(id)}/favorite`, { method: favorite ? 'POST' : 'DELETE' });
export const startCourse = (id: string) =>
  apiRequest<CourseSummary>(`/courses/${encodeURIComponent(id)}/start`, { method: 'POST' });
