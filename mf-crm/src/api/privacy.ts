import type { SubjectRequest, SubjectRequestKind, SubjectRequestStatus } from '@portal/contracts';
import { apiRequest, downloadFile, readerTimeZone } from '@portal/web-core';
import { fetchPage } from '@portal/web-core/lists';

export const subjectKeys = {
  all: ['subject-requests'] as const,
  page: (page: number, status: SubjectRequestStatus | '') => ['subject-requests', page, status] as const,
};

export const SUBJECT_PAGE_SIZE = 20;

/** The data-subject requests, the newest first (ADMIN). */
export const fetchSubjectRequests = (page: number, status: SubjectRequestStatus | '', signal?: AbortSignal) =>
  fetchPage<SubjectRequest>('/subject-requests', { page, limit: SUBJECT_PAGE_SIZE, status }, signal);

export const fileSubjectRequest = (userId: string, kind: SubjectRequestKind) =>
  apiRequest<SubjectRequest>('/subject-requests', { method: 'POST', body: { userId, kind } });

/** Everything the portal holds about the person, as JSON, XLSX or CSV (carried out by the gateway). */
export const downloadSubjectExport = (request: SubjectRequest, format: 'json' | 'xlsx' | 'csv') =>
  downloadFile(`/subject-requests/${encodeURIComponent(request.id)}/export`, `personal-data-${request.user.id}.${format}`, {
    query: { format, tz: readerTimeZone() },
  });

/** Every service forgets the person; the answer is the request, done, with its act. */
export const anonymiseSubject = (request: SubjectRequest) =>
  apiRequest<SubjectRequest>(`/subject-requests/${encodeURIComponent(request.id)}/anonymise`, { method: 'POST' });

export const downloadAct = (request: SubjectRequest) =>
  downloadFile(`/subject-requests/${encodeURIComponent(request.id)}/act`, `act-${request.id}.pdf`);
