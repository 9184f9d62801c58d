import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { PROGRESS_MSG, formatMessage, type AnswerValue, type PlayerQuestion } from '@portal/contracts';
import { Button, ErrorBox, Muted } from '@portal/ui';
import { ProgressBar } from '../ProgressBar';
import { QuestionInput } from '../QuestionInput';
import { Body, Footer } from './layout';
import { QuestionNav } from './QuestionNav';

interface QuestionViewProps {
  questions: PlayerQuestion[];
  index: number;
  answers: Record<string, AnswerValue>;
  preview: boolean;
  quizId: string | undefined;
  /** The answers are being sent: nothing can be changed. */
  submitting: boolean;
  error: string | null;
  onGo: (index: number) => void;
  onAnswer: (questionId: string, value: AnswerValue) => void;
  onSubmit: () => void;
}

/**
 * One question of a running attempt: the numbered navigation, the progress, the question with its
 * answer control, and back / next ('Завершить квиз' on the last). Each question shown takes the focus.
 */
export function QuestionView(props: QuestionViewProps) {
  const { questions, index, answers, preview, quizId, submitting, error, onGo, onAnswer, onSubmit } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const question = questions[index]!;
  const last = index === questions.length - 1;
  const position = formatMessage(PROGRESS_MSG.questionOf, { n: index + 1, total: questions.length });

  useEffect(() => {
    if (!submitting) heading.current?.focus();
  }, [index, submitting]);

  return (
    <Body>
      <QuestionNav questions={questions} answers={answers} index={index} disabled={submitting} onGo={onGo} />
      <ProgressBar value={((index + 1) / questions.length) * 100} label={position} size="sm" />
      <Muted as="p">{position}</Muted>
      <fieldset>
        <legend>
          <QuestionText ref={heading} tabIndex={-1}>
            {question.type === 'fill_blanks' ? 'Заполните пропуски' : question.question}
          </QuestionText>
        </legend>
        <QuestionInput
          key={question.id}
          question={question}
          value={answers[question.id]}
          preview={preview}
          quizId={quizId}
          disabled={submitting}
          onChange={(value) => onAnswer(question.id, value)}
        />
      </fieldset>
      {error && <ErrorBox>{error}</ErrorBox>}
      <Footer>
        <Button type="button" $variant="outline" onClick={() => onGo(index - 1)} disabled={index === 0 || submitting}>
          {PROGRESS_MSG.prev}
        </Button>
        {last ? (
          <Button type="button" onClick={onSubmit} disabled={submitting}>
            {PROGRESS_MSG.finishQuiz}
          </Button>
        ) : (
          <Button type="button" onClick={() => onGo(index + 1)} disabled={submitting}>
            {PROGRESS_MSG.next}
          </Button>
        )}
      </Footer>
    </Body>
  );
}

const QuestionText = styled.h3`
  margin: 0;
  font-size: 18px;
  outline: none;
`;
