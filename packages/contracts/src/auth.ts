import { z } from 'zod';
import { MSG } from './messages';
import { ROLES } from './roles';
import { pagingFields } from './paging';

/** A required text field: missing, non-text or blank all give the one message the spec quotes. */
export const requiredText = (message: string, max = 200) => z.string({ error: message }).trim().min(1, message).max(max);

const email = z
  .string({ error: MSG.fillAllFields })
  .trim()
  .toLowerCase()
  .min(1, MSG.fillAllFields)
  .max(254, MSG.emailInvalid)
  .pipe(z.email(MSG.emailInvalid));

const password = z.string({ error: MSG.fillAllFields }).min(1, MSG.fillAllFields).max(256);

export const loginSchema = z.strictObject({ email, password });
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.strictObject({
  email,
  password: password.refine((p) => p.length >= 8, MSG.passwordTooShort),
  fullName: requiredText(MSG.enterName),
  role: z.enum(ROLES).default('CANDIDATE'),
  adminPassword: z.string().max(256).optional(),
});
export type RegisterInput = z.input<typeof registerSchema>;

export interface User {
  id: string;
  email: string;
  fullName: string;
  firstName: string;
  role: (typeof ROLES)[number];
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
}

export interface AuthResponse {
  user: User;
  token: string;
  message: string;
}

export const userUpdateSchema = z.strictObject({
  fullName: requiredText(MSG.fillRequired),
  email: z.string({ error: MSG.fillRequired }).trim().toLowerCase().min(1, MSG.fillRequired).pipe(z.email(MSG.emailInvalid)),
  role: z.enum(ROLES, { error: MSG.fillRequired }),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

export const userListQuerySchema = z.object({
  ...pagingFields(20),
  search: z.string().trim().max(200).optional(),
  role: z.enum(ROLES).optional(),
});

/** Claims of the portal's access token. Services re-read the role on every request. */
export interface TokenClaims {
  sub: string;
  role: (typeof ROLES)[number];
}
