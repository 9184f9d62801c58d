import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { ASSIGNMENT_STATUS_LABELS } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import {
  assignmentKeys,
  daysLeftText,
  downloadCertificate,
  fetchMyAssignments,
  formatDay,
  requestCertificate,
} from '@portal/web-core/assignments';

/**
 * Above a learner's lesson: the due date of the course when it is assigned to them
 * and, once every lesson is completed, the certificate (issued on the first download).
 */
export function StudyAssignment({ courseId, lessonsDone }: { courseId: string; lessonsDone: boolean }) {
  const assigned = useQuery({
    queryKey: assignmentKeys.mine(1, courseId),
    queryFn: ({ signal }) => fetchMyAssignments({ page: 1, limit: 1, courseId }, signal),
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const mine = assigned.data?.data[0];

  const download = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const certificate = await requestCertificate(courseId);
      await downloadCertificate(certificate.number);
    } catch (err) {
      setProblem(errorMessage(err, 'Не удалось получить сертификат'));
    } finally {
      setBusy(false);
    }
  };

  if (!mine && !lessonsDone) return null;
  return (
    <Bar $overdue={mine?.status === 'overdue'} data-testid="study-assignment">
      {mine && (
        <span>
          Назначено: срок <strong>{formatDay(mine.dueDate)}</strong> · {ASSIGNMENT_STATUS_LABELS[mine.status]}
          {/* «завершён» says it once: the days left would say «Завершён» again. */}
          {mine.status !== 'completed' && ` · ${daysLeftText(mine)}`}
        </span>
      )}
      {lessonsDone && (
        <Button type="button" $size="sm" disabled={busy} onClick={() => void download()}>
          Скачать сертификат
        </Button>
      )}
      {problem && <Muted role="alert">{problem}</Muted>}
    </Bar>
  );
}

const Bar = styled.div<{ $overdue: boolean }>`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
  justify-content: space-between;
  padding: 10px 14px;
  margin-bottom: 16px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : theme.colors.border)};
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : 'inherit')};
  p {
    margin: 0;
  }
`;
