import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { PROGRESS_MSG, formatCountdown, formatMessage, type AttemptDetail, type QuizInfo } from '@portal/contracts';
import { Button, Card, Muted } from '@portal/ui';
import { ApiError, navigate, paths } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { RESULTS_KEY, fetchQuizCard, fetchQuizForPreview, previewQuizKey, progressKey, quizCardKey } from '../api/player';
import { useCountdown } from '../hooks/useCountdown';
import { ResultBadge } from './Badges';
import { ProgressBar } from './ProgressBar';
import { QuizPlayer } from './QuizPlayer';
import { previewQuizInfo } from './preview';

const minutes = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

export const QUIZ_CARD_MSG = {
  best: 'Лучший результат: {percent}%',
  resume: 'Продолжить попытку',
  unfinished: 'Попытка {n} не завершена: её можно продолжить с того же места',
  unfinishedTimed: 'Попытка {n} не завершена: осталось {left}, её можно продолжить с того же места',
  startPreview: 'Начать квиз (превью)',
} as const;

const notRetriedOn4xx = (count: number, err: Error) => !(err instanceof ApiError && err.status < 500) && count < 1;

interface QuizBlockCardProps {
  quizId: string;
  courseId: string;
  lessonId: string;
  /** An author's preview: the quiz is played in preview mode and nothing is written. */
  preview?: boolean;
  /** A graded attempt passed with nothing left to grade (or, in preview, the quiz was passed): the lesson is complete. */
  onPassed: () => void;
}

/**
 * A quiz block in a lesson: the quiz, the best attempt (a later attempt, closed
 * when its time ran out, never hides an earlier pass), start, resume or retry, and the results.
 */
export function QuizBlockCard(props: QuizBlockCardProps) {
  return props.preview ? <PreviewQuizCard {...props} /> : <LearnerQuizCard {...props} />;
}

function LearnerQuizCard({ quizId, courseId, lessonId, onPassed }: QuizBlockCardProps) {
  const queryClient = useQueryClient();
  const [playing, setPlaying] = useState(false);
  const card = useQuery({
    queryKey: quizCardKey(quizId),
    queryFn: ({ signal }) => fetchQuizCard(quizId, signal),
    retry: notRetriedOn4xx,
  });
  const deadline = card.data?.inProgress?.deadline;
  // The time left of an unfinished attempt ticks on the card; when it runs out the server closes it.
  const left = useCountdown(deadline ? Date.parse(deadline) : null, () =>
    setTimeout(() => void readAgain(queryClient, quizCardKey(quizId)), 6000),
  );

  // Spec: a quiz that is not found renders nothing.
  if (card.isError && card.error instanceof ApiError && card.error.status === 404) return null;
  if (card.isPending) return <Muted role="status">{PROGRESS_MSG.loadingQuiz}</Muted>;
  if (card.isError) return <Muted role="alert">Не удалось загрузить квиз</Muted>;

  const { quiz, best, latest, attemptsUsed, inProgress, canStart, blockedReason } = card.data;
  const finished = (result: AttemptDetail) => {
    void readAgain(queryClient, quizCardKey(quizId));
    void readAgain(queryClient, RESULTS_KEY);
    // The lesson's state follows its attempts («в процессе», «ожидает проверки»).
    void readAgain(queryClient, progressKey(courseId));
    // A pass still waiting for a person's grade completes nothing yet.
    if (result.status === 'passed' && !result.pendingReviews) onPassed();
  };
  const label = inProgress ? QUIZ_CARD_MSG.resume : attemptsUsed > 0 ? PROGRESS_MSG.retryAttempt : PROGRESS_MSG.startQuiz;

  return (
    <Box as="section" aria-labelledby={`quiz-${quizId}`}>
      <QuizFacts quiz={quiz} attemptsUsed={attemptsUsed} />
      {best && (
        <Latest>
          <span>{formatMessage(QUIZ_CARD_MSG.best, { percent: best.percentage })}</span>
          <ResultBadge status={best.status} pendingReviews={best.pendingReviews} />
          <ProgressBar
            value={best.percentage}
            label={formatMessage(QUIZ_CARD_MSG.best, { percent: best.percentage })}
            tone={best.status === 'passed' ? 'success' : 'danger'}
            size="sm"
          />
        </Latest>
      )}
      {latest && best && latest.id !== best.id && (
        <Muted>
          {formatMessage(PROGRESS_MSG.latestAttempt, { percent: latest.percentage })} ·{' '}
          {latest.status === 'passed' ? PROGRESS_MSG.passed : PROGRESS_MSG.failed}
        </Muted>
      )}
      {inProgress && (
        <Muted role="status">
          {left !== null
            ? formatMessage(QUIZ_CARD_MSG.unfinishedTimed, { n: attemptsUsed + 1, left: formatCountdown(left) })
            : formatMessage(QUIZ_CARD_MSG.unfinished, { n: attemptsUsed + 1 })}
        </Muted>
      )}
      {!canStart && blockedReason && <Muted>{blockedReason}</Muted>}
      <Actions>
        <Button type="button" disabled={!canStart} onClick={() => setPlaying(true)}>
          {label}
        </Button>
        <Button
          type="button"
          $variant="outline"
          onClick={() => navigate(`${paths.results()}?search=${encodeURIComponent(quiz.title)}`)}
        >
          {PROGRESS_MSG.viewResults}
        </Button>
      </Actions>
      {playing && (
        <QuizPlayer
          source={{ kind: 'attempt', quizId, courseId, lessonId }}
          onFinished={finished}
          onClose={() => {
            setPlaying(false);
            void readAgain(queryClient, quizCardKey(quizId));
          }}
        />
      )}
    </Box>
  );
}

/** The author's preview of the card: the quiz as learners see it, played in preview mode, reported nowhere. */
function PreviewQuizCard({ quizId, onPassed }: QuizBlockCardProps) {
  const [playing, setPlaying] = useState(false);
  const quiz = useQuery({
    queryKey: previewQuizKey(quizId),
    queryFn: ({ signal }) => fetchQuizForPreview(quizId, signal),
    retry: notRetriedOn4xx,
  });
  if (quiz.isError && quiz.error instanceof ApiError && quiz.error.status === 404) return null;
  if (quiz.isPending) return <Muted role="status">{PROGRESS_MSG.loadingQuiz}</Muted>;
  if (quiz.isError) return <Muted role="alert">Не удалось загрузить квиз</Muted>;
  return (
    <Box as="section" aria-labelledby={`quiz-${quizId}`}>
      <QuizFacts quiz={previewQuizInfo(quiz.data)} attemptsUsed={0} />
      <Muted>{PROGRESS_MSG.preview}</Muted>
      <Actions>
        <Button type="button" disabled={!quiz.data.questions.length} onClick={() => setPlaying(true)}>
          {QUIZ_CARD_MSG.startPreview}
        </Button>
      </Actions>
      {playing && (
        <QuizPlayer source={{ kind: 'preview', quiz: quiz.data }} onPreviewPassed={onPassed} onClose={() => setPlaying(false)} />
      )}
    </Box>
  );
}

function QuizFacts({ quiz, attemptsUsed }: { quiz: QuizInfo; attemptsUsed: number }) {
  return (
    <>
      <h3 id={`quiz-${quiz.id}`}>{quiz.title}</h3>
      {quiz.description && <Muted>{quiz.description}</Muted>}
      <Facts>
        <li>{formatMessage(PROGRESS_MSG.questionsCount, { n: quiz.questionsCount })}</li>
        <li>{formatMessage(PROGRESS_MSG.passMark, { n: quiz.passingScore })}</li>
        {quiz.timeLimit !== null && <li>{formatMessage(PROGRESS_MSG.timeLimit, { n: minutes.format(quiz.timeLimit) })}</li>}
        <li>{formatMessage(PROGRESS_MSG.attemptsLeft, { used: attemptsUsed, max: quiz.maxAttempts })}</li>
      </Facts>
    </>
  );
}

const Box = styled(Card)`
  display: grid;
  gap: 12px;
  min-width: 0;
  h3 {
    margin: 0;
    font-size: 18px;
    overflow-wrap: anywhere;
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
