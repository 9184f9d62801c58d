import { scormCountsAsCompleted, type ScormAttemptState, type ScormAttemptSummary } from '@portal/contracts';
import type { ExportCell } from '@portal/service-kit';
import type { ScormAttemptDoc } from '../models/scormAttempt';
import { resumes, withEntry } from './cmi';

const treeOf = (cmi: string): Record<string, unknown> | null => {
  if (!cmi) return null;
  const runtimeData = JSON.parse(cmi) as { cmi?: Record<string, unknown> };
  return runtimeData.cmi ?? null;
};

/** What the player launches the SCO with: the stored tree with this launch's entry, for loadFromJSON. */
export function presentScormAttemptState(attempt: ScormAttemptDoc, allowNewAttempt: boolean): ScormAttemptState {
  const tree = treeOf(attempt.cmi);
  const entry = tree && resumes(tree) ? 'resume' : 'ab-initio';
  const completed = !!attempt.completedAt || scormCountsAsCompleted(attempt.completionStatus, attempt.successStatus);
  return {
    id: attempt._id.toString(),
    courseId: attempt.courseId,
    lessonId: attempt.lessonId,
    packageId: attempt.packageId,
    scoId: attempt.scoId,
    number: attempt.number,
    entry,
    cmi: tree && withEntry(tree, entry),
    sequence: attempt.sequence,
    completionStatus: attempt.completionStatus,
    successStatus: attempt.successStatus,
    completed,
    mayStartNew: completed && allowNewAttempt,
  };
}

/** One attempt as the curator's list and the learner's results show it (`userName` as the auth service has it now). */
export const presentScormAttemptSummary = (attempt: ScormAttemptDoc, userName: string): ScormAttemptSummary => ({
  id: attempt._id.toString(),
  userId: attempt.userId,
  userName,
  courseId: attempt.courseId,
  lessonId: attempt.lessonId,
  lessonTitle: attempt.lessonTitle,
  number: attempt.number,
  completionStatus: attempt.completionStatus,
  successStatus: attempt.successStatus,
  score: attempt.score,
  totalTimeSeconds: attempt.totalTimeSeconds,
  sessionTimeSeconds: attempt.sessionTimeSeconds,
  interactions: attempt.interactions,
  startedAt: attempt.createdAt.toISOString(),
  updatedAt: attempt.updatedAt.toISOString(),
  completedAt: attempt.completedAt ? attempt.completedAt.toISOString() : null,
});

/** The package's statuses as the export's reader reads them (1.2's lesson_status arrives as these too). */
const STATUS_TEXT: Record<string, string> = {
  completed: 'Пройден',
  incomplete: 'Не завершён',
  'not attempted': 'Не начат',
  browsed: 'Просмотрен',
  passed: 'Сдан',
  failed: 'Не сдан',
  unknown: '',
};
const statusText = (status: string) => STATUS_TEXT[status] ?? status;

const minutes = (seconds: number) => Math.round((seconds / 60) * 10) / 10;

/** One row of the attempts' export, in SCORM_EXPORT_HEADER's order. */
export const exportRow = (a: ScormAttemptDoc): ExportCell[] => [
  a.userName,
  a.courseTitle,
  a.lessonTitle,
  a.number,
  statusText(a.completionStatus),
  statusText(a.successStatus),
  a.score.raw,
  a.score.min,
  a.score.max,
  a.score.scaled,
  minutes(a.totalTimeSeconds || a.sessionTimeSeconds),
  a.interactions.length,
  a.interactions.filter((i) => i.result === 'correct').length,
  a.createdAt,
  a.completedAt,
];
