import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import {
  CANDIDATE_LINK_MSG,
  PROGRESS_MSG,
  REVIEW_MSG,
  formatMessage,
  resultLine,
  ruCount,
  type QuizInfo,
} from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import type { Outcome } from '../../hooks/useQuizAttempt';
import { ProgressBar } from '../ProgressBar';
import { QuestionResults } from '../QuestionResults';
import { Body, Footer } from './layout';

export const EMBEDDED_MSG = { region: 'Предпросмотр квиза', result: 'Результат предпросмотра' };

export const pendingText = (n: number) =>
  `${REVIEW_MSG.pending}: ${ruCount(n, { one: 'ответ ждёт', few: 'ответа ждут', many: 'ответов ждут' })} оценки куратора, итог станет окончательным после проверки.`;

interface ResultViewProps {
  outcome: Outcome;
  info: QuizInfo | undefined;
  timedOut: boolean;
  /** Shown inside another dialog (the editor's preview): the result is a named region. */
  embedded: boolean;
  closeLabel: string;
  onClose: () => void;
  /** Null when no attempt is left (or the quiz was passed). */
  onRetry: (() => void) | null;
}

/**
 * The result of an attempt, which takes the focus: the verdict, the score and, when the quiz shows
 * them, the questions with their explanations; only that the answers were sent on a candidate's link.
 */
export function ResultView({ outcome, info, timedOut, embedded, closeLabel, onClose, onRetry }: ResultViewProps) {
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const timeUp = timedOut && <Muted as="p">{PROGRESS_MSG.timeUp}</Muted>;
  const close = (
    <Button type="button" $variant="outline" onClick={onClose}>
      {closeLabel}
    </Button>
  );

  if (outcome.hidden) {
    return (
      <Body>
        <Verdict ref={heading} tabIndex={-1} $tone="passed">
          {CANDIDATE_LINK_MSG.submittedTitle}
        </Verdict>
        {timeUp}
        <p role="status">{CANDIDATE_LINK_MSG.submitted}</p>
        <Footer>{close}</Footer>
      </Body>
    );
  }
  if (!info) return null;
  return (
    <Body role={embedded ? 'region' : undefined} aria-label={embedded ? EMBEDDED_MSG.result : undefined}>
      <Verdict ref={heading} tabIndex={-1} $tone={verdictTone(outcome)}>
        {verdictText(outcome)}
      </Verdict>
      {timeUp}
      <p>{resultLine(outcome)}</p>
      {outcome.pendingReviews > 0 && <p role="status">{pendingText(outcome.pendingReviews)}</p>}
      <ProgressBar
        value={outcome.percentage}
        label={`${outcome.percentage}%`}
        tone={outcome.status === 'passed' ? 'success' : 'danger'}
      />
      {outcome.status === 'failed' && <p>{formatMessage(PROGRESS_MSG.passRequired, { percent: info.passingScore })}</p>}
      {outcome.questionsRevealed ? (
        <QuestionResults questions={outcome.questions} />
      ) : (
        <Muted as="p">{PROGRESS_MSG.explanationsAfterCourse}</Muted>
      )}
      <Footer>
        {close}
        {onRetry && (
          <Button type="button" onClick={onRetry}>
            {PROGRESS_MSG.tryAgain}
          </Button>
        )}
      </Footer>
    </Body>
  );
}

/**
 * The verdict: passed or not, except while answers wait for a curator, when the score is provisional
 * and nothing is decided yet («Ожидает проверки», neither green nor red).
 */
const verdictTone = ({ status, pendingReviews }: Pick<Outcome, 'status' | 'pendingReviews'>) =>
  pendingReviews > 0 ? 'pending' : status === 'passed' ? 'passed' : 'failed';
const verdictText = (outcome: Pick<Outcome, 'status' | 'pendingReviews'>) =>
  ({
    pending: PROGRESS_MSG.lessonAwaitingReview,
    passed: PROGRESS_MSG.quizPassed,
    failed: PROGRESS_MSG.quizFailed,
  })[verdictTone(outcome)];

const Verdict = styled.h3<{ $tone: 'pending' | 'passed' | 'failed' }>`
  margin: 0;
  font-size: 22px;
  outline: none;
  color: ${({ theme, $tone }) =>
    $tone === 'pending' ? theme.colors.warning : $tone === 'passed' ? theme.colors.success : theme.colors.danger};
`;
