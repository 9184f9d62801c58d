import type { Context, Next } from 'koa';
import { timingSafeEqual } from 'node:crypto';
import { CANDIDATE_LINK_MSG, CONSENT_MSG, MSG, linkSessionAllows, type Role } from '@portal/contracts';
import { HttpError, forbidden, unauthorized, unavailable } from './errors';
import type { TokenVerifier } from './jwt';
import { PrincipalLookupError, type Principal, type PrincipalCache } from './principals';

export interface AuthState {
  user: Principal;
}

const bearer = (ctx: Context): string | null => {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
};

/**
 * Verifies the bearer token and loads the current principal of its session; 401 for no, bad or expired
 * tokens, for a user who is gone and for a session that ended (logout, password or role change).
 */
export const createAuthenticate = (verifier: TokenVerifier, principals: PrincipalCache) => async (ctx: Context, next: Next) => {
  const token = bearer(ctx);
  if (!token) throw unauthorized(MSG.unauthorized);
  const claims = await verifier.verify(token);
  if (!claims) throw unauthorized(MSG.badToken);
  let user: Principal | null;
  try {
    user = await principals.get(claims.sub, claims.sid);
  } catch (err) {
    // Auth's own 503 (its store is down) says more than "a service is unavailable".
    const message = err instanceof PrincipalLookupError && err.status === 503 ? err.userMessage : null;
    throw unavailable(message ?? MSG.serviceUnavailable);
  }
  if (!user) throw unauthorized(MSG.badToken);
  // A candidate's link session reaches its one quiz, whichever service is asked.
  if (user.linkScope && !linkSessionAllows(user.linkScope, ctx.method, ctx.path)) throw forbidden(CANDIDATE_LINK_MSG.scopeOnly);
  ctx.state.user = user;
  ctx.state.sessionId = claims.sid;
  await next();
};

/** Must follow authenticate. */
export const requireRole =
  (...roles: Role[]) =>
  async (ctx: Context, next: Next) => {
    const user = ctx.state.user as Principal | undefined;
    if (!user) throw unauthorized();
    if (!roles.includes(user.role)) throw forbidden();
    await next();
  };

/**
 * Must follow authenticate. Processing that needs the consent to the processing of personal data
 * (152-FZ: studying, attempts, answer files, certificates) is refused with a 403 naming the consent
 * until the person gives it; signing in, reading the text, giving and withdrawing it stay open.
 */
export const requireConsent = async (ctx: Context, next: Next) => {
  const user = ctx.state.user as Principal | undefined;
  if (!user) throw unauthorized();
  if (user.consentGiven !== true) throw new HttpError(403, CONSENT_MSG.neededToStudy, 'consent_required');
  await next();
};

/** Guards `/internal/*` routes that only other services may call. */
export const requireInternal = (internalToken: string) => async (ctx: Context, next: Next) => {
  const given = Buffer.from(ctx.get('x-internal-token'));
  const expected = Buffer.from(internalToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden();
  await next();
};
