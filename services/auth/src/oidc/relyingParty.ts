/**
 * The portal as an OpenID Connect relying party, on openid-client (OpenID Certified): the
 * authorization code flow with PKCE, state and nonce. One Configuration per process: discovery once,
 * and openid-client keeps the provider's JWKS with it (fetched again for an unknown key, so a
 * rotation is followed). A failed discovery is not kept: the next sign-in discovers again.
 */
import * as client from 'openid-client';
import type { SsoErrorCode } from '@portal/contracts';
import { portalLink } from '@portal/service-kit';
import type { AuthConfig } from '../config';

/** Seconds of clock difference accepted on the ID token's iat/exp (the issue allows at most 60). */
export const CLOCK_TOLERANCE_SECONDS = 30;
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The per-attempt secrets kept (in Redis) between the start and the callback. */
export interface Attempt {
  codeVerifier: string;
  nonce: string;
  /** The portal path to come back to (`?next=` of /auth), already checked to be a path of the portal. */
  returnTo: string;
}

/** A failure of a sign-in: the code /auth shows a message for, and the technical reason for the log. */
export class SignInRefused extends Error {
  constructor(
    readonly code: SsoErrorCode,
    reason: string,
  ) {
    super(reason);
  }
}

/** Only a plain-HTTP issuer on this machine (the tests' provider) is allowed without TLS. */
const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** The messages of an error and its causes, for the log (no claims, no secrets). */
export const reasonOf = (err: unknown): string => {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${e.message} (${code})` : e.message);
  }
  return parts.join(' ← ') || String(err);
};

/** Which Russian message a failed exchange gets: by what openid-client found wrong. */
export function classify(err: unknown): SsoErrorCode {
  if (err instanceof client.AuthorizationResponseError) return 'denied';
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const cause = e.cause as { claim?: unknown } | undefined;
    if (/signature verification failed/i.test(e.message)) return 'signature';
    if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return 'expired';
    if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && cause?.claim === 'nonce') return 'nonce';
    if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && (cause?.claim === 'aud' || cause?.claim === 'azp')) return 'audience';
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return 'unavailable';
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'unavailable';
    if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') return 'unavailable';
  }
  return 'rejected';
}

export class RelyingParty {
  private configuration: Promise<client.Configuration> | null = null;
  readonly redirectUrl: string;
  readonly postLogoutUrl: string;

  constructor(private readonly config: AuthConfig) {
    this.redirectUrl = config.OIDC_REDIRECT_URL ?? portalLink(config, '/api/auth/oidc/callback');
    // Back to the portal the callback belongs to, on its sign-in page.
    this.postLogoutUrl = new URL('/auth', this.redirectUrl).href;
  }

  /** The provider's configuration: discovered once per process; a failure is forgotten, so the next call tries again. */
  discovered(): Promise<client.Configuration> {
    this.configuration ??= this.discover().catch((err: unknown) => {
      this.configuration = null;
      throw new SignInRefused('unavailable', `discovery failed: ${reasonOf(err)}`);
    });
    return this.configuration;
  }

  private async discover(): Promise<client.Configuration> {
    const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } = this.config;
    if (!OIDC_ISSUER || !OIDC_CLIENT_ID) throw new Error('OIDC_ISSUER and OIDC_CLIENT_ID are not set');
    const issuer = new URL(OIDC_ISSUER);
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
    return client.discovery(
      issuer,
      OIDC_CLIENT_ID,
      { [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
      OIDC_CLIENT_SECRET ? client.ClientSecretBasic(OIDC_CLIENT_SECRET) : client.None(),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // The ID token's signature is checked against the provider's JWKS (openid-client skips it by
        // default for a token received over TLS); an unknown key makes it fetch the JWKS again.
        execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
      },
    );
  }

  /** A new attempt: its secrets (to keep until the callback), its state, and where to send the browser. */
  async start(returnTo: string): Promise<{ state: string; attempt: Attempt; url: string }> {
    const configuration = await this.discovered();
    const attempt: Attempt = { codeVerifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce(), returnTo };
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUrl,
      scope: this.config.OIDC_SCOPES,
      code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce: attempt.nonce,
    });
    return { state, attempt, url: url.href };
  }

  /**
   * The callback: the code is exchanged (PKCE), and the ID token's signature, issuer, audience,
   * expiry and nonce checked by openid-client. Answers the ID token's claims, completed from
   * UserInfo where the provider keeps them there, and the raw ID token (the hint of a later sign-out).
   */
  async finish(query: string, state: string, attempt: Attempt): Promise<{ claims: Record<string, unknown>; idToken?: string }> {
    const configuration = await this.discovered();
    const current = new URL(this.redirectUrl);
    current.search = query;
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedNonce: attempt.nonce,
        expectedState: state,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new SignInRefused(classify(err), `code exchange refused: ${reasonOf(err)}`);
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw new SignInRefused('rejected', 'no ID token in the token response');
    let userInfo: Record<string, unknown> = {};
    if (configuration.serverMetadata().userinfo_endpoint && tokens.access_token) {
      try {
        userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      } catch (err) {
        // The ID token is enough when it carries the claims; UserInfo only completes it.
        if (classify(err) !== 'unavailable') throw new SignInRefused(classify(err), `userinfo refused: ${reasonOf(err)}`);
      }
    }
    return { claims: { ...userInfo, ...idClaims }, idToken: tokens.id_token };
  }

  /** Where the browser goes to end the provider's session too, when the provider offers it (else null). */
  async endSessionUrl(idToken: string | null): Promise<string | null> {
    const configuration = await this.discovered().catch(() => null);
    if (!configuration?.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(configuration, {
      post_logout_redirect_uri: this.postLogoutUrl,
      ...(idToken ? { id_token_hint: idToken } : {}),
    }).href;
  }
}
