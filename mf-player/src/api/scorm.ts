import type {
  ExportFormat,
  Page,
  ScormAttemptOpenInput,
  ScormAttemptState,
  ScormAttemptSummary,
  ScormLaunch,
  ScormLaunchInput,
} from '@portal/contracts';
import { apiRequest } from '@portal/web-core';
import { downloadExport } from '@portal/web-core/lists';

/** The learner's current attempt at a lesson's SCO (started if there is none; `fresh` starts a new one). */
export const openScormAttempt = (input: ScormAttemptOpenInput) =>
  apiRequest<ScormAttemptState>('/scorm/attempts', { method: 'POST', body: input });

/** The frame's signed address of the lesson's SCO (content service). */
export const launchScorm = (input: ScormLaunchInput) => apiRequest<ScormLaunch>('/scorm/launch', { method: 'POST', body: input });

/** SCORM lessons' attempts the reader may see (their own, their courses', or everyone's), newest first. */
export const fetchScormResults = ({ courseId, page }: { courseId: string; page: number }, signal?: AbortSignal) =>
  apiRequest<Page<ScormAttemptSummary>>('/scorm/attempts', {
    query: { ...(courseId ? { courseId } : {}), page, limit: 20 },
    signal,
  });

/** scorm.csv or .xlsx as the server builds it, for the same course filter. */
export const downloadScormResults = (format: ExportFormat, courseId: string) =>
  downloadExport('/scorm/attempts/export', 'scorm', format, courseId ? { courseId } : {});
