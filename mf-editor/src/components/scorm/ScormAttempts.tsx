import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { DataTable, LoadError, Muted, Pager, SCORM_ATTEMPT_COLUMNS, ScormAttemptCells, TableHead, TableScroll } from '@portal/ui';
import { useBackend, type ScormBackend } from '../../backend/backend';

export const SCORM_ATTEMPTS_MSG = {
  title: 'Попытки SCORM-уроков',
  loading: 'Загрузка попыток...',
  failed: 'Не удалось загрузить попытки SCORM-уроков',
} as const;

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
          <TableHead columns={SCORM_ATTEMPT_COLUMNS} />
          <tbody>
            {attempts.data.data.map((a) => (
              <tr key={a.id}>
                <ScormAttemptCells attempt={a} />
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
