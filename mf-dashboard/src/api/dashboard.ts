import type { AuditListParams, AuditPage, DashboardStats, ExportFormat, ProfileResponse } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';
import { downloadExport } from '@portal/web-core/lists';

/** Every query of this micro-frontend starts with this key. */
export const DASHBOARD_KEY = ['dashboard'] as const;
export const statsKey = (userId: string, tz: string) => [...DASHBOARD_KEY, 'stats', userId, tz] as const;
export const historyKey = (scope: HistoryScope, params: HistoryFilters) => [...DASHBOARD_KEY, 'history', scope, params] as const;

export const fetchStats = (tz: string, signal?: AbortSignal) =>
  apiRequest<DashboardStats>('/dashboard/stats', { query: { tz }, signal });

/** 'all' is the whole trail (ADMIN, CURATOR); 'own' is the reader's own actions. */
export type HistoryScope = 'all' | 'own';

export type HistoryFilters = Pick<AuditListParams, 'search' | 'action' | 'entity' | 'startDate' | 'endDate' | 'sort' | 'tz'>;

export const HISTORY_PAGE_SIZE = 20;

export const fetchHistoryPage = (scope: HistoryScope, filters: HistoryFilters, page: number, signal?: AbortSignal) =>
  apiRequest<AuditPage>(scope === 'all' ? '/audit' : '/audit/my', {
    query: { ...filters, page, limit: HISTORY_PAGE_SIZE },
    signal,
  });

/** audit_history.csv or .xlsx: the history the dialog's filters select, in its order. */
export const downloadHistory = (scope: HistoryScope, filters: HistoryFilters, format: ExportFormat) =>
  downloadExport(scope === 'all' ? '/audit/export' : '/audit/my/export', 'audit', format, filters);

export const profileKey = (userId: string) => [...DASHBOARD_KEY, 'profile', userId] as const;

/** The person and their latest application for a staff role (pending, approved or declined). */
export const fetchProfile = (signal?: AbortSignal) => apiRequest<ProfileResponse>('/auth/profile', { signal });
