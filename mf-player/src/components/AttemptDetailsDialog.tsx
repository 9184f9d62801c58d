import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import { PROGRESS_MSG, formatMessage, scoreLine } from '@portal/contracts';
import { Dialog, LoadError, Loading, Muted } from '@portal/ui';
import { useAuth } from '@portal/web-core';
import { attemptKey, fetchAttempt } from '../api/player';
import { ResultBadge } from './Badges';
import { QuestionResults } from './QuestionResults';
import { pendingText } from './player/ResultView';

const minutes = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });

/** 'Подробности попытки': who, which quiz, the result, the time, and every answer. */
export function AttemptDetailsDialog({ attemptId, onClose }: { attemptId: string; onClose: () => void }) {
  const { user } = useAuth();
  const detail = useQuery({ queryKey: attemptKey(attemptId), queryFn: ({ signal }) => fetchAttempt(attemptId, signal) });
  const a = detail.data;
  return (
    <Dialog title={PROGRESS_MSG.attemptDetails} onClose={onClose} wide>
      {detail.isPending && <Loading />}
      {detail.isError && <LoadError error={detail.error} onRetry={() => void detail.refetch()} />}
      {a && (
        <>
          <Facts>
            <dt>{PROGRESS_MSG.student}</dt>
            <dd>{a.userName}</dd>
            <dt>{PROGRESS_MSG.quiz}</dt>
            <dd>
              {a.quizTitle} <Muted as="span">({a.courseTitle})</Muted>
            </dd>
            <dt>{PROGRESS_MSG.result}</dt>
            <dd>
              {scoreLine(a)} <ResultBadge status={a.status} pendingReviews={a.pendingReviews} />
            </dd>
            <dt>{PROGRESS_MSG.timeTaken}</dt>
            <dd>
              {a.durationMinutes === null ? '—' : formatMessage(PROGRESS_MSG.minutes, { n: minutes.format(a.durationMinutes) })}
            </dd>
          </Facts>
          {a.lateAnswers > 0 && <Muted>Ответы после окончания времени не засчитаны: {a.lateAnswers}</Muted>}
          {(a.pendingReviews ?? 0) > 0 && <Muted role="status">{pendingText(a.pendingReviews)}</Muted>}
          {a.questionsRevealed ? (
            <QuestionResults questions={a.questions} showTime othersAttempt={!!user && a.userId !== user.id} />
          ) : (
            <Muted>{PROGRESS_MSG.explanationsAfterCourse}</Muted>
          )}
        </>
      )}
    </Dialog>
  );
}

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 6px 16px;
  margin: 0 0 16px;
  dt {
    color: ${({ theme }) => theme.colors.muted};
  }
  dd {
    margin: 0;
  }
`;
