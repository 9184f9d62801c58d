import { exportFileName, type ExportFile, type ExportFormat, type Page } from '@portal/contracts';
// The shared client, not a copy: this entry is bundled by each remote that uses it.
import { apiRequest, downloadFile, readerTimeZone, type RequestOptions } from '@portal/web-core';

/** A list's filters, sent in the query; an empty one ('' or undefined) is not sent: it means «any». */
export type ListFilters = NonNullable<RequestOptions['query']>;

/** One page of a list the server pages: `limit` rows of page `page`, as the filters select them. */
export const fetchPage = <T>(path: string, query: { page: number; limit: number } & ListFilters, signal?: AbortSignal) =>
  apiRequest<Page<T>>(path, { query, signal });

/** A list's export, CSV or XLSX, as its filters select it; the times in it are the reader's (tz). */
export const downloadExport = (path: string, file: ExportFile, format: ExportFormat, filters: ListFilters = {}) =>
  downloadFile(path, exportFileName(file, format), { query: { ...filters, format, tz: readerTimeZone() } });
