import net, { type AddressInfo } from 'node:net';
import { LOCAL_LOGIN_MSG, SSO_ERRORS, type AuthResponse, type SsoErrorCode } from '@portal/contracts';
import { api, publishedAuditEvents, type TestService } from '@portal/devstack/testing';
import { signInAtProvider, startOidcProvider, type TestOidcAccount, type TestOidcProvider } from '@portal/devstack/oidcProvider';
import type { AuthConfig } from '../../config';
import { userModel } from '../../models/user';
import { startAuth, uniqueEmail, userWithRole } from '../../testing';

/** The portal's address as the provider knows it; the test sends the browser's steps to the service itself. */
const PORTAL = 'http://portal.test';
const CALLBACK = `${PORTAL}/api/auth/oidc/callback`;

let provider: TestOidcProvider;
let auth: TestService<AuthConfig>;
const logged: unknown[] = [];

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [CALLBACK], postLogoutRedirectUris: [`${PORTAL}/auth`], accounts: [] });
  auth = await startAuth({
    PUBLIC_URL: PORTAL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_DISPLAY_NAME: 'Keycloak компании',
    OIDC_GROUP_ROLES: JSON.stringify({ 'portal-curators': 'CURATOR', 'portal-admins': 'ADMIN' }),
  });
  for (const level of ['info', 'warn', 'error'] as const)
    jest.spyOn(auth.ctx.logger, level).mockImplementation((...args: unknown[]) => void logged.push(args));
});
afterEach(() => provider.tamper(null));
afterAll(async () => {
  await auth?.close();
  await provider?.close();
});

let serial = 0;
/** A person at the provider, with a fresh login and email. */
function employee(overrides: Partial<TestOidcAccount> = {}): TestOidcAccount {
  const account: TestOidcAccount = {
    login: `emp${Date.now().toString(36)}${serial++}`,
    email: uniqueEmail('corp'),
    email_verified: true,
    family_name: 'Соколова',
    given_name: 'Анна',
    middle_name: 'Игоревна',
    department: 'Отдел продаж',
    title: 'Менеджер по продажам',
    groups: [],
    ...overrides,
  };
  provider.addAccount(account);
  return account;
}

/** The portal's /auth address the service sends the browser to at the end. */
interface Landing {
  sso: string | null;
  ssoError: SsoErrorCode | null;
  next: string | null;
}
const landing = (location: string | null): Landing => {
  if (!location?.startsWith('/auth?')) throw new Error(`not sent back to /auth: ${location}`);
  const params = new URL(location, PORTAL).searchParams;
  return { sso: params.get('sso'), ssoError: params.get('ssoError') as SsoErrorCode | null, next: params.get('next') };
};

/** The browser at the portal: opens a URL of the portal (as the provider wrote it) on the service. */
const openAtPortal = (url: URL) => fetch(`${auth.url}${url.pathname}${url.search}`, { redirect: 'manual' });

/** Start → the provider's login page → the callback: the callback URL, before the portal opens it. */
async function throughProvider(login: string, returnTo = '/courses'): Promise<URL> {
  const start = await fetch(`${auth.url}/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const toProvider = start.headers.get('location')!;
  expect(toProvider.startsWith(provider.issuer)).toBe(true);
  const back = await signInAtProvider(toProvider, login);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  return back;
}

/** A whole corporate sign-in: where /auth was sent, and the session its code gives. */
async function signIn(login: string, returnTo?: string) {
  const callback = await openAtPortal(await throughProvider(login, returnTo));
  expect(callback.status).toBe(302);
  const landed = landing(callback.headers.get('location'));
  const session = landed.sso
    ? await api<AuthResponse>(auth.url, 'POST', '/api/auth/oidc/session', { body: { code: landed.sso } })
    : null;
  return { landed, session };
}

const isRussian = (text: string) => /[а-яё]/i.test(text) && !/[a-z]{4,}/i.test(text);

describe('corporate sign-in through a real OpenID provider', () => {
  it('tells /auth it is on, with the provider’s name and the password sign-in left open', async () => {
    const { status, body } = await api(auth.url, 'GET', '/api/auth/oidc');
    expect(status).toBe(200);
    expect(body).toEqual({ enabled: true, displayName: 'Keycloak компании', localLogin: 'all' });
  });

  it('creates the person at the first sign-in with the mapped role, department and ФИО, and still asks the consent', async () => {
    const person = employee({ groups: ['portal-curators', 'everyone'] });
    const { landed, session } = await signIn(person.login, '/courses');
    expect(landed.ssoError).toBeNull();
    expect(landed.next).toBe('/courses');
    expect(session?.status).toBe(200);
    expect(session?.body.user).toMatchObject({
      email: person.email,
      fullName: 'Соколова Анна Игоревна',
      middleName: 'Игоревна',
      department: 'Отдел продаж',
      position: 'Менеджер по продажам',
      role: 'CURATOR',
    });
    const token = session!.body.token;
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token })).body.user.email).toBe(person.email);
    // Asked as anyone else is: the consent is not given yet.
    const consent = await api(auth.url, 'GET', '/api/consent', { token });
    expect(consent.status).toBe(200);
    expect(consent.body).toMatchObject({ required: true, consent: null });
    // Nobody can sign in with a password the account never had.
    const stored = await userModel(auth.ctx.store).findOne({ email: person.email }).lean();
    expect(stored?.passwordHash).toMatch(/^!unset:/);
    const events = await publishedAuditEvents(auth);
    const login = events.find((e) => e.action === 'login' && e.entityId === session!.body.user.id);
    expect(login?.details).toMatch(/через корпоративный аккаунт/);
  });

  it('finds the same person at the second sign-in, and takes the new department from the provider', async () => {
    const person = employee({ groups: ['portal-curators'] });
    const first = await signIn(person.login);
    provider.addAccount({ ...person, department: 'Отдел логистики', groups: [] });
    const second = await signIn(person.login);
    expect(second.session?.status).toBe(200);
    expect(second.session?.body.user.id).toBe(first.session?.body.user.id);
    expect(second.session?.body.user.department).toBe('Отдел логистики');
    // The role is the groups' only when the person is made (docs/decisions: corporate sign-in).
    expect(second.session?.body.user.role).toBe('CURATOR');
    expect(await userModel(auth.ctx.store).countDocuments({ email: person.email })).toBe(1);
  });

  it('follows a rotation of the provider’s signing key: the new key is fetched from its JWKS, and the person signs in', async () => {
    const person = employee();
    const before = await signIn(person.login);
    expect(before.session?.status).toBe(200);
    // The portal keeps the JWKS it read; the provider now signs with a key that JWKS did not have.
    // openid-client reads the JWKS again for an unknown key once its copy is a minute old (sooner
    // would let anyone make it fetch at will): a minute later, the new key is found.
    await provider.rotateKey();
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + 61_000);
    const after = await signIn(person.login).finally(() => clock.mockRestore());
    expect(after.landed.ssoError).toBeNull();
    expect(after.session?.status).toBe(200);
    expect(after.session?.body.user.id).toBe(before.session?.body.user.id);
  });

  it('links an existing account when the provider asserts the same email verified', async () => {
    const existing = await userWithRole(auth, 'CLIENT', 'Орлов Пётр');
    const person = employee({ email: existing.user.email, email_verified: true });
    const { session } = await signIn(person.login);
    expect(session?.status).toBe(200);
    expect(session?.body.user.id).toBe(existing.user.id);
    expect(session?.body.user.role).toBe('CLIENT');
  });

  it('never links an existing account to an unverified email, and makes no second account', async () => {
    const existing = await userWithRole(auth, 'MANAGER', 'Захаров Илья');
    const person = employee({ email: existing.user.email, email_verified: false, groups: ['portal-admins'] });
    const { landed, session } = await signIn(person.login);
    expect(session).toBeNull();
    expect(landed.ssoError).toBe('unverified');
    expect(isRussian(SSO_ERRORS.unverified)).toBe(true);
    const stored = await userModel(auth.ctx.store).find({ email: existing.user.email }).lean();
    expect(stored).toHaveLength(1);
    expect(stored[0].identities ?? []).toEqual([]);
    expect(stored[0].role).toBe('MANAGER');
  });

  it('grants ADMIN only from a group the mapping names for ADMIN', async () => {
    const lookalike = employee({ groups: ['admins', 'Portal-Admins', 'portal-admins-deputies', 'Domain Admins'] });
    expect((await signIn(lookalike.login)).session?.body.user.role).toBe('CLIENT');
    const named = employee({ groups: ['portal-admins'] });
    expect((await signIn(named.login)).session?.body.user.role).toBe('ADMIN');
  });

  it('refuses a provider answer without an email, and creates nobody', async () => {
    const person = employee({ email: undefined });
    const { landed } = await signIn(person.login);
    expect(landed.ssoError).toBe('email');
    expect(await userModel(auth.ctx.store).countDocuments({ identities: { $elemMatch: { subject: person.login } } })).toBe(0);
  });

  it('refuses a person the directory sync suspended, at once', async () => {
    const person = employee();
    const first = await signIn(person.login);
    await userModel(auth.ctx.store).updateOne(
      { _id: first.session!.body.user.id },
      { $set: { directory: { id: 'x', dn: 'uid=x', suspendedAt: new Date(), deactivatedAt: null, reason: 'вне области' } } },
    );
    const again = await signIn(person.login);
    expect(again.session).toBeNull();
    expect(again.landed.ssoError).toBe('suspended');
  });

  it('forgets the link of a person anonymised on request (152-FZ): the next corporate sign-in is a new person', async () => {
    const person = employee();
    const first = await signIn(person.login);
    const id = first.session!.body.user.id;
    const anonymised = await api(auth.url, 'POST', `/internal/subjects/${id}/anonymise`, {
      headers: { 'x-internal-token': auth.ctx.config.INTERNAL_TOKEN },
      body: { alias: 'Удалённый пользователь №00000001', fullName: 'Соколова Анна Игоревна', email: person.email },
    });
    expect(anonymised.status).toBe(200);
    const again = await signIn(person.login);
    expect(again.session?.status).toBe(200);
    expect(again.session?.body.user.id).not.toBe(id);
    expect((await userModel(auth.ctx.store).findById(id).lean())?.fullName).toBe('Удалённый пользователь №00000001');
  });

  it('lets a one-time code be exchanged once', async () => {
    const person = employee();
    const callback = await openAtPortal(await throughProvider(person.login));
    const { sso } = landing(callback.headers.get('location'));
    expect((await api(auth.url, 'POST', '/api/auth/oidc/session', { body: { code: sso } })).status).toBe(200);
    const again = await api(auth.url, 'POST', '/api/auth/oidc/session', { body: { code: sso } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(SSO_ERRORS.code);
  });
});

describe('what the portal refuses', () => {
  /** A sign-in that must fail: the code /auth is sent, and nobody was made or linked. */
  async function refused(
    login: string,
    email: string | undefined,
    change?: (callback: URL) => URL,
  ): Promise<SsoErrorCode | null> {
    const callback = await throughProvider(login);
    const answer = await openAtPortal(change ? change(callback) : callback);
    expect(answer.status).toBe(302);
    const { sso, ssoError } = landing(answer.headers.get('location'));
    expect(sso).toBeNull();
    expect(await userModel(auth.ctx.store).countDocuments({ email })).toBe(0);
    expect(isRussian(SSO_ERRORS[ssoError!])).toBe(true);
    return ssoError;
  }

  it('refuses a wrong state', async () => {
    const person = employee();
    const code = await refused(person.login, person.email, (callback) => {
      const forged = new URL(callback);
      forged.searchParams.set('state', 'a-state-the-portal-never-issued');
      return forged;
    });
    expect(code).toBe('state');
  });

  it('refuses a replayed callback: a state is used once', async () => {
    const person = employee();
    const callback = await throughProvider(person.login);
    expect(landing((await openAtPortal(callback)).headers.get('location')).sso).not.toBeNull();
    expect(landing((await openAtPortal(callback)).headers.get('location')).ssoError).toBe('state');
  });

  it.each<[string, Parameters<TestOidcProvider['tamper']>[0], SsoErrorCode]>([
    ['the nonce of another attempt', 'nonce', 'nonce'],
    ['another audience', 'audience', 'audience'],
    ['an expiry in the past', 'expired', 'expired'],
    ['a signature by a key not in the JWKS', 'signature', 'signature'],
  ])('refuses an ID token with %s', async (_what, mode, expected) => {
    const person = employee();
    provider.tamper(mode);
    expect(await refused(person.login, person.email)).toBe(expected);
  });

  it('sends the browser back with a message while the provider is down, and discovers it again once it is up', async () => {
    // A port nobody answers on yet; the provider starts there later.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = await startAuth({
      PUBLIC_URL: PORTAL,
      OIDC_ISSUER: `http://127.0.0.1:${port}`,
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 'a-secret-of-the-late-provider',
    });
    let late: TestOidcProvider | undefined;
    try {
      const start = () => fetch(`${down.url}/api/auth/oidc/start`, { redirect: 'manual' });
      const refused = await start();
      expect(refused.status).toBe(302);
      expect(landing(refused.headers.get('location')).ssoError).toBe('unavailable');
      late = await startOidcProvider({
        port,
        redirectUris: [CALLBACK],
        accounts: [],
        clientSecret: 'a-secret-of-the-late-provider',
      });
      const sent = await start();
      expect(sent.status).toBe(302);
      expect(sent.headers.get('location')).toMatch(new RegExp(`^${late.issuer}/`));
    } finally {
      await down.close();
      await late?.close();
    }
  });

  it('never lets the client secret reach an answer, a log line or an audit record', async () => {
    const person = employee();
    const { session } = await signIn(person.login);
    provider.tamper('signature');
    await signIn(person.login);
    const answers = await Promise.all([
      api(auth.url, 'GET', '/api/auth/oidc'),
      api(auth.url, 'GET', '/api/auth/oidc/logout-url', { token: session!.body.token }),
    ]);
    const seen = JSON.stringify([session?.body, answers.map((a) => a.body), logged, await publishedAuditEvents(auth)]);
    expect(logged.length).toBeGreaterThan(0);
    expect(seen).not.toContain(provider.clientSecret);
  });
});

describe('sign-out', () => {
  it('sends a corporate session to the provider’s end-session page, and keeps a password session in the portal', async () => {
    const person = employee();
    const { session } = await signIn(person.login);
    const corporate = await api(auth.url, 'GET', '/api/auth/oidc/logout-url', { token: session!.body.token });
    expect(corporate.status).toBe(200);
    const url = new URL(corporate.body.url);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PORTAL}/auth`);
    expect(url.searchParams.get('id_token_hint')).toEqual(expect.any(String));
    const local = await userWithRole(auth, 'CLIENT');
    expect((await api(auth.url, 'GET', '/api/auth/oidc/logout-url', { token: local.token })).body).toEqual({ url: null });
  });
});

describe('LOCAL_LOGIN', () => {
  let strict: TestService<AuthConfig>;
  beforeAll(async () => {
    strict = await startAuth({ LOCAL_LOGIN: 'admins' });
  });
  afterAll(() => strict?.close());

  it('admins: refuses a learner’s password sign-in and keeps the break-glass ADMIN’s', async () => {
    const admin = await userWithRole(strict, 'ADMIN');
    expect(admin.user.role).toBe('ADMIN');
    const learner = await userModel(strict.ctx.store).create({
      email: uniqueEmail('learner'),
      fullName: 'Учащийся Иван',
      role: 'CLIENT',
      passwordHash: (await userModel(strict.ctx.store).findById(admin.user.id).lean())!.passwordHash,
    });
    const refused = await api(strict.url, 'POST', '/api/auth/login', {
      body: { email: learner.email, password: 'Kursy-Portal-42' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(LOCAL_LOGIN_MSG.passwordOff);
    // A wrong password is the usual 401: the refusal tells nothing about whose account it is.
    const wrong = await api(strict.url, 'POST', '/api/auth/login', { body: { email: learner.email, password: 'wrong-pass-1' } });
    expect(wrong.status).toBe(401);
    const kept = await api(strict.url, 'POST', '/api/auth/login', {
      body: { email: admin.user.email, password: 'Kursy-Portal-42' },
    });
    expect(kept.status).toBe(200);
    expect((await api(strict.url, 'GET', '/api/auth/oidc')).body.localLogin).toBe('admins');
  });

  it('admins: refuses self-registration and «Забыли пароль?» in Russian, and creates nothing', async () => {
    const email = uniqueEmail('self');
    const registered = await api(strict.url, 'POST', '/api/auth/register', {
      body: { email, password: 'Kursy-Portal-42', fullName: 'Новый Человек' },
    });
    expect([registered.status, registered.body.message]).toEqual([403, LOCAL_LOGIN_MSG.registrationOff]);
    expect(await userModel(strict.ctx.store).exists({ email })).toBeNull();
    const forgot = await api(strict.url, 'POST', '/api/auth/forgot-password', { body: { email } });
    expect([forgot.status, forgot.body.message]).toEqual([403, LOCAL_LOGIN_MSG.resetOff]);
  });

  it('without OIDC_ISSUER: /auth is told the corporate sign-in is off, and its steps answer 404 in Russian', async () => {
    expect((await api(strict.url, 'GET', '/api/auth/oidc')).body).toMatchObject({ enabled: false });
    const start = await api(strict.url, 'GET', '/api/auth/oidc/start');
    expect([start.status, start.body.message]).toEqual([404, SSO_ERRORS.disabled]);
  });

  it('none: refuses every password sign-in, the ADMIN’s too', async () => {
    const none = await startAuth({ LOCAL_LOGIN: 'none' });
    try {
      const admin = await userModel(none.ctx.store).create({
        email: uniqueEmail('admin'),
        fullName: 'Админ',
        role: 'ADMIN',
        passwordHash: (await userModel(strict.ctx.store).findOne({ role: 'ADMIN' }).lean())!.passwordHash,
      });
      const answer = await api(none.url, 'POST', '/api/auth/login', {
        body: { email: admin.email, password: 'Kursy-Portal-42' },
      });
      expect([answer.status, answer.body.message]).toEqual([403, LOCAL_LOGIN_MSG.passwordOff]);
    } finally {
      await none.close();
    }
  });
});
