import type { ScormAttemptSummary } from '@portal/contracts';

/** How a SCO's statuses, score and time read in the portal's tables (the editor's course overview, /results). */
const COMPLETION_LABELS: Record<string, string> = {
  completed: 'пройден',
  passed: 'пройден',
  incomplete: 'не завершён',
  'not attempted': 'не начат',
  browsed: 'просмотрен',
  failed: 'не пройден',
  unknown: 'не начат',
};
const SUCCESS_LABELS: Record<string, string> = { passed: 'зачтено', failed: 'не зачтено' };

/** «пройден · зачтено», as a curator reads a SCO's statuses. */
export function scormStatusLabel(a: Pick<ScormAttemptSummary, 'completionStatus' | 'successStatus'>): string {
  const completion = COMPLETION_LABELS[a.completionStatus] ?? a.completionStatus;
  const success = SUCCESS_LABELS[a.successStatus];
  return success ? `${completion} · ${success}` : completion;
}

/** «80 из 100», «80%» or a dash. */
export function scormScoreLabel({ score }: Pick<ScormAttemptSummary, 'score'>): string {
  if (score.raw !== null && score.max !== null && score.max > 0) return `${score.raw} из ${score.max}`;
  if (score.scaled !== null) return `${Math.round(score.scaled * 100)}%`;
  if (score.raw !== null) return String(score.raw);
  return '—';
}

/** «1 ч 05 мин», «3 мин 20 с», «45 с». */
export function durationLabel(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h) return `${h} ч ${String(m).padStart(2, '0')} мин`;
  if (m) return `${m} мин ${String(rest).padStart(2, '0')} с`;
  return `${rest} с`;
}

const updated = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });

/** One attempt's cells as the portal's tables show it: learner, lesson, number, statuses, score, time, last commit. */
export function ScormAttemptCells({ attempt: a }: { attempt: ScormAttemptSummary }) {
  return (
    <>
      <td>{a.userName}</td>
      <td>{a.lessonTitle}</td>
      <td>№{a.number}</td>
      <td>{scormStatusLabel(a)}</td>
      <td>{scormScoreLabel(a)}</td>
      <td>{durationLabel(a.totalTimeSeconds)}</td>
      <td>{updated.format(new Date(a.updatedAt))}</td>
    </>
  );
}

/** The columns of ScormAttemptCells. */
export const SCORM_ATTEMPT_COLUMNS = ['Слушатель', 'Урок', 'Попытка', 'Статус', 'Баллы', 'Время', 'Обновлена'] as const;
