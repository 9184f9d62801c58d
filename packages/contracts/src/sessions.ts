import { z } from 'zod';
import './zod-ru';
import { emailField } from './auth';
import { MSG } from './messages';

/** A new password as every route takes it; the server adds the rules that need a list or the email. */
export const newPasswordField = z
  .string({ error: MSG.fillAllFields })
  .min(1, MSG.fillAllFields)
  .max(256)
  .refine((p) => p.length >= 8, MSG.passwordTooShort);

export const passwordChangeSchema = z.strictObject({
  currentPassword: z.string({ error: MSG.fillAllFields }).min(1, MSG.fillAllFields).max(256),
  newPassword: newPasswordField,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const passwordResetSchema = z.strictObject({
  token: z.string({ error: MSG.resetLinkInvalid }).min(1, MSG.resetLinkInvalid).max(200, MSG.resetLinkInvalid),
  password: newPasswordField,
});
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** «Забыли пароль?»: the email to send a one-time link to (the answer is the same whether an account has it). */
export const passwordResetRequestSchema = z.strictObject({ email: emailField(MSG.fillAllFields) });
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

/** What an administrator gets for a person: a link to hand over, valid once until `expiresAt`. */
export interface PasswordResetLink {
  /** The portal path with the token, e.g. `/auth/reset?token=…` (the client adds its origin). */
  path: string;
  expiresAt: string;
}

/** The public page that sets a new password with a reset link's token. */
export const RESET_PASSWORD_PATH = '/auth/reset';
