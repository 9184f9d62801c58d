import type {
  ExportFormat,
  Program,
  ProgramAssignment,
  ProgramAssignmentCreateInput,
  ProgramExtendInput,
  ProgramInput,
  ProgramPerson,
  ProgramPersonDetail,
  ProgramPersonStatus,
  ProgramReport,
  ProgramStatus,
  ProgramSummary,
  ProgramTemplate,
} from '@portal/contracts';
import { apiRequest, downloadFile, readerTimeZone } from '@portal/web-core';
import { fetchPage } from '@portal/web-core/lists';

/** The staff side of learning programs: the programs, their templates, assignments and reports. */

export const PROGRAMS_PAGE_SIZE = 20;
export const PROGRAM_ASSIGNMENTS_PAGE_SIZE = 20;
export const PROGRAM_PEOPLE_PAGE_SIZE = 50;

/** The report's filters as the address keeps them ('' for any). */
export interface ProgramPeopleFilters {
  department: string;
  status: ProgramPersonStatus | '';
}

export const programKeys = {
  all: ['programs'] as const,
  list: (page: number, search: string, status: ProgramStatus) => ['programs', 'list', page, search, status] as const,
  templates: ['programs', 'templates'] as const,
  one: (id: string) => ['programs', 'one', id] as const,
  assignments: (programId: string, page: number) => ['programs', 'assignments', programId, page] as const,
  assignment: (id: string) => ['programs', 'assignment', id] as const,
  report: (id: string, department: string) => ['programs', 'report', id, department] as const,
  people: (id: string, page: number, filters: ProgramPeopleFilters) => ['programs', 'people', id, page, filters] as const,
  person: (id: string, userId: string) => ['programs', 'person', id, userId] as const,
};

const programPath = (id: string) => `/programs/${encodeURIComponent(id)}`;
const assignmentPath = (id: string) => `/program-assignments/${encodeURIComponent(id)}`;

export const fetchPrograms = (page: number, search: string, status: ProgramStatus, signal?: AbortSignal) =>
  fetchPage<ProgramSummary>('/programs', { page, limit: PROGRAMS_PAGE_SIZE, search, status }, signal);

export const fetchProgramTemplates = (signal?: AbortSignal) => apiRequest<ProgramTemplate[]>('/programs/templates', { signal });

export const copyProgramTemplate = (key: string) =>
  apiRequest<Program>(`/programs/templates/${encodeURIComponent(key)}/copy`, { method: 'POST' });

export const createProgram = (input: ProgramInput) => apiRequest<Program>('/programs', { method: 'POST', body: input });

export const fetchProgram = (id: string, signal?: AbortSignal) => apiRequest<Program>(programPath(id), { signal });

/** `version`: the one the editor read; 412 «Документ изменён другим пользователем» when someone saved in between. */
export const saveProgram = (id: string, input: ProgramInput, version: number) =>
  apiRequest<Program>(programPath(id), { method: 'PUT', body: { ...input, version } });

export const copyProgram = (id: string) => apiRequest<Program>(`${programPath(id)}/copy`, { method: 'POST' });
export const archiveProgram = (id: string) => apiRequest<Program>(`${programPath(id)}/archive`, { method: 'POST' });
export const restoreProgram = (id: string) => apiRequest<Program>(`${programPath(id)}/restore`, { method: 'POST' });

export const fetchProgramAssignments = (programId: string, page: number, signal?: AbortSignal) =>
  fetchPage<ProgramAssignment>('/program-assignments', { programId, page, limit: PROGRAM_ASSIGNMENTS_PAGE_SIZE }, signal);

export const createProgramAssignment = (input: ProgramAssignmentCreateInput) =>
  apiRequest<ProgramAssignment>('/program-assignments', { method: 'POST', body: input });

export const fetchProgramAssignment = (id: string, signal?: AbortSignal) =>
  apiRequest<ProgramAssignment>(assignmentPath(id), { signal });

export const deleteProgramAssignment = (id: string) => apiRequest<void>(assignmentPath(id), { method: 'DELETE' });

export const fetchProgramReport = (id: string, department: string, signal?: AbortSignal) =>
  apiRequest<ProgramReport>(`${assignmentPath(id)}/report`, { query: { department }, signal });

export const fetchProgramPeople = (id: string, page: number, filters: ProgramPeopleFilters, signal?: AbortSignal) =>
  fetchPage<ProgramPerson>(`${assignmentPath(id)}/people`, { page, limit: PROGRAM_PEOPLE_PAGE_SIZE, ...filters }, signal);

export const fetchProgramPerson = (id: string, userId: string, signal?: AbortSignal) =>
  apiRequest<ProgramPersonDetail>(`${assignmentPath(id)}/people/${encodeURIComponent(userId)}`, { signal });

export const extendProgramStage = (id: string, input: ProgramExtendInput) =>
  apiRequest<ProgramPersonDetail>(`${assignmentPath(id)}/extend`, { method: 'POST', body: input });

/**
 * program_report.csv or .xlsx: the people as the filters select them. The contracts' export file names
 * have no entry for programs yet, so the name is given here (downloadExport takes only those names).
 */
export const downloadProgramReport = (id: string, format: ExportFormat, filters: ProgramPeopleFilters) =>
  downloadFile(`${assignmentPath(id)}/export`, `program_report.${format}`, {
    query: { ...filters, format, tz: readerTimeZone() },
  });
