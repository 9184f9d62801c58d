import { SignJWT } from 'jose';
import { api, startTestService, uniqueInn, type TestService } from '@portal/devstack/testing';
import { startAuth, uniqueEmail, userWithRole } from '@portal/svc-auth/testing';
import { startContent, type ContentTestBed } from '@portal/svc-content/testing';
import { crmRouters } from '@portal/svc-crm/app';
import { startGateway } from './portal';

// The secret the test services run with (jest's global setup puts the launcher's into the environment).
const SECRET = process.env.JWT_SECRET!;
const encoder = new TextEncoder();
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

let bed: ContentTestBed;
let crm: TestService;
let gateway: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  bed = await startContent();
  crm = await startTestService('crm', crmRouters, { env: { AUTH_URL: bed.auth.url } });
  gateway = await startGateway({ auth: bed.auth.url, content: bed.content.url, crm: crm.url });
}, 60_000);
afterAll(async () => {
  gateway.server.closeAllConnections();
  gateway.server.close();
  await crm.close();
  await bed.close();
});

/** One protected read per service: what a forged token is tried against. */
const probes = () => [
  { base: bed.auth.url, path: '/api/auth/profile' },
  { base: bed.auth.url, path: '/api/users' },
  { base: bed.content.url, path: '/api/courses' },
  { base: crm.url, path: '/api/organizations' },
];

async function statusesWith(token: string): Promise<number[]> {
  return Promise.all(probes().map(async ({ base, path }) => (await api(base, 'GET', path, { token })).status));
}

/** The session a real token names. */
const sidOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;

const sign = (claims: Record<string, unknown>, { secret = SECRET, expires = '1h' as string | number } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub))
    .setIssuer('portal-auth')
    .setAudience('portal')
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(encoder.encode(secret));

describe('forged and stale tokens are 401 in every service', () => {
  it('the real token of the admin works everywhere (so the refusals below are about the token)', async () => {
    expect(await statusesWith(bed.as.ADMIN.token)).toEqual([200, 200, 200, 200]);
  });

  it('refuses `alg: none` with the admin’s claims', async () => {
    const claims = { sub: bed.as.ADMIN.user.id, role: 'ADMIN', iss: 'portal-auth', aud: 'portal', exp: nowSeconds() + 3600 };
    for (const header of [{ alg: 'none', typ: 'JWT' }, { alg: 'None' }, { alg: 'NONE' }]) {
      const token = `${b64(header)}.${b64(claims)}.`;
      expect(await statusesWith(token)).toEqual([401, 401, 401, 401]);
    }
  });

  it('refuses HS256 signed with another secret, and a real token whose payload was edited', async () => {
    const forged = await sign(
      { sub: bed.as.ADMIN.user.id, role: 'ADMIN' },
      { secret: 'another-secret-of-at-least-thirty-two-chars' },
    );
    expect(await statusesWith(forged)).toEqual([401, 401, 401, 401]);
    const [head, , signature] = bed.as.CANDIDATE.token.split('.');
    const edited = `${head}.${b64({ sub: bed.as.ADMIN.user.id, role: 'ADMIN', iss: 'portal-auth', aud: 'portal', exp: nowSeconds() + 3600 })}.${signature}`;
    expect(await statusesWith(edited)).toEqual([401, 401, 401, 401]);
  });

  it('refuses an expired token, one of another issuer or audience, and one without a subject', async () => {
    const expired = await sign({ sub: bed.as.ADMIN.user.id, role: 'ADMIN' }, { expires: nowSeconds() - 60 });
    expect(await statusesWith(expired)).toEqual([401, 401, 401, 401]);
    const otherIssuer = await new SignJWT({ role: 'ADMIN' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(bed.as.ADMIN.user.id)
      .setIssuer('someone-else')
      .setAudience('portal')
      .setExpirationTime('1h')
      .sign(encoder.encode(SECRET));
    expect(await statusesWith(otherIssuer)).toEqual([401, 401, 401, 401]);
    const noSubject = await new SignJWT({ role: 'ADMIN' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('portal-auth')
      .setAudience('portal')
      .setExpirationTime('1h')
      .sign(encoder.encode(SECRET));
    expect(await statusesWith(noSubject)).toEqual([401, 401, 401, 401]);
  });

  it('refuses malformed Authorization headers', async () => {
    for (const authorization of ['Bearer', 'Bearer ', `Basic ${bed.as.ADMIN.token}`, `${bed.as.ADMIN.token}`, 'Bearer a.b.c']) {
      const answer = await api(crm.url, 'GET', '/api/organizations', { headers: { authorization } });
      expect({ authorization, status: answer.status }).toEqual({ authorization, status: 401 });
    }
  });

  it('treats the role in a token as advisory: a candidate’s own token claiming ADMIN gets a candidate’s rights', async () => {
    const claimsAdmin = await sign({ sub: bed.as.CANDIDATE.user.id, role: 'ADMIN', sid: sidOf(bed.as.CANDIDATE.token) });
    expect(await statusesWith(claimsAdmin)).toEqual([200, 403, 200, 403]);
    const create = await api(bed.content.url, 'POST', '/api/courses', { token: claimsAdmin, body: { title: 'Захват' } });
    expect(create.status).toBe(403);
    expect(await bed.models.courses.countDocuments({ title: 'Захват' })).toBe(0);
  });

  it('refuses a well-signed token of a user who does not exist', async () => {
    const ghost = await sign({ sub: '0123456789abcdef01234567', role: 'ADMIN', sid: sidOf(bed.as.ADMIN.token) });
    expect(await statusesWith(ghost)).toEqual([401, 401, 401, 401]);
  });

  it('refuses a well-signed token without a session, with a made-up one, or with another person’s', async () => {
    const admin = bed.as.ADMIN.user.id;
    expect(await statusesWith(await sign({ sub: admin, role: 'ADMIN' }))).toEqual([401, 401, 401, 401]);
    expect(await statusesWith(await sign({ sub: admin, role: 'ADMIN', sid: '' }))).toEqual([401, 401, 401, 401]);
    expect(await statusesWith(await sign({ sub: admin, role: 'ADMIN', sid: 'made-up-session' }))).toEqual([401, 401, 401, 401]);
    // The candidate's live session does not carry the admin's rights.
    const borrowed = await sign({ sub: admin, role: 'ADMIN', sid: sidOf(bed.as.CANDIDATE.token) });
    expect(await statusesWith(borrowed)).toEqual([401, 401, 401, 401]);
  });
});

describe('a changed or deleted user’s token ends on the next request, in every service', () => {
  it('a manager demoted to candidate loses the CRM and the directory at once: the session ends', async () => {
    const manager = await userWithRole(bed.auth, 'MANAGER', 'Мария Понижаемая');
    // Warm every service's principal cache with the old role.
    expect(await statusesWith(manager.token)).toEqual([200, 200, 200, 200]);
    const demoted = await api(bed.auth.url, 'PATCH', `/api/users/${manager.user.id}`, {
      token: bed.as.ADMIN.token,
      body: { fullName: manager.user.fullName, email: manager.user.email, role: 'CANDIDATE', version: manager.user.version },
    });
    expect(demoted.status).toBe(200);
    expect(await statusesWith(manager.token)).toEqual([401, 401, 401, 401]);
    const org = await api(crm.url, 'POST', '/api/organizations', {
      token: manager.token,
      body: { name: 'После понижения', inn: uniqueInn() },
    });
    expect(org.status).toBe(401);
    const again = await api(bed.auth.url, 'POST', '/api/auth/login', {
      body: { email: manager.user.email, password: 'Kursy-Portal-42' },
    });
    expect(again.body.user.role).toBe('CANDIDATE');
    expect(await statusesWith(again.body.token)).toEqual([200, 403, 200, 403]);
  });

  it('a candidate promoted to curator may author once signed in again', async () => {
    const candidate = await userWithRole(bed.auth, 'CANDIDATE', 'Павел Повышаемый');
    expect((await api(bed.content.url, 'POST', '/api/courses', { token: candidate.token, body: { title: 'Рано' } })).status).toBe(
      403,
    );
    await api(bed.auth.url, 'PATCH', `/api/users/${candidate.user.id}`, {
      token: bed.as.ADMIN.token,
      body: { fullName: candidate.user.fullName, email: candidate.user.email, role: 'CURATOR', version: candidate.user.version },
    });
    expect(
      (await api(bed.content.url, 'POST', '/api/courses', { token: candidate.token, body: { title: 'Старый' } })).status,
    ).toBe(401);
    const again = await api(bed.auth.url, 'POST', '/api/auth/login', {
      body: { email: candidate.user.email, password: 'Kursy-Portal-42' },
    });
    const create = await api(bed.content.url, 'POST', '/api/courses', {
      token: again.body.token,
      body: { title: 'После повышения' },
    });
    expect(create.status).toBe(201);
  });

  it('a deleted user’s token is 401 everywhere on the next request', async () => {
    const curator = await userWithRole(bed.auth, 'CURATOR', 'Удаляемый Куратор');
    expect(await statusesWith(curator.token)).toEqual([200, 200, 200, 200]);
    const removed = await api(bed.auth.url, 'DELETE', `/api/users/${curator.user.id}`, { token: bed.as.ADMIN.token });
    expect(removed.status).toBe(204);
    expect(await statusesWith(curator.token)).toEqual([401, 401, 401, 401]);
    const create = await api(bed.content.url, 'POST', '/api/courses', { token: curator.token, body: { title: 'Призрак' } });
    expect(create.status).toBe(401);
    expect(await bed.models.courses.countDocuments({ title: 'Призрак' })).toBe(0);
  });

  it('a curator may not make anyone an administrator, nor edit one, nor hand out MANAGER', async () => {
    const target = await userWithRole(bed.auth, 'CANDIDATE', 'Цель Повышения');
    const users = bed.auth.ctx.store.collection('users');
    for (const role of ['ADMIN', 'MANAGER'] as const) {
      const answer = await api(bed.auth.url, 'PATCH', `/api/users/${target.user.id}`, {
        token: bed.as.CURATOR.token,
        body: { fullName: target.user.fullName, email: target.user.email, role, version: target.user.version },
      });
      expect({ role, status: answer.status }).toEqual({ role, status: 403 });
    }
    const self = await api(bed.auth.url, 'PATCH', `/api/users/${bed.as.MANAGER.user.id}`, {
      token: bed.as.MANAGER.token,
      body: {
        fullName: bed.as.MANAGER.user.fullName,
        email: bed.as.MANAGER.user.email,
        role: 'ADMIN',
        version: bed.as.MANAGER.user.version,
      },
    });
    expect(self.status).toBe(403);
    const admin = await api(bed.auth.url, 'PATCH', `/api/users/${bed.as.ADMIN.user.id}`, {
      token: bed.as.CURATOR.token,
      body: { fullName: 'Переименован', email: bed.as.ADMIN.user.email, role: 'ADMIN', version: bed.as.ADMIN.user.version },
    });
    expect(admin.status).toBe(403);
    expect((await users.findOne({ email: target.user.email }))?.role).toBe('CANDIDATE');
    expect((await users.findOne({ email: bed.as.MANAGER.user.email }))?.role).toBe('MANAGER');
    expect((await users.findOne({ email: bed.as.ADMIN.user.email }))?.fullName).toBe(bed.as.ADMIN.user.fullName);
  });
});

describe('brute force', () => {
  // Each test signs in from its own address (as the gateway forwards it), so the per-address count of one does not reach the next.
  let address = 0;
  beforeEach(() => {
    address += 1;
  });
  const login = (email: string, password: string) =>
    api(bed.auth.url, 'POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': `192.0.2.${address}` },
    });
  const register = async (tag: string) => {
    const email = uniqueEmail(tag);
    const answer = await api(bed.auth.url, 'POST', '/api/auth/register', {
      body: { email, password: 'Kursy-Portal-42', fullName: 'Подбор Пароля' },
    });
    expect(answer.status).toBe(201);
    return email;
  };

  it('answers the sixth try for one email with 429 and Retry-After, even with the right password', async () => {
    const email = await register('bf');
    for (let i = 0; i < 5; i++) expect((await login(email, `wrong-${i}-pass`)).status).toBe(401);
    const blocked = await login(email, 'Kursy-Portal-42');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Слишком много неудачных попыток входа/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    // The same email in other letter case is the same account.
    expect((await login(email.toUpperCase(), 'Kursy-Portal-42')).status).toBe(429);
  });

  it('counts guesses sent all at once: a burst cannot slip past the limit', async () => {
    const email = await register('burst');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(email, `burst-${i}-guess`)));
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 429).length).toBe(30 - checked);
  });

  it('lets one person sign in from several tabs at once', async () => {
    const email = await register('tabs');
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(email, 'Kursy-Portal-42')));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  });

  it('clears the email’s count after a success', async () => {
    const email = await register('clear');
    for (let i = 0; i < 4; i++) expect((await login(email, `wrong-${i}-pass`)).status).toBe(401);
    expect((await login(email, 'Kursy-Portal-42')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(email, `again-${i}-pass`)).status).toBe(401);
    expect((await login(email, 'Kursy-Portal-42')).status).toBe(200);
  });

  it('through the gateway: forged X-Forwarded-For does not reset the count, and guesses at other emails lock out nobody', async () => {
    // Its own auth service and gateway, so the failures of the tests above do not count here.
    const auth = await startAuth();
    const front = await startGateway({ auth: auth.url });
    try {
      const victim = uniqueEmail('victim');
      const colleague = uniqueEmail('colleague');
      for (const email of [victim, colleague]) {
        const made = await api(auth.url, 'POST', '/api/auth/register', {
          body: { email, password: 'Kursy-Portal-42', fullName: 'Коллега По Офису' },
        });
        expect(made.status).toBe(201);
      }
      // 5 per address and email: each try claims another address, the gateway appends the real one.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const answer = await api(front.url, 'POST', '/api/auth/login', {
          body: { email: victim, password: `guess-${i}-pass` },
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([...Array(5).fill(401), 429]);
      // 22 guesses at made-up emails from the same address lock out no colleague there.
      for (let i = 0; i < 22; i++) {
        const answer = await api(front.url, 'POST', '/api/auth/login', {
          body: { email: uniqueEmail('spray'), password: 'Kursy-Portal-42' },
        });
        expect(answer.status).toBe(401);
      }
      const signedIn = await api(front.url, 'POST', '/api/auth/login', {
        body: { email: colleague, password: 'Kursy-Portal-42' },
      });
      expect(signedIn.status).toBe(200);
    } finally {
      front.server.closeAllConnections();
      front.server.close();
      await auth.close();
    }
  });
});
