import type { AnswerValue, PlayerQuestion } from '@portal/contracts';

/** What every answer control takes: the question, the answer so far, and where a new one goes. */
export interface AnswerInputProps {
  question: PlayerQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  disabled: boolean;
  /** Unique on the page: the radio group's name and the ids its labels point to. */
  name: string;
  /** An author's preview: nothing is uploaded. */
  preview: boolean;
  /** The quiz being taken: an answer file names it (absent in a preview). */
  quizId?: string;
}

/** An answer kept as a map of row → chosen column (matching, matrix), or an empty one. */
export const indexMap = (value: AnswerValue | undefined): Record<string, number> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, number>) : {};
