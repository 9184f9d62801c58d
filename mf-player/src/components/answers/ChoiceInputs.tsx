import { PROGRESS_MSG } from '@portal/contracts';
import type { AnswerInputProps } from './props';
import { Choice, Choices } from './styles';

/** single_choice: one radio per option; the answer is the option's index as shown. */
export function SingleChoiceInput({ question, value, onChange, disabled, name }: AnswerInputProps) {
  return (
    <Choices>
      {question.options.map((option, i) => (
        <Choice key={i}>
          <input type="radio" name={name} checked={value === i} disabled={disabled} onChange={() => onChange(i)} />
          <span>{option}</span>
        </Choice>
      ))}
    </Choices>
  );
}

/** multiple_choice: a checkbox per option; the answer is the chosen indexes, ascending. */
export function MultipleChoiceInput({ question, value, onChange, disabled }: AnswerInputProps) {
  const chosen = Array.isArray(value) ? (value as number[]) : [];
  return (
    <Choices>
      {question.options.map((option, i) => (
        <Choice key={i}>
          <input
            type="checkbox"
            checked={chosen.includes(i)}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked ? [...chosen, i].sort((a, b) => a - b) : chosen.filter((v) => v !== i))}
          />
          <span>{option}</span>
        </Choice>
      ))}
    </Choices>
  );
}

/** true_false: «Верно» or «Неверно». */
export function TrueFalseInput({ value, onChange, disabled, name }: AnswerInputProps) {
  return (
    <Choices>
      {(['true', 'false'] as const).map((v) => (
        <Choice key={v}>
          <input type="radio" name={name} checked={value === v} disabled={disabled} onChange={() => onChange(v)} />
          <span>{v === 'true' ? PROGRESS_MSG.trueLabel : PROGRESS_MSG.falseLabel}</span>
        </Choice>
      ))}
    </Choices>
  );
}

/** scale: the points 1…n, each with its label if the author gave one. */
export function ScaleInput({ question, value, onChange, disabled, name }: AnswerInputProps) {
  return (
    <Choices role="radiogroup" aria-label={question.question}>
      {question.options.map((label, i) => (
        <Choice key={i}>
          <input type="radio" name={name} checked={value === i} disabled={disabled} onChange={() => onChange(i)} />
          <span>
            {i + 1}
            {label ? ` — ${label}` : ''}
          </span>
        </Choice>
      ))}
    </Choices>
  );
}
