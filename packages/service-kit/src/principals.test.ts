import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { patchUser, startAuth, userWithRole } from '@portal/svc-auth/testing';
import { crmRouters } from '@portal/svc-crm/app';
import { PRINCIPAL_CACHE_LIFETIMES, PrincipalCache } from './principals';

// Another service caches who is behind a token; a change in auth must reach it on the next request.
let auth: Awaited<ReturnType<typeof startAuth>>;
let crm: TestService;
beforeAll(async () => {
  auth = await startAuth();
  crm = await startTestService('crm', crmRouters, { env: { AUTH_URL: auth.url } });
});
afterAll(async () => {
  await crm.close();
  await auth.close();
});

const waitForStatus = async (token: string, status: number) => {
  const deadline = Date.now() + 3000;
  let last = 0;
  while (Date.now() < deadline) {
    last = (await api(crm.url, 'GET', '/api/organizations', { token })).status;
    if (last === status) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
};

it('a role change in auth ends the session in another service at once; signed in again, the new rights apply', async () => {
  const admin = await userWithRole(auth, 'ADMIN');
  const person = await userWithRole(auth, 'CANDIDATE');
  expect((await api(crm.url, 'GET', '/api/organizations', { token: person.token })).status).toBe(403);
  const changed = await patchUser(auth, admin.token, person.user.id, {
    fullName: person.user.fullName,
    email: person.user.email,
    role: 'CURATOR',
  });
  expect(changed.status).toBe(200);
  expect(await waitForStatus(person.token, 401)).toBe(401);
  const again = await api(auth.url, 'POST', '/api/auth/login', {
    body: { email: person.user.email, password: 'Kursy-Portal-42' },
  });
  expect((await api(crm.url, 'GET', '/api/organizations', { token: again.body.token })).status).toBe(200);
});

it('a deleted user is refused by another service with 401', async () => {
  const admin = await userWithRole(auth, 'ADMIN');
  const person = await userWithRole(auth, 'CURATOR');
  expect((await api(crm.url, 'GET', '/api/organizations', { token: person.token })).status).toBe(200);
  await api(auth.url, 'DELETE', `/api/users/${person.user.id}`, { token: admin.token });
  expect(await waitForStatus(person.token, 401)).toBe(401);
});

it('answers 503 (not a crash) when the auth service cannot be asked', async () => {
  const orphan = await startTestService('crm', crmRouters, { env: { AUTH_URL: 'http://127.0.0.1:9' } });
  try {
    const person = await userWithRole(auth, 'CURATOR');
    const answer = await api(orphan.url, 'GET', '/api/organizations', { token: person.token });
    expect(answer.status).toBe(503);
    expect(answer.body.message).toBe('Сервис временно недоступен. Повторите попытку позже');
  } finally {
    await orphan.close();
  }
});

it('a role change and a logout reach another service on the very next request, even before the channel is read', async () => {
  const admin = await userWithRole(auth, 'ADMIN');
  // Several rounds: a stale hit would show as one 403 (or 200) after the change.
  for (let round = 0; round < 5; round++) {
    const person = await userWithRole(auth, 'CANDIDATE');
    expect((await api(crm.url, 'GET', '/api/organizations', { token: person.token })).status).toBe(403);
    const changed = await patchUser(auth, admin.token, person.user.id, {
      fullName: person.user.fullName,
      email: person.user.email,
      role: 'CURATOR',
    });
    expect(changed.status).toBe(200);
    expect((await api(crm.url, 'GET', '/api/organizations', { token: person.token })).status).toBe(401);
    const again = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email: person.user.email, password: 'Kursy-Portal-42' },
    });
    expect((await api(crm.url, 'GET', '/api/organizations', { token: again.body.token })).status).toBe(200);
    expect((await api(auth.url, 'POST', '/api/auth/logout', { token: again.body.token })).status).toBe(204);
    expect((await api(crm.url, 'GET', '/api/organizations', { token: again.body.token })).status).toBe(401);
  }
});

it('the cache keeps sessions apart: ending one session of a person leaves the other cached answer right', async () => {
  const person = { id: 'p2', role: 'CLIENT' as const, fullName: 'Павел', email: 'p2@example.test' };
  const live = new Set(['a', 'b']);
  let version = 'v1';
  const cache = new PrincipalCache(
    async (_id, sessionId) => (live.has(sessionId) ? person : null),
    PRINCIPAL_CACHE_LIFETIMES,
    async () => version,
  );
  expect(await cache.get('p2', 'a')).toEqual(person);
  expect(await cache.get('p2', 'b')).toEqual(person);
  live.delete('a');
  version = 'v2';
  expect(await cache.get('p2', 'a')).toBeNull();
  expect(await cache.get('p2', 'b')).toEqual(person);
});

it('the cache answers from memory while the stamp is unchanged, and looks up again once it changes', async () => {
  const person = { id: 'p1', role: 'CANDIDATE' as const, fullName: 'Пётр', email: 'p@example.test' };
  let lookups = 0;
  let version: string | null | undefined = null;
  const cache = new PrincipalCache(
    async () => {
      lookups++;
      return person;
    },
    PRINCIPAL_CACHE_LIFETIMES,
    async () => version,
  );
  await cache.get('p1', 's1');
  await cache.get('p1', 's1');
  expect(lookups).toBe(1);
  version = 'changed';
  await cache.get('p1', 's1');
  expect(lookups).toBe(2);
  // Redis away: the stamp cannot be read, and the entry lives out its TTL.
  version = undefined;
  await cache.get('p1', 's1');
  expect(lookups).toBe(2);
});

it('a stamped answer serves for minutes, while an answer whose stamp cannot be read lives only its short bound', async () => {
  const person = { id: 'p3', role: 'CLIENT' as const, fullName: 'Полина', email: 'p3@example.test' };
  let lookups = 0;
  let version: string | null | undefined = 'v1';
  // No short bound at all, so the difference shows without waiting.
  const cache = new PrincipalCache(
    async () => {
      lookups++;
      return person;
    },
    { stampedMs: 300_000, unstampedMs: 0 },
    async () => version,
  );
  for (let i = 0; i < 5; i++) await cache.get('p3', 's1');
  expect(lookups).toBe(1);
  version = undefined;
  for (let i = 0; i < 3; i++) await cache.get('p3', 's1');
  expect(lookups).toBe(4);
});
