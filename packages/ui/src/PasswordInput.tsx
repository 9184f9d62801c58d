import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { z } from 'zod';
import { MSG } from '@portal/contracts';
import { ErrorBox, Input, Label } from './components';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value'> {
  label: string;
  /** With `onValue`, the box shows this value; without, it is a form's (`{...form.register('password')}`). */
  value?: string;
  onValue?: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
  /** The password the person has now (the browser offers the saved one); a new one otherwise. */
  current?: boolean;
  /** What is wrong with it, in red under the box, which is then `aria-invalid` and described by it. */
  error?: string | null;
}

/** A password box inside its label, and its error under it; a new one is `autocomplete="new-password"` so the browser may suggest one. */
export function PasswordInput({ label, value, onValue, onChange, current = false, error, ...rest }: PasswordInputProps) {
  const errorId = `${useId()}-error`;
  return (
    <>
      <Label>
        {label}
        <Input
          type="password"
          autoComplete={current ? 'current-password' : 'new-password'}
          value={value}
          onChange={onValue ? (e) => onValue(e.target.value) : onChange}
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

/** The first problem newPasswordProblem finds in a new password typed twice, on the field it is about. */
function checkNewPassword(ctx: z.RefinementCtx, password: string, confirm: string, passwordField: string): void {
  const problem = newPasswordProblem(password, confirm);
  if (problem)
    ctx.addIssue({ code: 'custom', path: [problem.field === 'password' ? passwordField : 'confirm'], message: problem.message });
}

/** A new password typed twice (a one-time link's form): a missing one, then its first problem. */
export const newPasswordForm = z.object({ password: z.string(), confirm: z.string() }).superRefine((v, ctx) => {
  if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: MSG.fillAllFields });
  else checkNewPassword(ctx, v.password, v.confirm, 'password');
});

/** «Сменить пароль»: a missing current password first, then the new one's first problem. */
export const changePasswordForm = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirm: z.string() })
  .superRefine((v, ctx) => {
    if (!v.currentPassword) ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: MSG.fillAllFields });
    else checkNewPassword(ctx, v.newPassword, v.confirm, 'newPassword');
  });
