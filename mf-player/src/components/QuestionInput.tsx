import { useId, type ComponentType } from 'react';
import styled from 'styled-components';
import {
  PLAYER_QUESTION_TYPES,
  PROGRESS_MSG,
  QUIZ_MSG,
  type AnswerValue,
  type PlayerQuestion,
  type QuestionType,
} from '@portal/contracts';
import { MultipleChoiceInput, ScaleInput, SingleChoiceInput, TrueFalseInput } from './answers/ChoiceInputs';
import { FileAnswerInput } from './answers/FileAnswerInput';
import { OrderingInput } from './answers/OrderingInput';
import { MatchingInput, MatrixInput } from './answers/PairInputs';
import type { AnswerInputProps } from './answers/props';
import { FillBlanksInput, LongAnswerInput, ShortAnswerInput } from './answers/TextInputs';
import { HotspotInput, ImageLabelsInput } from './ImageQuestionInputs';

/** The answer control of each question type: a new type without one fails the typecheck. */
const ANSWER_INPUTS: Record<QuestionType, ComponentType<AnswerInputProps>> = {
  single_choice: SingleChoiceInput,
  multiple_choice: MultipleChoiceInput,
  true_false: TrueFalseInput,
  short_answer: ShortAnswerInput,
  numeric: ShortAnswerInput,
  long_answer: LongAnswerInput,
  ordering: OrderingInput,
  matching: MatchingInput,
  fill_blanks: FillBlanksInput,
  scale: ScaleInput,
  matrix: MatrixInput,
  hotspot: HotspotInput,
  image_labels: ImageLabelsInput,
  file_upload: FileAnswerInput,
};

interface QuestionInputProps {
  question: PlayerQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  preview: boolean;
  disabled?: boolean;
  /** The quiz being taken: an answer file names it (absent in a preview, which uploads nothing). */
  quizId?: string;
}

/**
 * The answer control of one question, by type. Indexes are those of the options as shown; the
 * server maps them back to the quiz's own order.
 */
export function QuestionInput({ question, value, onChange, preview, disabled = false, quizId }: QuestionInputProps) {
  const name = useId();
  const Answer = PLAYER_QUESTION_TYPES.includes(question.type) ? ANSWER_INPUTS[question.type] : undefined;
  if (!Answer) return <Note role="note">{preview ? QUIZ_MSG.unsupportedInPreview : PROGRESS_MSG.unsupportedType}</Note>;
  return (
    <Answer
      question={question}
      value={value}
      onChange={onChange}
      disabled={disabled}
      name={name}
      preview={preview}
      quizId={quizId}
    />
  );
}

const Note = styled.p`
  margin: 0;
  padding: 12px 14px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  color: ${({ theme }) => theme.colors.muted};
`;
