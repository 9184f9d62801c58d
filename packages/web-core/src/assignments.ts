import { certificatePdfPath, type Certificate, type MyAssignment, type Page, ruCount, ruForm } from '@portal/contracts';
// The shared client, not a copy: this entry is bundled by each remote that uses it.
import { apiRequest, downloadFile } from '@portal/web-core';

/**
 * The learner's assignments and certificates, read by the dashboard, the catalogue and study mode:
 * one client for the three remotes.
 */

/** «1 день», «3 дня», «11 дней». */
export const daysText = (n: number): string => ruCount(n, { one: 'день', few: 'дня', many: 'дней' });

/** «Остался 1 день», «Осталось 5 дней», «Последний день», «Просрочено на 2 дня»; «Завершён» once done. */
export function daysLeftText(a: Pick<MyAssignment, 'status' | 'daysLeft'>): string {
  if (a.status === 'completed') return 'Завершён';
  if (a.daysLeft < 0) return `Просрочено на ${daysText(-a.daysLeft)}`;
  if (a.daysLeft === 0) return 'Последний день';
  return `${ruForm(a.daysLeft, { one: 'Остался', few: 'Осталось', many: 'Осталось' })} ${daysText(a.daysLeft)}`;
}

/** «31.12.2026» from a YYYY-MM-DD day (no time zone shift: it is a calendar day). */
export const formatDay = (day: string): string => day.split('-').reverse().join('.');

export const assignmentKeys = {
  all: ['assignments'] as const,
  mine: (page: number, courseId?: string) => ['assignments', 'my', page, courseId ?? ''] as const,
};

export const fetchMyAssignments = (
  { page = 1, limit = 20, courseId }: { page?: number; limit?: number; courseId?: string },
  signal?: AbortSignal,
) => apiRequest<Page<MyAssignment>>('/assignments/my', { query: { page, limit, courseId }, signal });

/** The certificate of a completed course: issued on the first call, the same one after. */
export const requestCertificate = (courseId: string) =>
  apiRequest<Certificate>('/certificates', { method: 'POST', body: { courseId } });

export const downloadCertificate = (number: string) =>
  downloadFile(certificatePdfPath(number).replace(/^\/api/, ''), `certificate-${number}.pdf`);
