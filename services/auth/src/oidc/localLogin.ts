/**
 * LOCAL_LOGIN: who may still use a portal password once people sign in through the company's
 * provider. `all` (the default) changes nothing; `admins` keeps it for ADMIN accounts only (the
 * break-glass, when the provider is down); `none` turns it off. With either of the last two,
 * self-registration and «Забыли пароль?» are off as well.
 */
import { LOCAL_LOGIN_MSG, type Role } from '@portal/contracts';
import { forbidden } from '@portal/service-kit';
import type { AuthConfig } from '../config';

type Mode = Pick<AuthConfig, 'LOCAL_LOGIN'>;

/** Whether a person of this role may sign in with their password. */
export const passwordSignInAllowed = ({ LOCAL_LOGIN }: Mode, role: Role): boolean =>
  LOCAL_LOGIN === 'all' || (LOCAL_LOGIN === 'admins' && role === 'ADMIN');

/** Refuses a password sign-in the mode does not allow (403 in Russian). */
export function assertPasswordSignIn(config: Mode, role: Role): void {
  if (!passwordSignInAllowed(config, role)) throw forbidden(LOCAL_LOGIN_MSG.passwordOff);
}

/**
 * Self-registration: only with LOCAL_LOGIN=all; with `admins`, still the first ADMIN of an empty
 * portal (its own guards apply), as that ADMIN is the break-glass.
 */
export function assertRegistration(config: Mode, role: Role | undefined): void {
  if (config.LOCAL_LOGIN === 'all' || (config.LOCAL_LOGIN === 'admins' && role === 'ADMIN')) return;
  throw forbidden(LOCAL_LOGIN_MSG.registrationOff);
}

/** «Забыли пароль?» asks for nothing unless everyone signs in with a password. */
export function assertPasswordLinkRequests(config: Mode): void {
  if (config.LOCAL_LOGIN !== 'all') throw forbidden(LOCAL_LOGIN_MSG.resetOff);
}

/** A new password by link: for whoever may sign in with one. */
export function assertPasswordReset(config: Mode, role: Role): void {
  if (!passwordSignInAllowed(config, role)) throw forbidden(LOCAL_LOGIN_MSG.resetOff);
}
