import { request } from 'node:http';
import { MSG } from '@portal/contracts';
import { api, type ApiAnswer } from '@portal/devstack/testing';
import { eachConcurrently, startPortal, serviceUrl, type DeclaredRoute, type Portal } from './portal';
import { ROUTE_RULES, fillPath, routeKey, type CellRequest, type RouteRule } from './routeTable';
import { SWEEP_SEED, covering, generator, seedOf } from './sampling';

// Text the store cannot keep as sent (a NUL, which the PostgreSQL backend refuses; a lone surrogate,
// which the driver would turn into U+FFFD) and bodies no route can read: refused on every route of
// every service with a Russian 400/415 before the route runs, never a 500, nothing stored.

const INTERNAL_TOKEN = process.env.INTERNAL_TOKEN!;
const QUERY_FIELDS = ['search', 'status', 'userId', 'courseId', 'quizId', 'role', 'page', 'limit', 'tz', 'actorId', 'days'];
const BAD_TEXT = ['a\u0000b', '\ud800', 'x\udc00'];
/** Each bad text in place of a field's value, and nested one level down (inside an array or an object). */
const BAD_VALUES: unknown[] = BAD_TEXT.flatMap((bad) => [bad, [bad], { [bad]: 1 }]);

let portal: Portal;
let routes: DeclaredRoute[];
beforeAll(async () => {
  portal = await startPortal();
  routes = portal.routes().filter((r) => ROUTE_RULES[routeKey(r)]);
}, 60_000);
afterAll(() => portal?.close());

/** How many documents each collection of the five services holds: equal before and after means nothing was written. */
async function storedCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  // Counted side by side: one collection after another would be a good part of this file's time.
  await Promise.all(
    [portal.auth, portal.content, portal.progress, portal.crm, portal.audit].map(async (service) => {
      const db = service.ctx.store.db!;
      for (const { name } of await db.listCollections().toArray()) {
        counts[`${db.databaseName}.${name}`] = await db.collection(name).countDocuments();
      }
    }),
  );
  return counts;
}

function rightful(rule: RouteRule): { token?: string; headers: Record<string, string> } {
  if (rule.access === 'public') return { headers: {} };
  if (rule.access === 'internal') return { headers: { 'x-internal-token': INTERNAL_TOKEN } };
  const roles = rule.access.filter((r) => !rule.hiddenFrom?.includes(r));
  if (!roles.length) return { token: portal.victim.token, headers: {} };
  const role = (['ADMIN', 'CURATOR', 'MANAGER', 'CANDIDATE', 'CLIENT'] as const).find((r) => roles.includes(r))!;
  return { token: portal.as[role].token, headers: {} };
}

const isRussian = (answer: ApiAnswer) => typeof answer.body?.message === 'string' && /[а-яё]/i.test(answer.body.message);

/** Posts raw bytes with the given headers: fetch sets its own type for a string body. */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body: string): Promise<ApiAnswer> {
  return new Promise((resolve, reject) => {
    const length = { 'content-length': String(Buffer.byteLength(body)) }; // node frames a DELETE body only when told its length
    const req = request(`${base}${path}`, { method, headers: { ...headers, ...length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status: res.statusCode!, body: parsed, headers: new Headers() });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Case {
  route: DeclaredRoute;
  rule: RouteRule;
  request: CellRequest;
}

let allCases: Promise<Case[]> | undefined;
/**
 * The routes with their requests, built once for the file: every probe here is refused and each test
 * checks that nothing stored changed, so the records made for one test are still there for the next.
 */
async function casesOf(filter: (route: DeclaredRoute) => boolean): Promise<Case[]> {
  allCases ??= (async () => {
    const cases: Case[] = [];
    await eachConcurrently(routes, async (route) => {
      const rule = ROUTE_RULES[routeKey(route)];
      cases.push({ route, rule, request: (await rule.request?.(portal, 'ADMIN')) ?? {} });
    });
    return cases;
  })();
  return (await allCases).filter(({ route }) => filter(route));
}

describe('every route of every service', () => {
  it('refuses a NUL in any query parameter with 400 and a Russian message, and a NUL in any path parameter', async () => {
    const cases = await casesOf(() => true);
    expect(cases.length).toBeGreaterThan(50);
    const before = await storedCounts();
    const problems: string[] = [];
    await eachConcurrently(cases, async ({ route, rule, request }) => {
      const { token, headers } = rightful(rule);
      const base = serviceUrl(portal, route.service);
      const path = fillPath(route.path, request.params);
      const withQuery = `${path}${request.query ? `${request.query}&` : '?'}${QUERY_FIELDS.map((f) => `${f}=a%00`).join('&')}`;
      const probes = [withQuery, `${path}?search=%00`];
      if (route.path.includes('/:')) probes.push(route.path.replace(/:(\w+)/g, 'x%00'));
      for (const probe of probes) {
        const answer = await api(base, route.method, probe, { token, headers, body: request.body });
        if (answer.status !== 400 || answer.body?.message !== MSG.badCharacters) {
          problems.push(`${routeKey(route)} ${probe}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 80)}`);
        }
      }
    });
    expect(problems).toEqual([]);
    expect(await storedCounts()).toEqual(before);
  }, 120_000);

  it('refuses a NUL or a lone surrogate in any field of any body with 400, and changes nothing', async () => {
    const cases = (await casesOf((r) => r.method !== 'GET')).filter(
      ({ request }) => request.body && typeof request.body === 'object' && Object.keys(request.body).length,
    );
    expect(cases.length).toBeGreaterThan(15);
    const before = await storedCounts();
    const problems: string[] = [];
    await eachConcurrently(cases, async ({ route, rule, request }) => {
      const { token, headers } = rightful(rule);
      const body = request.body as Record<string, unknown>;
      // Every field gets a bad value, and every bad value (each text, bare or nested) some field: the seed decides which with which.
      const random = generator(seedOf(`${SWEEP_SEED} ${routeKey(route)}`));
      for (const [field, value] of covering(Object.keys(body), BAD_VALUES, random)) {
        const answer = await api(serviceUrl(portal, route.service), route.method, fillPath(route.path, request.params), {
          token,
          headers,
          body: { ...body, [field]: value },
        });
        if (answer.status !== 400 || !isRussian(answer)) {
          problems.push(`${routeKey(route)} ${field}=${JSON.stringify(value)}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    });
    expect({ seed: SWEEP_SEED, problems }).toEqual({ seed: SWEEP_SEED, problems: [] });
    expect(await storedCounts()).toEqual(before);
  }, 180_000);

  it('refuses bodies it cannot read (not gzip, not JSON, truncated, too deep) with 400 or 415 in Russian, never 500', async () => {
    const cases = await casesOf((r) => r.method !== 'GET' && !r.path.startsWith('/api/upload'));
    const before = await storedCounts();
    const problems: string[] = [];
    const bodies: Array<{ headers: Record<string, string>; body: string; status: number }> = [
      { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{"a":1}', status: 400 },
      { headers: { 'content-type': 'text/plain' }, body: 'a=1', status: 415 },
      { headers: { 'content-type': 'application/json' }, body: '{"title": "обрыв', status: 400 },
      { headers: { 'content-type': 'application/json' }, body: `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`, status: 400 },
    ];
    await eachConcurrently(cases, async ({ route, rule, request }) => {
      const { token, headers } = rightful(rule);
      for (const probe of bodies) {
        const answer = await raw(
          serviceUrl(portal, route.service),
          route.method,
          fillPath(route.path, request.params),
          { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...probe.headers },
          probe.body,
        );
        if (answer.status !== probe.status || !isRussian(answer)) {
          problems.push(`${routeKey(route)} ${JSON.stringify(probe.headers)}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    });
    expect(problems).toEqual([]);
    expect(await storedCounts()).toEqual(before);
  }, 120_000);
});

describe('through the gateway', () => {
  it('the searches and the exports answer ?search=%00 with 400 in Russian, and serve the next request', async () => {
    const admin = portal.as.ADMIN.token;
    for (const path of [
      '/api/courses?search=%00',
      '/api/users?search=%00',
      '/api/organizations?search=%00',
      '/api/results?search=%00',
      '/api/results/export?search=%00',
      '/api/users/export?search=%00',
      '/api/organizations/export?search=%00',
      '/api/audit/export?search=%00',
      '/api/audit?search=%00',
      '/api/audit?actorId=%00',
    ]) {
      const answer = await api(portal.gateway.url, 'GET', path, { token: admin });
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 400,
        body: { message: MSG.badCharacters, statusCode: 400 },
      });
    }
    expect((await api(portal.gateway.url, 'GET', '/api/courses', { token: admin })).status).toBe(200);
  });
});
