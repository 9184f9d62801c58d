import type { InputHTMLAttributes } from 'react';
import { MSG } from '@portal/contracts';
import { Input, Label } from './components';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'value'> {
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** The password the person has now (the browser offers the saved one); a new one otherwise. */
  current?: boolean;
}

/** A password box inside its label; a new one is `autocomplete="new-password"` so the browser may suggest one. */
export function PasswordInput({ label, value, onValue, current = false, ...rest }: PasswordInputProps) {
  return (
    <Label>
      {label}
      <Input
        type="password"
        autoComplete={current ? 'current-password' : 'new-password'}
        value={value}
        onChange={(e) => onValue(e.target.value)}
        {...rest}
      />
    </Label>
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
