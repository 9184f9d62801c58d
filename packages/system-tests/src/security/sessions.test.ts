import { createHash } from 'node:crypto';
import { MSG, type AuthResponse, type PasswordResetLink } from '@portal/contracts';
import { Types } from 'mongoose';
import { api } from '@portal/devstack/testing';
import { sweepExpired } from '@portal/svc-auth/commands/sessions';
import { uniqueEmail, userWithRole } from '@portal/svc-auth/testing';
import { startContent, type ContentTestBed } from '@portal/svc-content/testing';

// Sessions end at once everywhere: the content service caches who is behind a token, and must
// refuse a token whose session ended on the very next request.
const PASSWORD = 'Kursy-Portal-42'; // userWithRole's
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
}, 60_000);
afterAll(() => bed.close());

const login = (email: string, password = PASSWORD) =>
  api<AuthResponse>(bed.auth.url, 'POST', '/api/auth/login', { body: { email, password } });
const signIn = async (email: string, password = PASSWORD): Promise<AuthResponse> => {
  const answer = await login(email, password);
  expect(answer.status).toBe(200);
  return answer.body;
};
/** A read in another service (content) and one in auth: what a person does next. */
const statuses = async (token: string) => [
  (await api(bed.content.url, 'GET', '/api/courses', { token })).status,
  (await api(bed.auth.url, 'GET', '/api/auth/profile', { token })).status,
];
const sessionsIn = (userId: string) =>
  bed.auth.ctx.store.collection('sessions').countDocuments({ userId: new Types.ObjectId(userId) });

describe('logout', () => {
  it('ends this session at once in every service, and only this one', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    const otherDevice = await signIn(person.user.email);
    // Both sessions warm the content service's principal cache.
    expect(await statuses(person.token)).toEqual([200, 200]);
    expect(await statuses(otherDevice.token)).toEqual([200, 200]);
    expect((await api(bed.auth.url, 'POST', '/api/auth/logout', { token: person.token })).status).toBe(204);
    expect(await statuses(person.token)).toEqual([401, 401]);
    const refused = await api(bed.content.url, 'GET', '/api/courses', { token: person.token });
    expect(refused.body.message).toBe(MSG.badToken);
    expect(await statuses(otherDevice.token)).toEqual([200, 200]);
  });

  it('a write with a token whose session ended is refused and changes nothing', async () => {
    const curator = await userWithRole(bed.auth, 'CURATOR');
    expect((await api(bed.content.url, 'GET', '/api/courses', { token: curator.token })).status).toBe(200);
    await api(bed.auth.url, 'POST', '/api/auth/logout', { token: curator.token });
    const create = await api(bed.content.url, 'POST', '/api/courses', { token: curator.token, body: { title: 'После выхода' } });
    expect(create.status).toBe(401);
    expect(await bed.models.courses.countDocuments({ title: 'После выхода' })).toBe(0);
  });

  it('«Выйти на всех устройствах» ends every session of the person, in every service', async () => {
    const person = await userWithRole(bed.auth, 'CANDIDATE');
    const second = await signIn(person.user.email);
    const third = await signIn(person.user.email);
    for (const s of [person, second, third]) expect(await statuses(s.token)).toEqual([200, 200]);
    expect((await api(bed.auth.url, 'POST', '/api/auth/logout-all', { token: second.token })).status).toBe(204);
    for (const s of [person, second, third]) expect(await statuses(s.token)).toEqual([401, 401]);
    expect(await sessionsIn(person.user.id)).toBe(0);
    // Signing in again works: nothing is locked.
    expect(await statuses((await signIn(person.user.email)).token)).toEqual([200, 200]);
  });

  it('logout and logout-all need a live session (401 otherwise)', async () => {
    expect((await api(bed.auth.url, 'POST', '/api/auth/logout')).status).toBe(401);
    expect((await api(bed.auth.url, 'POST', '/api/auth/logout-all')).status).toBe(401);
    const person = await userWithRole(bed.auth, 'CLIENT');
    await api(bed.auth.url, 'POST', '/api/auth/logout', { token: person.token });
    expect((await api(bed.auth.url, 'POST', '/api/auth/logout-all', { token: person.token })).status).toBe(401);
  });
});

describe('session expiry', () => {
  it('a session lives as long as its token; an expired one is refused, and the sweep deletes it', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    const sessions = bed.auth.ctx.store.collection('sessions');
    const stored = await sessions.findOne({ userId: new Types.ObjectId(person.user.id) });
    const { exp } = JSON.parse(Buffer.from(person.token.split('.')[1], 'base64url').toString()) as { exp: number };
    // TOKEN_TTL (12 h) for both, within the second the token was signed in.
    expect(Math.abs(stored!.expiresAt.getTime() - exp * 1000)).toBeLessThan(1500);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(11.9 * 3_600_000);

    const later = await signIn(person.user.email);
    await sessions.updateMany(
      { userId: new Types.ObjectId(person.user.id) },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    // A session not yet in any cache: refused at once.
    expect(await statuses(later.token)).toEqual([401, 401]);
    await sweepExpired(bed.auth.ctx.store);
    expect(await sessionsIn(person.user.id)).toBe(0);
  });
});

describe('password change', () => {
  const change = (token: string, body: Record<string, unknown>) =>
    api(bed.auth.url, 'POST', '/api/auth/password', { token, body });

  it('needs the current password, keeps this session and ends the others', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    const otherDevice = await signIn(person.user.email);
    expect(await statuses(otherDevice.token)).toEqual([200, 200]);

    const wrong = await change(person.token, { currentPassword: 'not-my-password', newPassword: 'Novyi-Parol-77' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: MSG.currentPasswordWrong, field: 'currentPassword' });
    expect(await statuses(otherDevice.token)).toEqual([200, 200]);
    expect((await login(person.user.email, 'Novyi-Parol-77')).status).toBe(401);

    const ok = await change(person.token, { currentPassword: PASSWORD, newPassword: 'Novyi-Parol-77' });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(MSG.passwordChanged);
    expect(await statuses(person.token)).toEqual([200, 200]);
    expect(await statuses(otherDevice.token)).toEqual([401, 401]);
    expect((await login(person.user.email, PASSWORD)).status).toBe(401);
    expect((await login(person.user.email, 'Novyi-Parol-77')).status).toBe(200);
  });

  it('a stolen token cannot guess the password: past the login limit even the right one gets 429', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    for (let i = 0; i < 5; i++) {
      expect((await change(person.token, { currentPassword: `guess-${i}-x`, newPassword: 'Novyi-Parol-77' })).status).toBe(400);
    }
    const blocked = await change(person.token, { currentPassword: PASSWORD, newPassword: 'Novyi-Parol-77' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Слишком много неудачных попыток входа/);
    expect((await login(person.user.email)).status).toBe(200);
  });

  it('refuses a weak new password in Russian and changes nothing', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    const local = person.user.email.split('@')[0];
    const cases: Array<[string, string]> = [
      ['short-1', MSG.passwordTooShort],
      ['password123', MSG.passwordTooCommon],
      ['Qwerty123', MSG.passwordTooCommon],
      [`${local}-2026!`, MSG.passwordHasEmail],
    ];
    for (const [newPassword, message] of cases) {
      const answer = await change(person.token, { currentPassword: PASSWORD, newPassword });
      expect({ newPassword, status: answer.status, message: answer.body.message }).toEqual({ newPassword, status: 400, message });
    }
    expect((await login(person.user.email)).status).toBe(200);
    expect((await change('', { currentPassword: PASSWORD, newPassword: 'Novyi-Parol-77' })).status).toBe(401);
  });
});

describe('password reset link', () => {
  const issue = (token: string | undefined, userId: string) =>
    api<PasswordResetLink>(bed.auth.url, 'POST', `/api/users/${userId}/password-reset`, { token });
  const reset = (token: string, password: string) =>
    api(bed.auth.url, 'POST', '/api/auth/password-reset', { body: { token, password } });
  const tokenOf = (link: PasswordResetLink) => new URL(link.path, 'http://portal').searchParams.get('token')!;

  it('only an ADMIN issues one (401, 403, 404 otherwise)', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    expect((await issue(undefined, person.user.id)).status).toBe(401);
    for (const role of ['MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'] as const) {
      expect({ role, status: (await issue(bed.as[role].token, person.user.id)).status }).toEqual({ role, status: 403 });
    }
    expect((await issue(bed.as.ADMIN.token, '0123456789abcdef01234567')).status).toBe(404);
    expect(await bed.auth.ctx.store.collection('password_resets').countDocuments({})).toBe(0);
  });

  it('sets a new password once, ends the person’s sessions, and is stored only hashed', async () => {
    const person = await userWithRole(bed.auth, 'CANDIDATE');
    expect(await statuses(person.token)).toEqual([200, 200]);
    const issued = await issue(bed.as.ADMIN.token, person.user.id);
    expect(issued.status).toBe(201);
    expect(issued.body.path).toMatch(/^\/auth\/reset\?token=[\w-]{40,}$/);
    const expiresIn = Date.parse(issued.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3_600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3_600_000);
    const token = tokenOf(issued.body);
    const stored = await bed.auth.ctx.store.collection('password_resets').find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(token);

    // A refused password leaves the link working.
    const weak = await reset(token, '12345678');
    expect(weak.body).toMatchObject({ statusCode: 400, message: MSG.passwordTooCommon });
    expect(await statuses(person.token)).toEqual([200, 200]);

    const used = await reset(token, 'Svezhii-Parol-5');
    expect(used.status).toBe(200);
    expect(used.body.message).toBe(MSG.passwordReset);
    expect(await statuses(person.token)).toEqual([401, 401]);
    expect((await login(person.user.email, 'Svezhii-Parol-5')).status).toBe(200);

    const again = await reset(token, 'Eshche-Odin-Parol-6');
    expect(again.body).toMatchObject({ statusCode: 400, message: MSG.resetLinkInvalid });
    expect((await login(person.user.email, 'Eshche-Odin-Parol-6')).status).toBe(401);
  });

  it('is refused after 24 hours, and when a newer link was issued', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    const first = tokenOf((await issue(bed.as.ADMIN.token, person.user.id)).body);
    const second = tokenOf((await issue(bed.as.ADMIN.token, person.user.id)).body);
    expect((await reset(first, 'Svezhii-Parol-5')).body.message).toBe(MSG.resetLinkInvalid);
    // The 24 hours pass.
    await bed.auth.ctx.store.collection('password_resets').updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await reset(second, 'Svezhii-Parol-5')).body).toMatchObject({ statusCode: 400, message: MSG.resetLinkInvalid });
    expect((await login(person.user.email)).status).toBe(200);
    expect((await reset('made-up-token', 'Svezhii-Parol-5')).body.message).toBe(MSG.resetLinkInvalid);
  });

  it('leaves exactly one working link, the newest, when ten are issued at once', async () => {
    // Four people's bursts at once, so that the requests really overlap on a busy machine.
    const people = await Promise.all(Array.from({ length: 4 }, () => userWithRole(bed.auth, 'CLIENT')));
    const bursts = await Promise.all(
      people.map((person) => Promise.all(Array.from({ length: 10 }, () => issue(bed.as.ADMIN.token, person.user.id)))),
    );
    for (const [n, person] of people.entries()) {
      expect(bursts[n].map((a) => a.status)).toEqual(Array(10).fill(201));
      const tokens = bursts[n].map((a) => tokenOf(a.body));
      // A common password is refused in its own words only through a link that works, and uses none up.
      const probes = await Promise.all(tokens.map((token) => reset(token, '12345678')));
      const working = tokens.filter((_, i) => probes[i].body.message === MSG.passwordTooCommon);
      expect({ person: n, working: working.length }).toEqual({ person: n, working: 1 });
      expect(probes.filter((p) => p.body.message === MSG.resetLinkInvalid)).toHaveLength(9);
      const [newest] = await bed.auth.ctx.store
        .collection('password_resets')
        .find({ userId: new Types.ObjectId(person.user.id) })
        .sort({ createdAt: -1, _id: -1 })
        .limit(1)
        .toArray();
      expect(newest._id).toBe(createHash('sha256').update(working[0]).digest('hex'));

      expect((await reset(working[0], 'Svezhii-Parol-5')).status).toBe(200);
      for (const token of tokens) expect((await reset(token, 'Eshche-Odin-Parol-6')).body.message).toBe(MSG.resetLinkInvalid);
      expect((await login(person.user.email, 'Svezhii-Parol-5')).status).toBe(200);
    }
  });
});

describe('a change of email or role ends the person’s sessions', () => {
  const edit = (id: string, body: Record<string, unknown>) =>
    api(bed.auth.url, 'PATCH', `/api/users/${id}`, { token: bed.as.ADMIN.token, body });

  it('a role change: the old token is 401 everywhere; the person signs in again with the new role', async () => {
    const person = await userWithRole(bed.auth, 'CANDIDATE');
    expect(await statuses(person.token)).toEqual([200, 200]);
    expect(
      (
        await edit(person.user.id, {
          fullName: person.user.fullName,
          email: person.user.email,
          role: 'CLIENT',
          version: person.user.version,
        })
      ).status,
    ).toBe(200);
    expect(await statuses(person.token)).toEqual([401, 401]);
    expect((await signIn(person.user.email)).user.role).toBe('CLIENT');
  });

  it('an email change ends them; a name change does not', async () => {
    const person = await userWithRole(bed.auth, 'CLIENT');
    const renamed = await edit(person.user.id, {
      fullName: 'Новое Имя',
      email: person.user.email,
      role: 'CLIENT',
      version: person.user.version,
    });
    expect(renamed.status).toBe(200);
    expect(await statuses(person.token)).toEqual([200, 200]);
    const email = uniqueEmail('moved');
    expect(
      (await edit(person.user.id, { fullName: 'Новое Имя', email, role: 'CLIENT', version: renamed.body.version })).status,
    ).toBe(200);
    expect(await statuses(person.token)).toEqual([401, 401]);
    expect((await signIn(email)).user.email).toBe(email);
  });
});

describe('password rules at registration', () => {
  const register = (email: string, password: string) =>
    api(bed.auth.url, 'POST', '/api/auth/register', { body: { email, password, fullName: 'Новый Человек' } });

  it('refuses short, common and email-containing passwords in Russian, and creates nobody', async () => {
    const cases: Array<[string, string, string]> = [
      [uniqueEmail('short'), 'Ab1-xyz', MSG.passwordTooShort],
      [uniqueEmail('common'), '12345678', MSG.passwordTooCommon],
      [uniqueEmail('common'), 'password', MSG.passwordTooCommon],
      [uniqueEmail('common'), 'Password123', MSG.passwordTooCommon],
      ['ivan.petrov@example.test', 'Ivan.Petrov-1990', MSG.passwordHasEmail],
    ];
    for (const [email, password, message] of cases) {
      const answer = await register(email, password);
      expect({ password, status: answer.status, message: answer.body.message }).toEqual({ password, status: 400, message });
      expect(await bed.auth.ctx.store.collection('users').countDocuments({ email })).toBe(0);
    }
    expect((await register(uniqueEmail('fine'), 'Kursy-Portal-42')).status).toBe(201);
  });
});
