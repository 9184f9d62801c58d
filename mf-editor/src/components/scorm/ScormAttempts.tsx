import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import type { ScormAttemptSummary } from '@portal/contracts';
import { DataTable, LoadError, Muted, Pager, TableScroll } from '@portal/ui';
import { useBackend, type ScormBackend } from '../../backend/backend';

export const SCORM_ATTEMPTS_MSG = {
  title: 'Попытки SCORM-уроков',
  loading: 'Загрузка попыток...',
  failed: 'Не удалось загрузить попытки SCORM-уроков',
  columns: ['Слушатель', 'Урок', 'Попытка', 'Статус', 'Баллы', 'Время', 'Обновлена'],
} as const;

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

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/**
 * The learners' attempts at the course's SCORM lessons, for its authors: on the course's overview,
 * where its structure is. Nothing is shown while no learner has opened one.
 */
export function ScormAttempts({ courseId }: { courseId: string }) {
  const backend = useBackend();
  return backend.scorm ? <AttemptsTable courseId={courseId} scorm={backend.scorm} /> : null;
}

function AttemptsTable({ courseId, scorm }: { courseId: string; scorm: ScormBackend }) {
  const [page, setPage] = useState(1);
  const attempts = useQuery({
    queryKey: ['editor', 'scorm-attempts', courseId, page],
    queryFn: () => scorm.attempts(courseId, page),
  });
  if (attempts.isPending) return <Muted role="status">{SCORM_ATTEMPTS_MSG.loading}</Muted>;
  if (attempts.isError)
    return <LoadError title={SCORM_ATTEMPTS_MSG.failed} error={attempts.error} onRetry={() => void attempts.refetch()} />;
  if (attempts.data.total === 0 && page === 1) return null;
  return (
    <Section aria-label={SCORM_ATTEMPTS_MSG.title}>
      <h2>{SCORM_ATTEMPTS_MSG.title}</h2>
      <TableScroll aria-label={SCORM_ATTEMPTS_MSG.title}>
        <DataTable>
          <thead>
            <tr>
              {SCORM_ATTEMPTS_MSG.columns.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {attempts.data.data.map((a) => (
              <tr key={a.id}>
                <td>{a.userName}</td>
                <td>{a.lessonTitle}</td>
                <td>№{a.number}</td>
                <td>{scormStatusLabel(a)}</td>
                <td>{scormScoreLabel(a)}</td>
                <td>{durationLabel(a.totalTimeSeconds)}</td>
                <td>{dateTime(a.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </TableScroll>
      <Pager of={attempts.data} onPage={setPage} />
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  gap: 8px;
  min-width: 0;
`;
