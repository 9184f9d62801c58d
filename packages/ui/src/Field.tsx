import { cloneElement, useId, type ReactElement, type ReactNode, type SelectHTMLAttributes } from 'react';
import styled from 'styled-components';
import { Button, Select } from './components';
import { DialogActions } from './Dialog';

/** What a Field hands its control: the ids that tie it to the label, the hint and the error. */
export interface FieldControlProps {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export interface FieldProps {
  label: ReactNode;
  /** One input, select or text area; it gets the id and the ARIA attributes. */
  children: ReactElement<FieldControlProps>;
  hint?: ReactNode;
  /** The message under the field; the control is then `aria-invalid`. */
  error?: string;
  id?: string;
  /** Marks the label with a red * (for the eye; the form's own text says what * means). */
  required?: boolean;
}

/**
 * A labelled control with its hint and its error beneath it. The control is named by the label,
 * described by the hint and the error, and marked `aria-invalid` while the error shows.
 */
export function Field({ label, children, hint, error, id, required = false }: FieldProps) {
  const auto = useId();
  const controlId = id ?? children.props.id ?? auto;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [children.props['aria-describedby'], hint ? hintId : null, error ? errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <Wrap>
      <FieldLabel htmlFor={controlId}>
        {label}
        {required && <RequiredMark />}
      </FieldLabel>
      {cloneElement(children, {
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && <Hint id={hintId}>{hint}</Hint>}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </Wrap>
  );
}

/** The red * of a required field or group (a legend's, say): for the eye only. */
export function RequiredMark() {
  return <Star aria-hidden="true"> *</Star>;
}

/**
 * The foot of a form: any other actions, «Отмена», and the submit button last. The submit waits while
 * `busy`, and while the form is not `ready` (nothing chosen yet).
 */
export function FormActions({
  submitLabel,
  busy = false,
  ready = true,
  onCancel,
  children,
}: {
  submitLabel: string;
  busy?: boolean;
  ready?: boolean;
  onCancel: () => void;
  /** Buttons before «Отмена» (a preview, say). */
  children?: ReactNode;
}) {
  return (
    <Actions>
      {children}
      <Button type="button" $variant="outline" onClick={onCancel}>
        Отмена
      </Button>
      <Button type="submit" disabled={busy || !ready}>
        {submitLabel}
      </Button>
    </Actions>
  );
}

/** A checkbox with its label to the right, the whole line clickable. */
export function Check({ label, ...input }: { label: ReactNode } & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <CheckLabel>
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </CheckLabel>
  );
}

export const TextArea = styled.textarea`
  width: 100%;
  padding: 10px 12px;
  font: inherit;
  resize: vertical;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
  }
`;

const Actions = styled(DialogActions)`
  margin-top: 8px;
`;
const Wrap = styled.div`
  display: grid;
  gap: 6px;
  align-content: start;
  min-width: 0;
  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
  }
`;
const FieldLabel = styled.label`
  font-size: 14px;
  font-weight: 500;
`;
const Star = styled.span`
  color: ${({ theme }) => theme.colors.danger};
`;
const Hint = styled.span`
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
/** The message under a field (and the text of a form-wide error). */
export const FieldError = styled.span`
  font-size: 13px;
  color: ${({ theme }) => theme.colors.danger};
`;
/** A checkbox's line: the box, then its text, the whole line clickable. */
export const CheckLabel = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
  cursor: pointer;
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;

/** A select's `<option>`s over a closed list of codes, each said by its label: `<CodeOptions codes={ROLES} labels={ROLE_LABELS} />`. */
export function CodeOptions<V extends string>({ codes, labels }: { codes: readonly V[]; labels: Record<V, string> }) {
  return (
    <>
      {codes.map((code) => (
        <option key={code} value={code}>
          {labels[code]}
        </option>
      ))}
    </>
  );
}

export interface CodeSelectProps<V extends string> extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  value: V;
  onValue: (value: V) => void;
  codes: readonly V[];
  labels: Record<V, string>;
}

/** A select over a closed list of codes that hands back the code chosen: `<CodeSelect codes={ROLES} labels={ROLE_LABELS} … />`. */
export function CodeSelect<V extends string>({ codes, labels, onValue, ...select }: CodeSelectProps<V>) {
  return (
    <Select {...select} onChange={(e) => onValue(e.target.value as V)}>
      <CodeOptions codes={codes} labels={labels} />
    </Select>
  );
}

/** A select's `<option>`s over records, each by its id and said by its title (courses, modules, lessons). */
export function TitleOptions({ items }: { items: readonly { id: string; title: string }[] }) {
  return (
    <>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.title}
        </option>
      ))}
    </>
  );
}
