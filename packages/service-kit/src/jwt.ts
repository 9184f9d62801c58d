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
    sign: ({ sub, role }) =>
      new SignJWT({ role })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(ttl)
        .sign(key),
  };
};

export const createTokenVerifier = (secret: string): TokenVerifier => {
  const key = encoder.encode(secret);
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
        if (typeof payload.sub !== 'string') return null;
        return { sub: payload.sub, role: payload.role as Role };
      } catch {
        return null;
      }
    },
  };
};
