import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import { PROGRESS_MSG, formatMessage, scoreLine } from '@portal/contracts';
import { Button, ErrorBox, Muted } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { attemptKey, fetchAttempt } from '../api/player';
import { ResultBadge } from './Badges';
import { QuestionResults } from './QuestionResults';
import { pendingText } from './QuizPlayer';

const minutes = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });

/** 'Подробности попытки' (spec section 2): who, which quiz, the result, the time, and every answer. */
export function AttemptDetailsDialog({ attemptId, onClose }: { attemptId: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const detail = useQuery({ queryKey: attemptKey(attemptId), queryFn: ({ signal }) => fetchAttempt(attemptId, signal) });
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const a = detail.data;
  return (
    <Dialog
      ref={ref}
      aria-labelledby="attempt-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <Head>
        <h2 id="attempt-title">{PROGRESS_MSG.attemptDetails}</h2>
        <Button type="button" $variant="ghost" $size="icon" aria-label={PROGRESS_MSG.close} onClick={onClose}>
          ✕
        </Button>
      </Head>
      {detail.isPending && <Muted role="status">Загрузка...</Muted>}
      {detail.isError && <ErrorBox>{errorMessage(detail.error)}</ErrorBox>}
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
            <QuestionResults questions={a.questions} showTime />
          ) : (
            <Muted>{PROGRESS_MSG.explanationsAfterCourse}</Muted>
          )}
        </>
      )}
    </Dialog>
  );
}

const Dialog = styled.dialog`
  width: min(720px, calc(100vw - 24px));
  max-height: calc(100vh - 24px);
  overflow: auto;
  padding: 20px 24px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: 0 20px 50px rgba(0, 0, 0, 0.35);
  &::backdrop {
    background: rgba(10, 12, 20, 0.55);
  }
`;
const Head = styled.header`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  margin-bottom: 12px;
  h2 {
    margin: 0;
    font-size: 20px;
  }
`;
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
