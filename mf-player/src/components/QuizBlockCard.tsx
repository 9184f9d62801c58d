import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { PROGRESS_MSG, formatMessage, type AttemptDetail } from '@portal/contracts';
import { Button, Card, Muted } from '@portal/ui';
import { ApiError, navigate } from '@portal/web-core';
import { RESULTS_KEY, fetchQuizCard, quizCardKey } from '../api/player';
import { ResultBadge } from './Badges';
import { ProgressBar } from './ProgressBar';
import { QuizPlayer } from './QuizPlayer';

const minutes = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

interface QuizBlockCardProps {
  quizId: string;
  courseId: string;
  lessonId: string;
  /** A graded attempt passed: the lesson is complete. */
  onPassed: () => void;
}

/** A quiz block in a lesson (spec section 2): the quiz, the latest attempt, start or retry, results. */
export function QuizBlockCard({ quizId, courseId, lessonId, onPassed }: QuizBlockCardProps) {
  const queryClient = useQueryClient();
  const [playing, setPlaying] = useState(false);
  const card = useQuery({
    queryKey: quizCardKey(quizId),
    queryFn: ({ signal }) => fetchQuizCard(quizId, signal),
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 1,
  });

  // Spec: a quiz that is not found renders nothing.
  if (card.isError && card.error instanceof ApiError && card.error.status === 404) return null;
  if (card.isPending) return <Muted role="status">Загрузка квиза...</Muted>;
  if (card.isError) return <Muted role="alert">Не удалось загрузить квиз</Muted>;

  const { quiz, latest, attemptsUsed, canStart, blockedReason } = card.data;
  const finished = (result: AttemptDetail) => {
    void queryClient.invalidateQueries({ queryKey: quizCardKey(quizId) });
    void queryClient.invalidateQueries({ queryKey: RESULTS_KEY });
    if (result.status === 'passed') onPassed();
  };

  return (
    <Box as="section" aria-labelledby={`quiz-${quizId}`}>
      <h3 id={`quiz-${quizId}`}>{quiz.title}</h3>
      {quiz.description && <Muted>{quiz.description}</Muted>}
      <Facts>
        <li>{formatMessage(PROGRESS_MSG.questionsCount, { n: quiz.questionsCount })}</li>
        <li>{formatMessage(PROGRESS_MSG.passMark, { n: quiz.passingScore })}</li>
        {quiz.timeLimit !== null && <li>{formatMessage(PROGRESS_MSG.timeLimit, { n: minutes.format(quiz.timeLimit) })}</li>}
        <li>{formatMessage(PROGRESS_MSG.attemptsLeft, { used: attemptsUsed, max: quiz.maxAttempts })}</li>
      </Facts>
      {latest && (
        <Latest>
          <span>{formatMessage(PROGRESS_MSG.latestAttempt, { percent: latest.percentage })}</span>
          <ResultBadge status={latest.status} />
          <ProgressBar
            value={latest.percentage}
            label={formatMessage(PROGRESS_MSG.latestAttempt, { percent: latest.percentage })}
            tone={latest.status === 'passed' ? 'success' : 'danger'}
            size="sm"
          />
        </Latest>
      )}
      {!canStart && blockedReason && <Muted>{blockedReason}</Muted>}
      <Actions>
        <Button type="button" disabled={!canStart} onClick={() => setPlaying(true)}>
          {attemptsUsed > 0 ? PROGRESS_MSG.retryAttempt : PROGRESS_MSG.startQuiz}
        </Button>
        <Button type="button" $variant="outline" onClick={() => navigate(`/results?search=${encodeURIComponent(quiz.title)}`)}>
          {PROGRESS_MSG.viewResults}
        </Button>
      </Actions>
      {playing && (
        <QuizPlayer
          source={{ kind: 'attempt', quizId, courseId, lessonId }}
          onFinished={finished}
          onClose={() => {
            setPlaying(false);
            void queryClient.invalidateQueries({ queryKey: quizCardKey(quizId) });
          }}
        />
      )}
    </Box>
  );
}

const Box = styled(Card)`
  display: grid;
  gap: 12px;
  h3 {
    margin: 0;
    font-size: 18px;
  }
  p {
    margin: 0;
  }
`;
const Facts = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px 20px;
  margin: 0;
  padding: 0;
  list-style: none;
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
const Latest = styled.div`
  display: grid;
  grid-template-columns: auto auto 1fr;
  align-items: center;
  gap: 12px;
  font-size: 14px;
`;
const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;
