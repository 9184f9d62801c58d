import styled from 'styled-components';
import { PROGRESS_MSG, REVIEW_MSG, formatMessage, type QuestionResult } from '@portal/contracts';
import { BoxList, Muted } from '@portal/ui';

/**
 * Per-question results: a correct/wrong mark, the answer, the right one when wrong, the explanation.
 * `othersAttempt`: staff read a learner's attempt, so the answer is «Ответ учащегося», not «Ваш ответ».
 */
export function QuestionResults({
  questions,
  showTime = false,
  othersAttempt = false,
}: {
  questions: QuestionResult[];
  showTime?: boolean;
  othersAttempt?: boolean;
}) {
  return (
    <List aria-label="Ответы по вопросам">
      {questions.map((q, i) => (
        <li key={q.questionId}>
          <strong>
            {q.review === null ? (
              <Mark $ok aria-label={REVIEW_MSG.pending}>
                ⏳
              </Mark>
            ) : (
              <Mark
                $ok={q.isCorrect || !!q.review?.score}
                aria-label={q.isCorrect ? 'Верно' : q.review ? 'Проверено' : 'Неверно'}
              >
                {q.isCorrect ? '✓' : q.review ? '✎' : '✗'}
              </Mark>
            )}{' '}
            {i + 1}. {q.question}
          </strong>
          <span>
            {othersAttempt ? PROGRESS_MSG.learnerAnswer : PROGRESS_MSG.yourAnswer}: {q.answerText ?? PROGRESS_MSG.notAnswered}
          </span>
          {!q.isCorrect && q.correctAnswerText && (
            <span>
              {PROGRESS_MSG.correctAnswer}: {q.correctAnswerText}
            </span>
          )}
          {q.review === null && <Muted as="span">{REVIEW_MSG.pending}: ответ оценит куратор</Muted>}
          {q.review && (
            <span>
              Оценка куратора: {q.review.score}
              {q.review.comment ? ` · ${q.review.comment}` : ''}
            </span>
          )}
          {q.explanation && (
            <Muted as="span">
              {PROGRESS_MSG.explanation}: {q.explanation}
            </Muted>
          )}
          {showTime && <Muted as="span">Время: {formatMessage(PROGRESS_MSG.seconds, { n: q.timeSpent })}</Muted>}
        </li>
      ))}
    </List>
  );
}

const List = styled(BoxList).attrs({ as: 'ol', $gap: 10 })`
  > li {
    display: grid;
    gap: 4px;
    padding: 12px 14px;
  }
`;
const Mark = styled.span<{ $ok: boolean }>`
  color: ${({ theme, $ok }) => ($ok ? theme.colors.success : theme.colors.danger)};
`;
