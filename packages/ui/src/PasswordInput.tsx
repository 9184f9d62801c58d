import { useId, type InputHTMLAttributes } from 'react';
import { MSG } from '@portal/contracts';
import { ErrorBox, Input, Label } from './components';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'value'> {
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** The password the person has now (the browser offers the saved one); a new one otherwise. */
  current?: boolean;
  /** What is wrong with it, in red under the box, which is then `aria-invalid` and described by it. */
  error?: string | null;
}

/** A password box inside its label, and its error under it; a new one is `autocomplete="new-password"` so the browser may suggest one. */
export function PasswordInput({ label, value, onValue, current = false, error, ...rest }: PasswordInputProps) {
  const errorId = `${useId()}-error`;
  return (
    <>
      <Label>
        {label}
        <Input
          type="password"
          autoComplete={current ? 'current-password' : 'new-password'}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...rest}
        />
      </Label>
      {error && <ErrorBox id={errorId}>{error}</ErrorBox>}
    </>
  );
}

/**
 * A new password typed twice, checked before it is sent: too short, or the two differ. The server
 * checks the rest (a common password, the name in the email) and says so in its own message.
 */
export function newPasswordProblem(password: string, confirm: string): { field: 'password' | 'confirm'; message: string } | null {
  if (password.length < 8) return { field: 'password', message: MSG.passwordTooShort };
  if (password !== confirm) return { field: 'confirm', message: MSG.passwordsMismatch };
  return null;
}
