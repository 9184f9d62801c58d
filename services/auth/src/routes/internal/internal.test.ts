import { api } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '../../testing';

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
