import type {
  Assignment,
  AssignmentCreateInput,
  AssignmentExtendInput,
  AssignmentPerson,
  AssignmentReport,
  AssignmentStatus,
  CourseSummary,
  Department,
  ExportFormat,
  PersonAssignments,
  User,
} from '@portal/contracts';
import { apiRequest, apiResponse } from '@portal/web-core';
import { downloadExport, fetchPage } from '@portal/web-core/lists';

export const assignmentKeys = {
  all: ['assignments'] as const,
  list: (page: number, filters: AssignmentFilters) => ['assignments', 'list', page, filters] as const,
  one: (id: string) => ['assignments', 'one', id] as const,
  people: (id: string, page: number, status: AssignmentStatus | '', department = '') =>
    ['assignments', 'people', id, page, status, department] as const,
  report: (id: string, department = '') => ['assignments', 'report', id, department] as const,
  person: (userId: string, page: number) => ['assignments', 'person', userId, page] as const,
  courses: ['assignments', 'published-courses'] as const,
  learners: (search: string, page: number) => ['assignments', 'learners', search, page] as const,
  departments: (search: string) => ['assignments', 'departments', search] as const,
};

export const ASSIGNMENTS_PAGE_SIZE = 20;
export const PEOPLE_PAGE_SIZE = 50;

/** The staff list's filters: a course, and the period the due day falls in ('' for none). */
export interface AssignmentFilters {
  courseId: string;
  dueFrom: string;
  dueTo: string;
}

export const fetchAssignments = (page: number, filters: AssignmentFilters, signal?: AbortSignal) =>
  fetchPage<Assignment>('/assignments', { page, limit: ASSIGNMENTS_PAGE_SIZE, ...filters }, signal);

export const fetchAssignment = (id: string, signal?: AbortSignal) =>
  apiRequest<Assignment>(`/assignments/${encodeURIComponent(id)}`, { signal });

export const fetchAssignmentPeople = (
  id: string,
  page: number,
  status: AssignmentStatus | '',
  signal?: AbortSignal,
  department = '',
) =>
  fetchPage<AssignmentPerson>(
    `/assignments/${encodeURIComponent(id)}/people`,
    { page, limit: PEOPLE_PAGE_SIZE, status, department },
    signal,
  );

export const fetchAssignmentReport = (id: string, signal?: AbortSignal, department = '') =>
  apiRequest<AssignmentReport>(`/assignments/${encodeURIComponent(id)}/report`, { query: { department }, signal });

/** assignment_report.csv or .xlsx: the people as the status and department filters select them. */
export const downloadAssignmentReport = (id: string, format: ExportFormat, status: AssignmentStatus | '', department = '') =>
  downloadExport(`/assignments/${encodeURIComponent(id)}/people/export`, 'assignment', format, { status, department });

export const createAssignment = (input: AssignmentCreateInput) =>
  apiRequest<Assignment>('/assignments', { method: 'POST', body: input });

export const extendAssignment = (id: string, input: AssignmentExtendInput) =>
  apiRequest<Assignment>(`/assignments/${encodeURIComponent(id)}/extend`, { method: 'POST', body: input });

/** The published courses a curator may assign (the first hundred, newest first). */
export async function fetchPublishedCourses(signal?: AbortSignal): Promise<CourseSummary[]> {
  return (await apiResponse<CourseSummary[]>('/courses', { query: { status: 'published', limit: 100 }, signal })).body;
}

export const LEARNERS_PAGE_SIZE = 8;
/** The departments a select lists at once; more are found by typing part of the name. */
export const DEPARTMENTS_PAGE_SIZE = 100;

/** The people an assignment can name (learners), found by name, email or department. */
export const fetchLearners = (search: string, page: number, signal?: AbortSignal) =>
  fetchPage<User>('/users', { search, audience: 'learners', page, limit: LEARNERS_PAGE_SIZE }, signal);

/** The departments people are in, by name. */
export const fetchDepartments = (search: string, signal?: AbortSignal) =>
  fetchPage<Department>('/users/departments', { search, page: 1, limit: DEPARTMENTS_PAGE_SIZE }, signal);

export const fetchPersonAssignments = (userId: string, page: number, signal?: AbortSignal) =>
  apiRequest<PersonAssignments>(`/assignments/person/${encodeURIComponent(userId)}`, {
    query: { page, limit: ASSIGNMENTS_PAGE_SIZE },
    signal,
  });
