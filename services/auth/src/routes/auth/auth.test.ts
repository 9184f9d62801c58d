import { SignJWT } from 'jose';
import { MSG, type AuditEvent } from '@portal/contracts';
import { api, publishedAuditEvents } from '@portal/devstack/testing';

import { userModel } from '../../models/user';
import { ADMIN_PASSWORD, startAuth, uniqueEmail, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth({ LOGIN_MAX_FAILURES: '3', LOGIN_WINDOW_SECONDS: '60' });
});
afterAll(() => auth.close());

/** The session a real token names, so a forged token differs from it only in what a test is about. */
const sidOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;

const register = (body: Record<string, unknown>) => api(auth.url, 'POST', '/api/auth/register', { body });

describe('registration', () => {
  it('creates a CANDIDATE by default and answers user, token and message without secrets', async () => {
    const email = uniqueEmail();
    const { status, body } = await register({ email, password: 'Kursy-Portal-42', fullName: 'Иванова Мария Петровна' });
    expect(status).toBe(201);
    expect(body.user).toMatchObject({
      email,
      fullName: 'Иванова Мария Петровна',
      lastName: 'Иванова',
      firstName: 'Мария',
      middleName: 'Петровна',
      role: 'CANDIDATE',
    });
    expect(body.token).toEqual(expect.any(String));
    expect(body.message).toBe(MSG.registerOk);
    expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
    const stored = await userModel(auth.ctx.store).findOne({ email }).lean();
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it.each(['CLIENT', 'CANDIDATE'])('lets a person choose %s', async (role) => {
    const { status, body } = await register({ email: uniqueEmail(), password: 'Kursy-Portal-42', fullName: 'Пётр', role });
    expect(status).toBe(201);
    expect(body.user.role).toBe(role);
  });

  it('takes CURATOR as an application: the account is a CANDIDATE until an administrator approves', async () => {
    const { status, body } = await register({
      email: uniqueEmail(),
      password: 'Kursy-Portal-42',
      fullName: 'Пётр',
      role: 'CURATOR',
    });
    expect(status).toBe(201);
    expect(body.user.role).toBe('CANDIDATE');
    expect(body.application).toMatchObject({ role: 'CURATOR', status: 'pending' });
  });

  it('refuses MANAGER at registration: it is given only by an administrator', async () => {
    const email = uniqueEmail();
    const { status, body } = await register({ email, password: 'Kursy-Portal-42', fullName: 'Пётр', role: 'MANAGER' });
    expect(status).toBe(403);
    expect(body).toEqual({ message: MSG.roleNotAllowed, statusCode: 403 });
    expect(await userModel(auth.ctx.store).exists({ email })).toBeNull();
  });

  it('treats email as case-insensitive: a second account with other letters is a 409', async () => {
    const email = uniqueEmail();
    expect((await register({ email, password: 'Kursy-Portal-42', fullName: 'Один' })).status).toBe(201);
    const again = await register({ email: email.toUpperCase(), password: 'Kursy-Portal-42', fullName: 'Два' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MSG.emailTaken);
    expect(await userModel(auth.ctx.store).countDocuments({ email })).toBe(1);
  });

  it('names the problem in Russian for missing fields', async () => {
    expect((await register({ email: uniqueEmail(), password: 'Kursy-Portal-42' })).body.message).toBe(
      'Пожалуйста, введите ваше имя',
    );
    expect((await register({ email: uniqueEmail(), password: 'Kursy-Portal-42', fullName: '   ' })).body.message).toBe(
      'Пожалуйста, введите ваше имя',
    );
    expect((await register({ password: 'Kursy-Portal-42', fullName: 'Имя' })).body).toMatchObject({
      message: 'Пожалуйста, заполните все поля',
      statusCode: 400,
      field: 'email',
    });
    expect((await register({ email: 'not-an-email', password: 'Kursy-Portal-42', fullName: 'Имя' })).body.message).toBe(
      MSG.emailInvalid,
    );
    expect((await register({ email: uniqueEmail(), password: 'short', fullName: 'Имя' })).body.message).toBe(
      MSG.passwordTooShort,
    );
  });

  it('answers malformed JSON with a clear 400 and keeps serving', async () => {
    const bad = await api(auth.url, 'POST', '/api/auth/register', {
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: MSG.badJson, statusCode: 400 });
    expect((await api(auth.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('ignores no extra fields silently: unknown keys such as a role escalation field are refused', async () => {
    const { status } = await register({ email: uniqueEmail(), password: 'Kursy-Portal-42', fullName: 'Имя', isAdmin: true });
    expect(status).toBe(400);
  });
});

describe('the first administrator: registering as ADMIN is the bootstrap of an empty portal', () => {
  const asAdmin = (service: typeof auth, adminPassword: string, forwarded = '192.0.2.50', email = uniqueEmail('admin')) =>
    api(service.url, 'POST', '/api/auth/register', {
      body: { email, password: 'Kursy-Portal-42', fullName: 'Первый Администратор', role: 'ADMIN', adminPassword },
      headers: { 'x-forwarded-for': forwarded },
    });

  it('takes the administrator password while the portal has no ADMIN, and refuses in Russian once it has one', async () => {
    const empty = await startAuth();
    try {
      const users = userModel(empty.ctx.store);
      const wrong = await asAdmin(empty, 'wrong');
      expect([wrong.status, wrong.body.message]).toEqual([403, MSG.adminPasswordRequired]);
      const none = await asAdmin(empty, '');
      expect([none.status, none.body.message]).toEqual([403, MSG.adminPasswordRequired]);
      expect(await users.countDocuments({})).toBe(0);
      const first = await asAdmin(empty, ADMIN_PASSWORD);
      expect([first.status, first.body.user.role]).toEqual([201, 'ADMIN']);
      // From now on an ADMIN is an ADMIN's edit, whatever password is sent.
      const second = await asAdmin(empty, ADMIN_PASSWORD);
      expect([second.status, second.body.message]).toEqual([403, MSG.adminExists]);
      expect(await users.countDocuments({ role: 'ADMIN' })).toBe(1);
    } finally {
      await empty.close();
    }
  });

  it('limits guesses of the administrator password per address the gateway decided (429 in Russian), and audits each', async () => {
    const empty = await startAuth({ LOGIN_MAX_FAILURES: '3', LOGIN_WINDOW_SECONDS: '60' });
    try {
      // A burst from one address, each claiming another address in front of the one the gateway appended.
      const burst = await Promise.all(
        Array.from({ length: 15 }, (_, i) => asAdmin(empty, `guess-${i}-x`, `203.0.113.${i}, 192.0.2.60`)),
      );
      expect(burst.filter((a) => a.status === 403)).toHaveLength(3);
      const limited = burst.filter((a) => a.status === 429);
      expect(limited).toHaveLength(12);
      expect(limited[0].body.message).toMatch(
        /^Слишком много неверных попыток ввести пароль администратора\. Попробуйте снова через \d+ с$/,
      );
      // Even the right password waits out the window from that address; another address is not locked out.
      expect((await asAdmin(empty, ADMIN_PASSWORD, '192.0.2.60')).status).toBe(429);
      expect(await userModel(empty.ctx.store).countDocuments({})).toBe(0);
      const failed = (await publishedAuditEvents(empty)).filter((e) =>
        e.details.startsWith('Неудачная попытка регистрации администратора'),
      );
      expect(failed).toHaveLength(3);
      expect(failed[0]).toMatchObject({ action: 'create', entity: 'user', actor: null });
      expect(failed[0].details).toContain('адрес 192.0.2.60');
      expect(JSON.stringify(failed)).not.toMatch(/guess-\d+-x/);
      expect((await asAdmin(empty, ADMIN_PASSWORD, '192.0.2.61')).status).toBe(201);
    } finally {
      await empty.close();
    }
  });
});

describe('sign-in', () => {
  it('signs in with the right password and refuses a wrong one', async () => {
    const email = uniqueEmail();
    await register({ email, password: 'Kursy-Portal-42', fullName: 'Ирина' });
    const ok = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email: email.toUpperCase(), password: 'Kursy-Portal-42' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ user: { email }, message: MSG.loginOk });
    const wrong = await api(auth.url, 'POST', '/api/auth/login', { body: { email, password: 'nope-nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe(MSG.badCredentials);
  });

  it('refuses operator objects instead of matching any account', async () => {
    const { status } = await api(auth.url, 'POST', '/api/auth/login', { body: { email: { $ne: '' }, password: { $ne: '' } } });
    expect(status).toBe(400);
  });

  it('slows down guessing: after the limit even the right password gets 429, other accounts do not', async () => {
    const email = uniqueEmail('victim');
    await register({ email, password: 'Kursy-Portal-42', fullName: 'Жертва' });
    for (let i = 0; i < 3; i++) {
      expect((await api(auth.url, 'POST', '/api/auth/login', { body: { email, password: `guess-${i}-x` } })).status).toBe(401);
    }
    const blocked = await api(auth.url, 'POST', '/api/auth/login', { body: { email, password: 'Kursy-Portal-42' } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Слишком много неудачных попыток входа. Попробуйте снова через \d+ с/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    const other = uniqueEmail();
    await register({ email: other, password: 'Kursy-Portal-42', fullName: 'Другой' });
    expect((await api(auth.url, 'POST', '/api/auth/login', { body: { email: other, password: 'Kursy-Portal-42' } })).status).toBe(
      200,
    );

    // The window has passed: its counts (for the email, and for the address with the email) are gone.
    const counts = await auth.ctx.redis.keys(`auth:fail:${auth.ctx.config.DB_PREFIX}*${email}`);
    expect(counts.length).toBeGreaterThan(0);
    await auth.ctx.redis.del(...counts);
    expect((await api(auth.url, 'POST', '/api/auth/login', { body: { email, password: 'Kursy-Portal-42' } })).status).toBe(200);
  });
});

describe('the login limit under attack', () => {
  const guess = (email: string, i: number, forwarded: string) =>
    api(auth.url, 'POST', '/api/auth/login', {
      body: { email, password: `guess-${i}-x` },
      headers: { 'x-forwarded-for': forwarded },
    });

  it('checks at most the limit of a burst of parallel guesses; the rest get 429', async () => {
    const email = uniqueEmail('burst');
    await register({ email, password: 'Kursy-Portal-42', fullName: 'Жертва' });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => guess(email, i, '192.0.2.10')));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(9);
  });

  it('counts per address the gateway appended, whatever the client wrote to its left', async () => {
    // Limit 3 per address and email here; every guess claims a new address in front of the real one.
    const email = uniqueEmail('forged');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess(email, i, `203.0.113.${i}, 192.0.2.20`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('lets a colleague sign in from an address that 20 guesses at made-up emails came from', async () => {
    const email = uniqueEmail('colleague');
    await register({ email, password: 'Kursy-Portal-42', fullName: 'Коллега' });
    for (let i = 0; i < 20; i++) expect((await guess(uniqueEmail('madeup'), i, '192.0.2.30')).status).toBe(401);
    const colleague = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email, password: 'Kursy-Portal-42' },
      headers: { 'x-forwarded-for': '192.0.2.30' },
    });
    expect(colleague.status).toBe(200);
    expect(colleague.body.user.email).toBe(email);
  });

  it('limits one email guessed from many addresses (4 × the limit), even for the right password', async () => {
    const email = uniqueEmail('spread');
    await register({ email, password: 'Kursy-Portal-42', fullName: 'Жертва' });
    // 3 per address (the per-address limit), from 4 addresses: 12 failures for the email.
    for (let i = 0; i < 12; i++) expect((await guess(email, i, `198.51.100.${Math.floor(i / 3)}`)).status).toBe(401);
    const blocked = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email, password: 'Kursy-Portal-42' },
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(blocked.status).toBe(429);
  });

  it('audits a failed login without the password, naming the account or the unknown email', async () => {
    const email = uniqueEmail('audited');
    const registered = await register({ email, password: 'Kursy-Portal-42', fullName: 'Проверяемый' });
    const ghost = uniqueEmail('ghost');
    await guess(email, 1, '192.0.2.40');
    await guess(ghost, 2, '192.0.2.40');
    await auth.ctx.audit.flush();
    const jobs = await auth.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
    const failed = jobs.map((j) => j.data as AuditEvent).filter((e) => e.action === 'login' && e.actor === null);
    const forUser = failed.find((e) => e.entityId === registered.body.user.id);
    const forGhost = failed.find((e) => e.entityId === ghost);
    expect(forUser?.details).toMatch(/Неудачная попытка входа: неверный пароль/);
    expect(forUser?.details).toContain('192.0.2.40');
    expect(forGhost?.details).toMatch(/Неудачная попытка входа: нет пользователя/);
    // The record keeps its kind and data, so the history and the feed read it without parsing the text.
    expect(forUser).toMatchObject({ code: 'signIn.failed', data: { email, address: '192.0.2.40', reason: 'wrongPassword' } });
    expect(forGhost).toMatchObject({ code: 'signIn.failed', data: { email: ghost, reason: 'noAccount' } });
    expect(JSON.stringify(failed)).not.toMatch(/guess-\d-x/);
  });
});

describe('tokens', () => {
  it('answers the profile and verify for a valid token', async () => {
    const session = await userWithRole(auth, 'CLIENT', 'Смирнов Олег');
    const profile = await api(auth.url, 'GET', '/api/auth/profile', { token: session.token });
    expect(profile.status).toBe(200);
    expect(profile.body.user).toMatchObject({ id: session.user.id, firstName: 'Олег', role: 'CLIENT' });
    const verify = await api(auth.url, 'GET', '/api/auth/verify', { token: session.token });
    expect(verify.body).toMatchObject({ valid: true, user: { id: session.user.id } });
  });

  it('refuses a missing, tampered, unsigned or foreign-key token with 401', async () => {
    const session = await userWithRole(auth, 'CLIENT');
    expect((await api(auth.url, 'GET', '/api/auth/profile')).status).toBe(401);
    const [h, p, s] = session.token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'ADMIN' })).toString('base64url')}.${s}`;
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: tampered })).status).toBe(401);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: none })).status).toBe(401);
    const foreign = await new SignJWT({ role: 'ADMIN', sid: sidOf(session.token) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.user.id)
      .setIssuer('portal-auth')
      .setAudience('portal')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const answer = await api(auth.url, 'GET', '/api/auth/profile', { token: foreign });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(MSG.badToken);
  });

  it('refuses an expired token', async () => {
    const session = await userWithRole(auth, 'CLIENT');
    const expired = await new SignJWT({ role: 'CLIENT', sid: sidOf(session.token) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.user.id)
      .setIssuer('portal-auth')
      .setAudience('portal')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(auth.ctx.config.JWT_SECRET));
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: expired })).status).toBe(401);
  });

  it('stops honouring the token of a deleted user', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const doomed = await userWithRole(auth, 'CANDIDATE');
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: doomed.token })).status).toBe(200);
    expect((await api(auth.url, 'DELETE', `/api/users/${doomed.user.id}`, { token: admin.token })).status).toBe(204);
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: doomed.token })).status).toBe(401);
  });
});

describe('logout and audit', () => {
  it('publishes login and logout events to the audit queue', async () => {
    const session = await userWithRole(auth, 'CLIENT');
    expect((await api(auth.url, 'POST', '/api/auth/logout', { token: session.token })).status).toBe(204);
    await auth.ctx.audit.flush();
    const jobs = await auth.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
    const mine = jobs
      .filter((j) => j.data.actor?.id === session.user.id)
      .map((j) => j.data.action)
      .sort();
    expect(mine).toEqual(['login', 'logout']);
  });
});
