import { createHmac, timingSafeEqual } from 'node:crypto';
import { SCORM_LIMITS, SCORM_MSG } from '@portal/contracts';
import { forbidden, notFound } from '@portal/service-kit';

/** What a launch token opens: one package's files, for one person, until `exp` (seconds since the epoch). */
export interface LaunchClaims {
  packageId: string;
  userId: string;
  /** The portal page's origin that launched it: the only one the package's frames talk to and are framed by. */
  portalOrigin?: string;
  exp: number;
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(`scorm-launch.${body}`).digest('base64url');

/** `<base64url JSON>.<base64url HMAC-SHA256>`: URL-safe, readable in a path segment. */
export function signLaunchToken(
  secret: string,
  claims: Omit<LaunchClaims, 'exp'>,
  now = Date.now(),
  ttlSeconds: number = SCORM_LIMITS.launchTtlSeconds,
): { token: string; expiresAt: Date } {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const body = Buffer.from(
    JSON.stringify({ p: claims.packageId, u: claims.userId, ...(claims.portalOrigin ? { o: claims.portalOrigin } : {}), e: exp }),
  ).toString('base64url');
  return { token: `${body}.${sign(secret, body)}`, expiresAt: new Date(exp * 1000) };
}

/**
 * The claims of a token this service signed. One it did not sign is an address that does not exist
 * (404 launchInvalid); one past its time is 403 launchExpired.
 */
export function verifyLaunchToken(secret: string, token: string, now = Date.now()): LaunchClaims {
  const [body, mac, ...rest] = token.split('.');
  if (!body || !mac || rest.length) throw notFound(SCORM_MSG.launchInvalid);
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound(SCORM_MSG.launchInvalid);
  let claims: { p?: unknown; u?: unknown; o?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw notFound(SCORM_MSG.launchInvalid);
  }
  if (
    typeof claims.p !== 'string' ||
    typeof claims.u !== 'string' ||
    typeof claims.e !== 'number' ||
    (claims.o !== undefined && typeof claims.o !== 'string')
  )
    throw notFound(SCORM_MSG.launchInvalid);
  if (claims.e * 1000 <= now) throw forbidden(SCORM_MSG.launchExpired);
  return { packageId: claims.p, userId: claims.u, ...(claims.o ? { portalOrigin: claims.o } : {}), exp: claims.e };
}
