import {
  type Assignment,
  type AssignmentCreateInput,
  type AssignmentExtendInput,
  type AssignmentPerson,
  type CourseSummary,
  type Page,
} from '@portal/contracts';
import { apiRequest, apiResponse } from '@portal/web-core';

export const assignmentKeys = {
  all: ['assignments'] as const,
  list: (page: number) => ['assignments', 'list', page] as const,
  one: (id: string) => ['assignments', 'one', id] as const,
  people: (id: string, page: number) => ['assignments', 'people', id, page] as const,
  courses: ['assignments', 'published-courses'] as const,
};

export const ASSIGNMENTS_PAGE_SIZE = 20;
export const PEOPLE_PAGE_SIZE = 50;

export const fetchAssignments = (page: number, signal?: AbortSignal) =>
  apiRequest<Page<Assignment>>('/assignments', { query: { page, limit: ASSIGNMENTS_PAGE_SIZE }, signal });

export const fetchAssignment = (id: string, signal?: AbortSignal) =>
  apiRequest<Assignment>(`/assignments/${encodeURIComponent(id)}`, { signal });

export const fetchAssignmentPeople = (id: string, page: number, signal?: AbortSignal) =>
  apiRequest<Page<AssignmentPerson>>(`/assignments/${encodeURIComponent(id)}/people`, {
    query: { page, limit: PEOPLE_PAGE_SIZE },
    signal,
  });

export const createAssignment = (input: AssignmentCreateInput) =>
  apiRequest<Assignment>('/assignments', { method: 'POST', body: input });

export const extendAssignment = (id: string, input: AssignmentExtendInput) =>
  apiRequest<Assignment>(`/assignments/${encodeURIComponent(id)}/extend`, { method: 'POST', body: input });

/** The published courses a curator may assign (the first hundred, newest first). */
export async function fetchPublishedCourses(signal?: AbortSignal): Promise<CourseSummary[]> {
  return (await apiResponse<CourseSummary[]>('/courses', { query: { status: 'published', limit: 100 }, signal })).body;
}
