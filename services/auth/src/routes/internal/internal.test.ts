import { LIST_TOTAL_CAP, type AuthStats } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userModel } from '../../models/user';
import { startAuth, uniqueEmail, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const ask = (query: string, token = auth.ctx.config.INTERNAL_TOKEN) =>
  api(auth.url, 'GET', `/internal/users?${query}`, { headers: { 'x-internal-token': token } });

describe('GET /internal/users', () => {
  it('finds people by email (any case) or by ids, leaving out unknown and malformed ids, without secrets', async () => {
    const a = await userWithRole(auth, 'CURATOR', 'Анна Автор');
    const b = await userWithRole(auth, 'CLIENT', 'Борис Клиент');
    const byEmail = await ask(`email=${encodeURIComponent(a.user.email.toUpperCase())}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toEqual([
      { id: a.user.id, email: a.user.email, fullName: 'Анна Автор', role: 'CURATOR', department: '' },
    ]);
    const byIds = await ask(`ids=${a.user.id},${b.user.id},64b7f0c2a1b2c3d4e5f60718,not-an-id`);
    expect(byIds.body.data.map((p: { id: string }) => p.id).sort()).toEqual([a.user.id, b.user.id].sort());
    expect(JSON.stringify(byIds.body)).not.toMatch(/password|hash/i);
    expect((await ask('email=nobody%40example.test')).body.data).toEqual([]);
    expect((await ask('')).body.data).toEqual([]);
  });

  it('answers only with the internal token', async () => {
    expect((await ask('ids=64b7f0c2a1b2c3d4e5f60718', 'wrong-token-of-some-length')).status).toBe(403);
    expect((await api(auth.url, 'GET', '/internal/users?ids=x')).status).toBe(403);
  });
});

describe('GET /internal/stats', () => {
  const stats = (token = auth.ctx.config.INTERNAL_TOKEN) =>
    api<AuthStats & { lowerBounds?: string[] }>(auth.url, 'GET', '/internal/stats', { headers: { 'x-internal-token': token } });

  it('answers only with the internal token', async () => {
    expect((await stats('wrong-token-of-some-length')).status).toBe(403);
    expect((await api(auth.url, 'GET', '/internal/stats')).status).toBe(403);
  });

  it('counts the learners, and those who joined in the last 30 days against the 30 before', async () => {
    const before = await stats();
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    // Written around mongoose so createdAt can lie in the past; staff are not learners.
    await userModel(auth.ctx.store).collection.insertMany(
      [
        { role: 'CLIENT', days: 3 },
        { role: 'CANDIDATE', days: 20 },
        { role: 'CLIENT', days: 45 },
        { role: 'CLIENT', days: 200 },
        { role: 'MANAGER', days: 3 },
        { role: 'ADMIN', days: 45 },
      ].map(({ role, days }) => ({
        email: uniqueEmail('stats'),
        fullName: 'Иван Петров',
        role,
        passwordHash: 'x',
        createdAt: daysAgo(days),
        updatedAt: daysAgo(days),
      })),
    );
    const after = await stats();
    expect(after.status).toBe(200);
    expect(after.body.totalStudents - before.body.totalStudents).toBe(4);
    expect(after.body.newStudents.last30 - before.body.newStudents.last30).toBe(2);
    expect(after.body.newStudents.prev30 - before.body.newStudents.prev30).toBe(1);
    // Exact figures answer as they always did: no lower bounds, no flag on the change.
    expect(after.body).not.toHaveProperty('lowerBounds');
    expect(after.body.newStudents).not.toHaveProperty('exact');
  });
});

describe('GET /internal/audience', () => {
  const audience = (query: string) =>
    api<{ data: Array<{ id: string; department: string }>; total: number; totalExact?: false }>(
      auth.url,
      'GET',
      `/internal/audience?${query}`,
      { headers: { 'x-internal-token': auth.ctx.config.INTERNAL_TOKEN } },
    );

  it('counts a department no further than 10 000 people and says so; a smaller one exactly', async () => {
    const department = `Склад-${Date.now()}`;
    const users = userModel(auth.ctx.store).collection;
    for (let stored = 0; stored <= LIST_TOTAL_CAP; stored += 2_500)
      await users.insertMany(
        Array.from({ length: 2_500 }, (_, i) => ({
          email: uniqueEmail(`aud${stored + i}`),
          fullName: 'Иван Петров',
          role: 'CLIENT',
          department,
          passwordHash: 'x',
          createdAt: new Date(),
          updatedAt: new Date(),
        })),
      );
    const many = await audience(`department=${encodeURIComponent(department)}&page=3&limit=100`);
    expect(many.status).toBe(200);
    expect(many.body).toMatchObject({ total: LIST_TOTAL_CAP, totalExact: false });
    expect(many.body.data).toHaveLength(100);
    expect(many.body.data.every((p) => p.department === department)).toBe(true);

    const few = await audience(
      `department=${encodeURIComponent(department)}&ids=${many.body.data[0].id},${many.body.data[1].id}`,
    );
    expect(few.body.total).toBe(2);
    expect(few.body).not.toHaveProperty('totalExact');
  }, 120_000);
});
