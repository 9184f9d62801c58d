import { dictionary } from '@zxcvbn-ts/language-common';
import { MSG } from '@portal/contracts';
import { badRequest } from '@portal/service-kit';

/**
 * The 10,000 most common passwords: the head of zxcvbn-ts's frequency-ranked list (lower case), so
 * the list is kept by that project, not typed here. Compared in lower case, as Django's
 * CommonPasswordValidator does: «Password123» is «password123» to a guesser.
 */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].slice(0, 10_000).map((p) => p.toLowerCase()));

/** Shorter local parts («a@…», «it@…») would forbid ordinary letters; three and more are a name. */
const MIN_LOCAL_PART = 3;

/** Why a new password is refused, or null when it may be used. Length first, as the form says it. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < 8) return MSG.passwordTooShort;
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return MSG.passwordTooCommon;
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= MIN_LOCAL_PART && lower.includes(local)) return MSG.passwordHasEmail;
  return null;
}

/** Refuses a password that breaks the policy with a Russian 400 naming the field. */
export function assertPasswordAllowed(password: string, email: string, field = 'password'): void {
  const problem = passwordProblem(password, email);
  if (problem) throw badRequest(problem, field);
}
