import { SignJWT, jwtVerify } from 'jose';
import type { Role, TokenClaims } from '@portal/contracts';

const ISSUER = 'portal-auth';
const AUDIENCE = 'portal';
const encoder = new TextEncoder();

export interface TokenSigner {
  sign(claims: TokenClaims): Promise<string>;
}
export interface TokenVerifier {
  verify(token: string): Promise<TokenClaims | null>;
}

/** HS256 with a secret only the portal's services hold; the algorithm is pinned, so `alg: none` is refused. */
export const createTokenSigner = (secret: string, ttl = '12h'): TokenSigner => {
  const key = encoder.encode(secret);
  return {
    sign: ({ sub, role, sid }) =>
      new SignJWT({ role, sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(ttl)
        .sign(key),
  };
};

/**
 * Verifies tokens, remembering each good one until it expires (at most a minute): a signature
 * check costs far more than the rest of a typical request. Bad tokens are never remembered.
 */
export const createTokenVerifier = (secret: string, { maxEntries = 10_000, maxAgeMs = 60_000 } = {}): TokenVerifier => {
  const key = encoder.encode(secret);
  const verified = new Map<string, { claims: TokenClaims; until: number }>();
  return {
    async verify(token) {
      const hit = verified.get(token);
      if (hit && hit.until > Date.now()) return hit.claims;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
        // A token without a session could never be ended: refused.
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !payload.sid) return null;
        const claims: TokenClaims = { sub: payload.sub, role: payload.role as Role, sid: payload.sid };
        if (verified.size >= maxEntries) verified.clear();
        verified.set(token, { claims, until: Math.min((payload.exp ?? 0) * 1000, Date.now() + maxAgeMs) });
        return claims;
      } catch {
        verified.delete(token);
        return null;
      }
    },
  };
};
