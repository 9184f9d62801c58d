// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types; these are ours, for every program that compiles this file
/// <reference path="./oidcProviderTypes.d.ts" />
/**
 * A real OpenID provider for the tests: `oidc-provider` (OpenID Certified) on loopback, with one
 * confidential client for the portal, test accounts, and the provider's own development login page
 * (any password is accepted for a known login).
 *
 * Negative tests ask for a deliberately broken ID token (`tamper`): the provider runs the real flow,
 * then the token endpoint's answer carries an ID token re-signed with the provider's own key but
 * for another audience, with another nonce, already expired, or signed by a key the JWKS does not
 * publish. Everything else about the exchange is the provider's.
 *
 * In-process from jest: `startOidcProvider({...})`. As a child process for Playwright:
 * `startOidcProviderProcess` (oidcProviderProcess.ts).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, decodeJwt, type JWK } from 'jose';
import { startProcess, type ManagedProcess } from './processes';
import { ROOT, portAnswers, waitFor } from './util';

export interface TestOidcAccount {
  /** What is typed into the provider's login page. */
  login: string;
  email?: string;
  email_verified?: boolean;
  family_name?: string;
  given_name?: string;
  middle_name?: string;
  department?: string;
  title?: string;
  groups?: string[];
}

export type OidcTamper = 'audience' | 'nonce' | 'expired' | 'signature' | null;

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces an account (by login). */
  addAccount(account: TestOidcAccount): void;
  /** How the next ID tokens are broken (null: not at all). */
  tamper(mode: OidcTamper): void;
  /**
   * Rotates the signing key, as a provider does: a new key (a new `kid`) signs from now on and the
   * JWKS publishes only it. The provider restarts on the same issuer (its sessions are gone).
   */
  rotateKey(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_OIDC_CLIENT_ID = 'portal';

/** The accounts every provider starts with (the Playwright journey signs in as them). */
export const DEFAULT_OIDC_ACCOUNTS: TestOidcAccount[] = [
  {
    login: 'sokolova',
    email: 'sokolova@corp.example.ru',
    email_verified: true,
    family_name: 'Соколова',
    given_name: 'Анна',
    middle_name: 'Игоревна',
    department: 'Отдел продаж',
    title: 'Менеджер по продажам',
    groups: ['portal-learners'],
  },
];

export async function startOidcProvider({
  port = 0,
  redirectUris,
  postLogoutRedirectUris = [],
  accounts = DEFAULT_OIDC_ACCOUNTS,
  clientSecret = randomBytes(24).toString('base64url'),
  idTokenTtl = 600,
}: {
  port?: number;
  /** The portal's callback URL(s) the client may be sent back to. */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  accounts?: TestOidcAccount[];
  clientSecret?: string;
  idTokenTtl?: number;
}): Promise<TestOidcProvider> {
  // oidc-provider is ES-module-only; Node 20 requires it, jest transforms it.
  const { default: Provider } = await import('oidc-provider');
  const byLogin = new Map(accounts.map((a) => [a.login, a]));
  let tamper: OidcTamper = null;

  let keyNumber = 0;
  const newKey = async () => {
    const { privateKey: key } = await generateKeyPair('RS256', { extractable: true });
    keyNumber += 1;
    return { key, jwk: { ...(await exportJWK(key)), kid: `test-key-${keyNumber}`, alg: 'RS256', use: 'sig' } as JWK };
  };
  let { key: privateKey, jwk: signingJwk } = await newKey();
  // Never published: a token signed with it must fail the signature check whatever its header says.
  const { privateKey: strangerKey } = await generateKeyPair('RS256');

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const cookieKey = randomBytes(16).toString('hex');
  const makeProvider = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: TEST_OIDC_CLIENT_ID,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          post_logout_redirect_uris: postLogoutRedirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [signingJwk] },
      cookies: { keys: [cookieKey] },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['family_name', 'given_name', 'middle_name', 'name', 'department', 'title', 'groups'],
      },
      // The claims of the scopes in the ID token itself, as Keycloak and Entra ID put them.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      ttl: { IdToken: idTokenTtl, AccessToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      async findAccount(_ctx, id) {
        const account = byLogin.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          async claims() {
            const { login: _login, ...claims } = account;
            const name = [account.given_name, account.family_name].filter(Boolean).join(' ');
            return { sub: id, ...claims, ...(name ? { name } : {}) };
          },
        };
      },
      // The portal is a first-party client: no consent page after the login page.
      async loadExistingGrant(ctx) {
        const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });

    provider.use(async (ctx, next) => {
      await next();
      if (!tamper || ctx.oidc?.route !== 'token' || ctx.status !== 200) return;
      const body = ctx.body as { id_token?: string } | undefined;
      if (!body?.id_token) return;
      const claims = decodeJwt(body.id_token);
      const now = Math.floor(Date.now() / 1000);
      if (tamper === 'audience') claims.aud = 'another-client';
      if (tamper === 'nonce') claims.nonce = 'a-nonce-of-another-attempt';
      if (tamper === 'expired') Object.assign(claims, { iat: now - 600, exp: now - 300 });
      const key = tamper === 'signature' ? strangerKey : privateKey;
      ctx.body = {
        ...body,
        id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: signingJwk.kid }).sign(key),
      };
    });

    return provider;
  };
  let handler = makeProvider().callback();
  server.on('request', (req, res) => void handler(req, res));

  return {
    issuer,
    clientId: TEST_OIDC_CLIENT_ID,
    clientSecret,
    addAccount(account) {
      byLogin.set(account.login, account);
    },
    tamper(mode) {
      tamper = mode;
    },
    async rotateKey() {
      ({ key: privateKey, jwk: signingJwk } = await newKey());
      handler = makeProvider().callback();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A cookie jar of one browser at the provider: what its Set-Cookie headers set, sent back on every request. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || /expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A browser at the provider, for jest: from the authorization URL the portal sent it to, follows the
 * redirects, fills the provider's real login page (its form, its action) with `login`, and answers
 * the URL the provider sends it back to (on the portal's callback) without opening it.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, password = 'any-password'): Promise<URL> {
  const jar = new CookieJar();
  const issuerOrigin = new URL(authorizationUrl).origin;
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 12; hop++) {
    const res: Response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ?? undefined,
    });
    jar.take(res);
    form = null;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      if (url.origin !== issuerOrigin) return url;
      continue;
    }
    const page: string = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${page.slice(0, 300)}`);
    const hidden: string[][] = [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
    form = new URLSearchParams(hidden.map(([, name, value]) => [name, value]));
    if (/name="login"/.test(page)) {
      form.set('login', login);
      form.set('password', password);
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error('the provider never sent the browser back');
}

/**
 * The provider as a child process (oidcProviderProcess.ts) on a fixed port, for a stack whose auth
 * service must know the issuer before it starts (Playwright). Stopped with the returned process.
 */
export async function startOidcProviderProcess({
  port,
  clientSecret,
  redirectUris,
  postLogoutRedirectUris = [],
  logDir,
}: {
  port: number;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  logDir?: string;
}): Promise<{ issuer: string; clientId: string; process: ManagedProcess }> {
  const issuer = `http://127.0.0.1:${port}`;
  if (await portAnswers(port)) throw new Error(`port ${port} for the tests' OpenID provider is already taken`);
  const proc = startProcess(
    'oidc-provider',
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(ROOT, 'packages/devstack/src/oidcProviderProcess.ts')],
    {
      logDir,
      env: {
        ...process.env,
        OIDC_TEST_PORT: String(port),
        OIDC_TEST_CLIENT_SECRET: clientSecret,
        OIDC_TEST_REDIRECT_URIS: redirectUris.join(','),
        OIDC_TEST_POST_LOGOUT_URIS: postLogoutRedirectUris.join(','),
      },
    },
  );
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`the tests' OpenID provider exited with ${proc.child.exitCode}`);
      return (await fetch(`${issuer}/.well-known/openid-configuration`)).ok;
    },
    "the tests' OpenID provider",
    30_000,
  ).catch(async (err: Error) => {
    await proc.stop();
    throw err;
  });
  return { issuer, clientId: TEST_OIDC_CLIENT_ID, process: proc };
}
