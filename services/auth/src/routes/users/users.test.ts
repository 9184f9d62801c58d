import { randomBytes } from 'node:crypto';
import { CONSENT_DOCUMENT, MSG, ROLE_LABELS, USERS_EXPORT_HEADER } from '@portal/contracts';
import { download, readCsv, readXlsx } from '@portal/devstack/exports';
import { api, publishedAuditEvents } from '@portal/devstack/testing';
import { userModel } from '../../models/user';
import { patchUser, startAuth, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const patch = (token: string, id: string, body: Record<string, unknown>) => patchUser(auth, token, id, body);

describe('GET /api/users', () => {
  it('writes one access record per page of other people read, and none for a person reading only themselves', async () => {
    const manager = await userWithRole(auth, 'MANAGER', 'Менеджер Журнала');
    for (const n of [1, 2, 3]) await userWithRole(auth, 'CLIENT', `Читаемый Сотрудник ${n}`);
    const before = (await publishedAuditEvents(auth)).filter((e) => e.entity === 'profile' && e.actor?.id === manager.user.id);
    expect(before).toEqual([]);
    for (const page of [1, 2]) {
      const answer = await api(auth.url, 'GET', `/api/users?search=${encodeURIComponent('Читаемый')}&limit=2&page=${page}`, {
        token: manager.token,
      });
      expect(answer.body.data).toHaveLength(page === 1 ? 2 : 1);
    }
    await api(auth.url, 'GET', `/api/users?search=${encodeURIComponent('Менеджер Журнала')}`, { token: manager.token });
    const reads = (await publishedAuditEvents(auth)).filter((e) => e.entity === 'profile' && e.actor?.id === manager.user.id);
    expect(reads.map((e) => [e.action, e.details]).sort()).toEqual([
      ['read', 'Просмотр справочника пользователей: страница 1, записей 2'],
      ['read', 'Просмотр справочника пользователей: страница 2, записей 1'],
    ]);
  });

  it('is for staff and the manager: 401 without a token, 403 for learners', async () => {
    expect((await api(auth.url, 'GET', '/api/users')).status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE'] as const) {
      const learner = await userWithRole(auth, role);
      expect((await api(auth.url, 'GET', '/api/users', { token: learner.token })).status).toBe(403);
    }
    for (const role of ['ADMIN', 'CURATOR', 'MANAGER'] as const) {
      const staff = await userWithRole(auth, role);
      expect((await api(auth.url, 'GET', '/api/users', { token: staff.token })).status).toBe(200);
    }
  });

  it('pages, searches name, email or role case-insensitively and filters by role', async () => {
    const curator = await userWithRole(auth, 'CURATOR', 'Куратор Поиска');
    await userWithRole(auth, 'CLIENT', 'Зинаида Уникальная');
    const byName = await api(auth.url, 'GET', '/api/users?search=зинаида', { token: curator.token });
    expect(byName.body.data.map((u: { fullName: string }) => u.fullName)).toEqual(['Зинаида Уникальная']);
    expect(byName.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    const byLabel = await api(auth.url, 'GET', `/api/users?search=${encodeURIComponent('менедж')}&limit=100`, {
      token: curator.token,
    });
    expect(byLabel.body.total).toBeGreaterThan(0);
    expect(byLabel.body.data.every((u: { role: string }) => u.role === 'MANAGER')).toBe(true);
    const byRole = await api(auth.url, 'GET', '/api/users?role=MANAGER', { token: curator.token });
    expect(byRole.body.data.every((u: { role: string }) => u.role === 'MANAGER')).toBe(true);
    const paged = await api(auth.url, 'GET', '/api/users?page=1&limit=2', { token: curator.token });
    expect(paged.body.data).toHaveLength(2);
    expect(paged.body.total).toBeGreaterThan(2);
    expect(JSON.stringify(paged.body)).not.toMatch(/passwordHash/);
    expect((await api(auth.url, 'GET', '/api/users?limit=1000', { token: curator.token })).status).toBe(400);
  });
});

describe('candidates who came by link (docs/decisions/087: left out of the directory)', () => {
  it('are not listed in the directory, its search, its export or the assignment audience', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const id = () => randomBytes(12).toString('hex');
    const started = await api<{ user: { id: string } }>(auth.url, 'POST', '/internal/candidates', {
      headers: { 'x-internal-token': String(process.env.INTERNAL_TOKEN) },
      body: {
        fullName: 'Кандидат Поссылке',
        email: 'poss@example.test',
        consentVersion: CONSENT_DOCUMENT.version,
        scope: { linkId: id(), courseId: id(), lessonId: id(), quizId: id() },
        sessionSeconds: 3600,
      },
    });
    expect(started.status).toBe(201);
    const listed = await api<{ data: Array<{ email: string }> }>(auth.url, 'GET', '/api/users?limit=100', { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.some((u) => u.email.endsWith('@link.invalid'))).toBe(false);
    const searched = await api(auth.url, 'GET', `/api/users?search=${encodeURIComponent('Поссылке')}`, { token: admin.token });
    expect(searched.body).toMatchObject({ data: [], total: 0 });
    const exported = await download(`${auth.url}/api/users/export?format=csv`, admin.token);
    expect(exported.bytes.toString('utf8')).not.toContain('link.invalid');
    const audience = await api<{ data: Array<{ id: string }> }>(auth.url, 'GET', '/internal/audience?limit=100', {
      headers: { 'x-internal-token': String(process.env.INTERNAL_TOKEN) },
    });
    expect(audience.body.data.map((u) => u.id)).not.toContain(started.body.user.id);
  });
});

describe('the directory count', () => {
  it('counts what the role filter and the search select, not every account, for each role that reads the directory', async () => {
    const tag = `счёт${Date.now().toString(36)}`;
    for (const role of ['CURATOR', 'CURATOR', 'CURATOR', 'CLIENT', 'CLIENT'] as const)
      await userWithRole(auth, role, `${tag} ${role}`);
    const store = userModel(auth.ctx.store);
    for (const reader of ['ADMIN', 'CURATOR', 'MANAGER'] as const) {
      const { token } = await userWithRole(auth, reader);
      const total = async (query: string) =>
        (await api<{ total: number }>(auth.url, 'GET', `/api/users?${query}`, { token })).body.total;
      expect(await total(`search=${encodeURIComponent(tag)}`)).toBe(5);
      expect(await total(`search=${encodeURIComponent(tag)}&role=CURATOR&limit=2`)).toBe(3);
      expect(await total(`search=${encodeURIComponent(tag)}&role=ADMIN`)).toBe(0);
      expect(await total('role=CLIENT')).toBe(await store.countDocuments({ role: 'CLIENT' }));
      // Every account but the candidates «по ссылке», who are listed under their link.
      expect(await total('')).toBe(await store.countDocuments({ linkScope: null }));
    }
  });
});

describe('PATCH /api/users/{id}', () => {
  it('lets an admin change name, email and role (MANAGER only this way)', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CANDIDATE');
    const answer = await patch(admin.token, target.user.id, {
      fullName: 'Новое Имя',
      email: 'NEW.' + target.user.email,
      role: 'MANAGER',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      fullName: 'Новое Имя',
      lastName: 'Новое',
      firstName: 'Имя',
      role: 'MANAGER',
      email: 'new.' + target.user.email,
    });
    expect(await userModel(auth.ctx.store).findById(target.user.id).lean()).toMatchObject({ role: 'MANAGER' });
  });

  it('requires all three fields with the spec message', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT');
    const answer = await patch(admin.token, target.user.id, { fullName: '', email: target.user.email, role: 'CLIENT' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(MSG.fillRequired);
    expect((await patch(admin.token, target.user.id, { fullName: 'Имя', email: target.user.email })).body.message).toBe(
      MSG.fillRequired,
    );
  });

  it('refuses a curator making anyone ADMIN, and editing an administrator', async () => {
    const curator = await userWithRole(auth, 'CURATOR');
    const target = await userWithRole(auth, 'CLIENT');
    const grant = await patch(curator.token, target.user.id, { fullName: 'Имя', email: target.user.email, role: 'ADMIN' });
    expect(grant.status).toBe(403);
    expect(grant.body.message).toBe(MSG.curatorCannotGrantAdmin);
    const admin = await userWithRole(auth, 'ADMIN');
    const demote = await patch(curator.token, admin.user.id, { fullName: 'Имя', email: admin.user.email, role: 'CLIENT' });
    expect(demote.status).toBe(403);
    expect(await userModel(auth.ctx.store).findById(admin.user.id).lean()).toMatchObject({ role: 'ADMIN' });
  });

  it('never demotes the last administrator', async () => {
    await userModel(auth.ctx.store).deleteMany({ role: 'ADMIN' });
    const only = await userWithRole(auth, 'ADMIN');
    const answer = await patch(only.token, only.user.id, { fullName: 'Последний', email: only.user.email, role: 'CURATOR' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(MSG.lastAdmin);
    expect(await userModel(auth.ctx.store).countDocuments({ role: 'ADMIN' })).toBe(1);
  });

  it('answers 409 for an email another user has, and 404 for no such user', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const a = await userWithRole(auth, 'CLIENT');
    const b = await userWithRole(auth, 'CLIENT');
    const taken = await patch(admin.token, a.user.id, { fullName: 'Имя', email: b.user.email.toUpperCase(), role: 'CLIENT' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(MSG.emailTaken);
    expect(
      (await patch(admin.token, '64b7f0c2a1b2c3d4e5f60718', { fullName: 'Имя', email: 'x@y.test', role: 'CLIENT' })).status,
    ).toBe(404);
    expect((await patch(admin.token, 'not-an-id', { fullName: 'Имя', email: 'x@y.test', role: 'CLIENT' })).status).toBe(404);
  });

  it('ends a promoted user’s session at once; signed in again, they have the new rights', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const learner = await userWithRole(auth, 'CANDIDATE');
    expect((await api(auth.url, 'GET', '/api/users', { token: learner.token })).status).toBe(403);
    await patch(admin.token, learner.user.id, { fullName: learner.user.fullName, email: learner.user.email, role: 'CURATOR' });
    expect((await api(auth.url, 'GET', '/api/users', { token: learner.token })).status).toBe(401);
    const again = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email: learner.user.email, password: 'Kursy-Portal-42' },
    });
    expect((await api(auth.url, 'GET', '/api/users', { token: again.body.token })).status).toBe(200);
  });

  it('ignores role or id fields smuggled into other shapes', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT');
    const answer = await patch(admin.token, target.user.id, {
      fullName: 'Имя',
      email: target.user.email,
      role: 'CLIENT',
      _id: 'x',
      passwordHash: 'x',
    });
    expect(answer.status).toBe(400);
    expect(await userModel(auth.ctx.store).findById(target.user.id).lean()).toMatchObject({ fullName: target.user.fullName });
  });
});

describe('who edits whom (docs/decisions/002: roles nobody can hijack)', () => {
  const stored = (id: string) => userModel(auth.ctx.store).findById(id).lean();
  const unchanged = async (id: string, before: unknown) => expect(await stored(id)).toEqual(before);

  it.each(['CURATOR', 'MANAGER'] as const)('a %s renames a learner but changes neither its email nor its role', async (role) => {
    const actor = await userWithRole(auth, role);
    for (const learnerRole of ['CLIENT', 'CANDIDATE'] as const) {
      const learner = await userWithRole(auth, learnerRole, 'Старое Имя');
      const renamed = await patch(actor.token, learner.user.id, {
        fullName: 'Новое Имя',
        email: learner.user.email,
        role: learnerRole,
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.fullName).toBe('Новое Имя');
      const before = await stored(learner.user.id);
      const email = await patch(actor.token, learner.user.id, {
        fullName: 'Новое Имя',
        email: `stolen.${learner.user.email}`,
        role: learnerRole,
      });
      expect(email.status).toBe(403);
      expect(email.body.message).toBe(MSG.userEmailRoleAdminOnly);
      const promote = await patch(actor.token, learner.user.id, {
        fullName: 'Новое Имя',
        email: learner.user.email,
        role: 'CURATOR',
      });
      expect(promote.status).toBe(403);
      expect(promote.body.message).toBe(MSG.userEmailRoleAdminOnly);
      await unchanged(learner.user.id, before);
    }
  });

  it.each(['CURATOR', 'MANAGER'] as const)('a %s changes nothing in a peer’s or a higher role’s account', async (role) => {
    const actor = await userWithRole(auth, role);
    for (const targetRole of ['CURATOR', 'MANAGER', 'ADMIN'] as const) {
      const target = await userWithRole(auth, targetRole, 'Коллега Неприкосновенный');
      const before = await stored(target.user.id);
      for (const body of [
        { fullName: 'Переименован', email: target.user.email, role: targetRole },
        { fullName: target.user.fullName, email: `hijack.${target.user.email}`, role: targetRole },
        { fullName: target.user.fullName, email: target.user.email, role: 'CANDIDATE' },
      ]) {
        const answer = await patch(actor.token, target.user.id, body);
        expect({ targetRole, body, status: answer.status }).toEqual({ targetRole, body, status: 403 });
        expect(answer.body.message).toMatch(/[а-я]/i);
      }
      await unchanged(target.user.id, before);
      // The victim still signs in with the same email and keeps the role.
      const login = await api(auth.url, 'POST', '/api/auth/login', {
        body: { email: target.user.email, password: 'Kursy-Portal-42' },
      });
      expect(login.body.user).toMatchObject({ role: targetRole });
    }
  });

  it('a curator edits their own name and email but not their own role', async () => {
    const curator = await userWithRole(auth, 'CURATOR');
    // The same person signed in elsewhere too: their own email change ends that session, not this one.
    const elsewhere = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email: curator.user.email, password: 'Kursy-Portal-42' },
    });
    expect(elsewhere.status).toBe(200);
    const own = await patch(curator.token, curator.user.id, {
      fullName: 'Своё Имя',
      email: `own.${curator.user.email}`,
      role: 'CURATOR',
    });
    expect(own.status).toBe(200);
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: elsewhere.body.token })).status).toBe(401);
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: curator.token })).status).toBe(200);
    const before = await stored(curator.user.id);
    const promote = await patch(curator.token, curator.user.id, { fullName: 'Своё Имя', email: own.body.email, role: 'MANAGER' });
    expect(promote.status).toBe(403);
    expect(promote.body.message).toBe(MSG.ownRoleAdminOnly);
    await unchanged(curator.user.id, before);
  });

  it('an ADMIN changes another person’s email and role', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const manager = await userWithRole(auth, 'MANAGER');
    const answer = await patch(admin.token, manager.user.id, {
      fullName: manager.user.fullName,
      email: `moved.${manager.user.email}`,
      role: 'CURATOR',
    });
    expect(answer.status).toBe(200);
    expect(await stored(manager.user.id)).toMatchObject({ email: `moved.${manager.user.email}`, role: 'CURATOR' });
  });
});

describe('preset accounts', () => {
  it('are seeded once, idempotently, and listed for the picker only when enabled', async () => {
    const { seedPresets } = await import('../../commands/seed');
    const { DEFAULT_PRESETS } = await import('../../presets');
    const users = userModel(auth.ctx.store);
    const first = await seedPresets(users, DEFAULT_PRESETS, auth.ctx.logger);
    const again = await seedPresets(users, DEFAULT_PRESETS, auth.ctx.logger);
    expect(first).toBe(DEFAULT_PRESETS.length);
    expect(again).toBe(0);
    const login = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email: 'manager@portal.local', password: 'Portal-Men-2026' },
    });
    expect(login.body.user.role).toBe('MANAGER');
    expect((await api(auth.url, 'GET', '/api/auth/presets')).body.data).toEqual([]); // SEED_PRESETS=false here
  });
});

describe('GET /api/users/export', () => {
  const tag = `выгрузка${Date.now().toString(36)}`;
  const url = (query: string) => `${auth.url}/api/users/export?search=${encodeURIComponent(tag)}&${query}`;

  it('is for the roles that read the directory: 401, 403 for learners, 400 for an unknown role', async () => {
    expect((await api(auth.url, 'GET', '/api/users/export')).status).toBe(401);
    const learner = await userWithRole(auth, 'CANDIDATE');
    expect((await api(auth.url, 'GET', '/api/users/export', { token: learner.token })).status).toBe(403);
    const manager = await userWithRole(auth, 'MANAGER');
    expect((await api(auth.url, 'GET', '/api/users/export?role=KING', { token: manager.token })).body.field).toBe('role');
  });

  it('writes the accounts the search and role filter select, newest first, never a password hash', async () => {
    const first = await userWithRole(auth, 'CLIENT', `=HYPERLINK("http://evil") ${tag}`);
    const second = await userWithRole(auth, 'CURATOR', `;=Куратор; ${tag}`);
    const { token } = await userWithRole(auth, 'MANAGER');

    const res = await download(url('tz=Europe/Moscow'), token);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="users.csv"');
    expect(res.bytes.toString('utf8')).not.toMatch(/passwordHash|\$argon|\$2[aby]\$/);
    const rows = readCsv(res.bytes);
    expect(rows[0]).toEqual([...USERS_EXPORT_HEADER]);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      [second.user.fullName, second.user.email, ROLE_LABELS.CURATOR],
      [`'${first.user.fullName}`, first.user.email, ROLE_LABELS.CLIENT],
    ]);

    const sheet = await readXlsx((await download(url('role=CLIENT&format=xlsx'), token)).bytes);
    expect(sheet.rows.slice(1).map((r) => r.slice(0, 3))).toEqual([[first.user.fullName, first.user.email, ROLE_LABELS.CLIENT]]);
    expect(sheet.rows[1][3]).toBeInstanceOf(Date);
  });
});
