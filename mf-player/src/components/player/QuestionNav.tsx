import styled from 'styled-components';
import type { AnswerValue, PlayerQuestion } from '@portal/contracts';
import { Button } from '@portal/ui';
import { isBlank } from '../../hooks/useQuizAttempt';

interface QuestionNavProps {
  questions: PlayerQuestion[];
  answers: Record<string, AnswerValue>;
  index: number;
  disabled: boolean;
  onGo: (index: number) => void;
}

/** The numbered buttons of the questions: the current one marked, the answered ones underlined. */
export function QuestionNav({ questions, answers, index, disabled, onGo }: QuestionNavProps) {
  return (
    <Numbers role="navigation" aria-label="Вопросы квиза">
      {questions.map((q, i) => (
        <NumberButton
          key={q.id}
          type="button"
          $variant={i === index ? 'default' : 'outline'}
          $size="sm"
          $answered={!isBlank(answers[q.id])}
          aria-current={i === index ? 'step' : undefined}
          aria-label={`Вопрос ${i + 1}${isBlank(answers[q.id]) ? '' : ', есть ответ'}`}
          onClick={() => onGo(i)}
          disabled={disabled}
        >
          {i + 1}
        </NumberButton>
      ))}
    </Numbers>
  );
}

const Numbers = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
`;
const NumberButton = styled(Button)<{ $answered: boolean }>`
  min-width: 36px;
  ${({ $answered, theme }) => ($answered ? `box-shadow: inset 0 -3px 0 ${theme.colors.success};` : '')}
`;
