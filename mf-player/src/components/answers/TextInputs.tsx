import { Fragment } from 'react';
import styled from 'styled-components';
import { BLANK_TOKEN, PROGRESS_MSG } from '@portal/contracts';
import { Input, TextArea } from '@portal/ui';
import type { AnswerInputProps } from './props';

/** short_answer and numeric: one line (a decimal keyboard for a number). */
export function ShortAnswerInput({ question, value, onChange, disabled }: AnswerInputProps) {
  return (
    <Input
      aria-label={PROGRESS_MSG.yourAnswer}
      inputMode={question.type === 'numeric' ? 'decimal' : undefined}
      value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** long_answer: a free text the curator grades. */
export function LongAnswerInput({ value, onChange, disabled }: AnswerInputProps) {
  return (
    <TextArea
      aria-label={PROGRESS_MSG.yourAnswer}
      rows={6}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** fill_blanks: the question's text with a field in place of each blank; the answer is the fields in order. */
export function FillBlanksInput({ question, value, onChange, disabled }: AnswerInputProps) {
  const count = question.blanksCount ?? 0;
  const parts = question.question.split(BLANK_TOKEN);
  const filled = Array.isArray(value) ? (value as string[]) : Array.from({ length: count }, () => '');
  const set = (i: number, text: string) =>
    onChange(Array.from({ length: count }, (_, k) => (k === i ? text : (filled[k] ?? ''))));
  return (
    <Blanks>
      {parts.map((part, i) => (
        <Fragment key={i}>
          <span>{part}</span>
          {i < count && (
            <BlankInput
              aria-label={`Пропуск ${i + 1}`}
              value={filled[i] ?? ''}
              disabled={disabled}
              onChange={(e) => set(i, e.target.value)}
            />
          )}
        </Fragment>
      ))}
    </Blanks>
  );
}

const Blanks = styled.p`
  line-height: 2.4;
  margin: 0;
`;
const BlankInput = styled(Input)`
  display: inline-block;
  width: 160px;
  height: 34px;
  margin: 0 6px;
`;
