import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import type { Connection } from 'mongoose';
import { api, uniqueInn, type ApiAnswer } from '@portal/devstack/testing';
import { eachConcurrently, startPortal, serviceUrl, type DeclaredRoute, type Portal } from './portal';
import { ROUTE_RULES, fillPath, routeKey, type CellRequest, type RouteRule } from './routeTable';
import { SWEEP_SEED, covering, generator, rotation, seedOf } from './sampling';

const INTERNAL_TOKEN = process.env.INTERNAL_TOKEN!;

/** The operator objects of a NoSQL injection, as JSON can carry them: each field of a route gets one, and each route all of them. */
const OPERATORS: unknown[] = [{ $ne: null }, { $gt: '' }, { $where: '1' }, { $nor: [{}] }, { $regex: '.*' }, { $in: [null, ''] }];
/** Query fields the routes read; each is also sent as `name[$op]=…`, which a qs-style parser would turn into an object. */
const QUERY_FIELDS = [
  'search',
  'status',
  'userId',
  'courseId',
  'quizId',
  'filter',
  'role',
  'page',
  'limit',
  'tz',
  'accept',
  'lessonId',
  'actorId',
  'days',
];
/** Operators at the top level of a body: each route gets one, the sweep all of them. */
const TOP_LEVEL: Array<Record<string, unknown>> = [{ $where: '1' }, { $nor: [{}] }, { $or: [{}] }];
/** Query fields sent twice (an array) to each GET route; the sweep sends every field to several. */
const DOUBLED_PER_ROUTE = 3;

let portal: Portal;
let routes: DeclaredRoute[];
beforeAll(async () => {
  portal = await startPortal();
  routes = portal.routes().filter((r) => ROUTE_RULES[routeKey(r)]);
}, 60_000);
afterAll(() => portal?.close());

const stores = (): Connection[] =>
  [portal.auth, portal.content, portal.progress, portal.crm, portal.audit].map((s) => s.ctx.store);

/** Everything the five services have stored, as one hash: equal before and after means nothing changed. */
async function storedState(): Promise<string> {
  // Read side by side: one collection after another would be most of this test's time.
  const parts = await Promise.all(
    stores().map(async (store) => {
      const db = store.db!;
      const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
      const docs = await Promise.all(names.map((name) => db.collection(name).find({}).sort({ _id: 1 }).toArray()));
      return names.map((name, i) => `${store.name}.${name}:${JSON.stringify(docs[i])}`);
    }),
  );
  const hash = createHash('sha256');
  for (const part of parts.flat()) hash.update(part);
  return hash.digest('hex');
}

/** A caller with the right to the route, so the injected request reaches the route's own code. */
function rightfulHeaders(rule: RouteRule): { token?: string; headers: Record<string, string> } {
  if (rule.access === 'public') return { headers: {} };
  if (rule.access === 'internal') return { headers: { 'x-internal-token': INTERNAL_TOKEN } };
  const roles = rule.access.filter((r) => !rule.hiddenFrom?.includes(r));
  // A route only its owner may use (submitting an attempt) is called by the owner.
  if (!roles.length) return { token: portal.victim.token, headers: {} };
  const role = (['ADMIN', 'CURATOR', 'MANAGER', 'CANDIDATE', 'CLIENT'] as const).find((r) => roles.includes(r))!;
  return { token: portal.as[role].token, headers: {} };
}

async function send(route: DeclaredRoute, rule: RouteRule, request: CellRequest, body: unknown, query = ''): Promise<ApiAnswer> {
  const { token, headers } = rightfulHeaders(rule);
  return api(serviceUrl(portal, route.service), route.method, `${fillPath(route.path, request.params)}${query}`, {
    token,
    headers,
    body,
  });
}

let requests: Promise<Map<string, CellRequest>> | undefined;
/**
 * Each route's request as the ADMIN would send it, built once for the probes that must all be refused
 * (each of those tests checks that nothing stored changed, so the records made for one serve the next).
 */
async function refusedProbeRequest(route: DeclaredRoute): Promise<CellRequest> {
  requests ??= (async () => {
    const built = new Map<string, CellRequest>();
    await eachConcurrently(routes, async (r) => {
      built.set(routeKey(r), (await ROUTE_RULES[routeKey(r)].request?.(portal, 'ADMIN')) ?? {});
    });
    return built;
  })();
  return (await requests).get(routeKey(route))!;
}

/** Fields of a body that change on every call (timestamps of the answer itself). */
const stable = (answer: ApiAnswer) => JSON.stringify(answer.body, (key, value) => (key === 'serverNow' ? undefined : value));

describe('operator objects in bodies', () => {
  it('are refused (4xx) in every field of every route’s body; at the top level refused or ignored; nothing stored changes', async () => {
    // Every request is built first (destructive routes make fresh targets), so the probes alone are measured.
    const cases: Array<{ route: DeclaredRoute; rule: RouteRule; request: CellRequest; body: Record<string, unknown> }> = [];
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const rule = ROUTE_RULES[routeKey(route)];
      const request = await refusedProbeRequest(route);
      if (request.body && typeof request.body === 'object')
        cases.push({ route, rule, request, body: request.body as Record<string, unknown> });
    }
    expect(cases.length).toBeGreaterThan(20);
    const before = await storedState();
    const problems: string[] = [];
    const accepted: string[] = [];
    const topLevel = rotation(TOP_LEVEL, cases.length, 1, generator(SWEEP_SEED));
    await eachConcurrently(
      cases.map((c, i) => ({ ...c, extras: topLevel[i] })),
      async ({ route, rule, request, body, extras }) => {
        // Every field with an operator, and every operator in some field: the seed decides which with which.
        const random = generator(seedOf(`${SWEEP_SEED} ${routeKey(route)}`));
        for (const [field, operator] of covering(Object.keys(body), OPERATORS, random)) {
          const answer = await send(route, rule, request, { ...body, [field]: operator });
          if (answer.status < 400 || answer.status >= 500) {
            problems.push(`${routeKey(route)} ${field}=${JSON.stringify(operator)}: ${answer.status}`);
          }
        }
        // Operators at the top level: unknown fields, refused (strict schemas) or dropped (the rest).
        for (const extra of extras) {
          const answer = await send(route, rule, request, extra);
          if (answer.status >= 500) problems.push(`${routeKey(route)} body ${JSON.stringify(extra)}: ${answer.status}`);
          else if (answer.status < 300) accepted.push(`${routeKey(route)} ${JSON.stringify(extra)}`);
        }
      },
    );
    expect({ seed: SWEEP_SEED, problems }).toEqual({ seed: SWEEP_SEED, problems: [] });
    // Whatever was answered 2xx above (an empty body some routes accept), nothing stored changed.
    expect({ accepted, changed: (await storedState()) !== before }).toEqual({ accepted, changed: false });
  }, 60_000);

  it('never lets a login match an account by an operator', async () => {
    for (const operator of OPERATORS) {
      const answer = await api(portal.auth.url, 'POST', '/api/auth/login', {
        body: { email: portal.victim.user.email, password: operator },
      });
      expect({ operator, status: answer.status }).toEqual({ operator, status: 400 });
      const byEmail = await api(portal.auth.url, 'POST', '/api/auth/login', {
        body: { email: operator, password: portal.victim.password },
      });
      expect({ operator, status: byEmail.status }).toEqual({ operator, status: 400 });
    }
  });
});

describe('operator objects in query strings and path ids', () => {
  it('are ignored or refused by every GET route: the answer is the one without them, never more records', async () => {
    const problems: string[] = [];
    // Every field with every operator at once (a qs-style parser would make objects of them), then a few
    // fields twice each (an array): the seed picks which, and the sweep sends every field to several routes.
    const operators = QUERY_FIELDS.flatMap((f) =>
      ['[$ne]=x', '[$gt]=', '[$regex]=.*', '[$where]=1', '[$nor][0]='].map((op) => `${f}${op}`),
    ).join('&');
    const reads = routes.filter((r) => r.method === 'GET' && !r.path.startsWith('/api/files'));
    // The requests are built first: a fixture made while another route is asked would change its answer.
    const cases: Array<{ route: DeclaredRoute; rule: RouteRule; request: CellRequest; doubled: string[] }> = [];
    const doubled = rotation(QUERY_FIELDS, reads.length, DOUBLED_PER_ROUTE, generator(SWEEP_SEED));
    for (const [i, route] of reads.entries()) {
      const rule = ROUTE_RULES[routeKey(route)];
      cases.push({ route, rule, request: await refusedProbeRequest(route), doubled: doubled[i] });
    }
    await eachConcurrently(cases, async ({ route, rule, request, doubled }) => {
      const baseQuery = request.query ?? '';
      const baseline = () => send(route, rule, request, undefined, baseQuery);
      const first = await baseline();
      for (const extra of [operators, ...doubled.map((f) => `${f}=a&${f}=b`)]) {
        const query = `${baseQuery ? `${baseQuery}&` : '?'}${extra}`;
        const answer = await send(route, rule, request, undefined, query);
        if (answer.status >= 500) problems.push(`${routeKey(route)}${query}: ${answer.status}`);
        // A list another route's request has just grown differs from the first baseline, not from a new one.
        else if (answer.status < 300 && stable(answer) !== stable(first) && stable(answer) !== stable(await baseline())) {
          problems.push(`${routeKey(route)} ?${extra.slice(0, 60)}: a different answer than without it`);
        }
      }
    });
    expect({ seed: SWEEP_SEED, problems }).toEqual({ seed: SWEEP_SEED, problems: [] });
    expect(new Set(doubled.flat()).size).toBe(QUERY_FIELDS.length);
  }, 150_000);

  it('a search is taken literally: regex characters find nothing they do not spell', async () => {
    const admin = portal.as.ADMIN.token;
    for (const [base, path] of [
      [portal.auth.url, '/api/users?search='],
      [portal.crm.url, '/api/organizations?search='],
      [portal.content.url, '/api/courses?search='],
      [portal.progress.url, '/api/results?search='],
    ] as const) {
      const answer = await api(base, 'GET', `${path}${encodeURIComponent('.*')}`, { token: admin });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      const rows = Array.isArray(answer.body) ? answer.body : answer.body.data;
      expect({ path, rows: rows.length }).toEqual({ path, rows: 0 });
    }
  });

  it('an operator object in a path id is a 400 or 404, never a record', async () => {
    const cases: Array<{ route: DeclaredRoute; rule: RouteRule; request: CellRequest }> = [];
    for (const route of routes.filter((r) => r.path.includes('/:'))) {
      const rule = ROUTE_RULES[routeKey(route)];
      cases.push({ route, rule, request: await refusedProbeRequest(route) });
    }
    const before = await storedState();
    const problems: string[] = [];
    await eachConcurrently(cases, async ({ route, rule, request }) => {
      for (const value of [
        '%7B%22%24ne%22%3Anull%7D',
        '%5B%24ne%5D',
        '%24where',
        '..%2f..',
        '%00',
        '0123456789abcdef01234567%00',
      ]) {
        const { token, headers } = rightfulHeaders(rule);
        const path = route.path.replace(/:(\w+)/g, value);
        const answer = await api(serviceUrl(portal, route.service), route.method, `${path}${request.query ?? ''}`, {
          token,
          headers,
          body: request.body,
        });
        if (![400, 404].includes(answer.status)) problems.push(`${routeKey(route)} with ${value}: ${answer.status}`);
      }
    });
    expect(problems).toEqual([]);
    expect((await storedState()) === before).toBe(true);
  }, 60_000);
});

describe('mass assignment: role, id and ownership fields in bodies are refused or ignored', () => {
  const fakeId = new Types.ObjectId().toHexString();
  const SMUGGLED = () => ({
    id: fakeId,
    _id: fakeId,
    userId: portal.victim.user.id,
    uploadedBy: portal.victim.user.id,
    createdAt: '2000-01-01T00:00:00.000Z',
    updatedAt: '2000-01-01T00:00:00.000Z',
    role: 'ADMIN',
    passwordHash: 'x',
    attemptNumber: 99,
    score: 999,
    percentage: 100,
    status: 'passed',
    orgId: fakeId,
  });

  it('no write route stores a smuggled id, owner, date, role or score', async () => {
    const problems: string[] = [];
    for (const route of routes.filter((r) => r.method === 'POST' || r.method === 'PATCH')) {
      const rule = ROUTE_RULES[routeKey(route)];
      const request = (await rule.request?.(portal, 'ADMIN')) ?? {};
      if (!request.body || typeof request.body !== 'object') continue;
      const body = request.body as Record<string, unknown>;
      // Fields the route legitimately takes stay as the sample has them.
      const extras = Object.fromEntries(Object.entries(SMUGGLED()).filter(([k]) => !(k in body)));
      const answer = await send(route, rule, request, { ...body, ...extras });
      if (answer.status >= 500) problems.push(`${routeKey(route)}: ${answer.status}`);
      const text = JSON.stringify(answer.body);
      if (answer.status < 300 && (text.includes(fakeId) || text.includes('2000-01-01'))) {
        problems.push(`${routeKey(route)}: the answer carries a smuggled value ${text.slice(0, 200)}`);
      }
    }
    // Nowhere in any service's store: the fake id, the old date, or a new ADMIN.
    for (const store of stores()) {
      const db = store.db!;
      for (const { name } of await db.listCollections().toArray()) {
        const collection = db.collection(name);
        const byId = await collection.countDocuments({ _id: new Types.ObjectId(fakeId) });
        const byStringId = await collection.countDocuments({ _id: fakeId as unknown as Types.ObjectId });
        const old = await collection.countDocuments({ createdAt: { $lt: new Date('2001-01-01') } });
        const owned = await collection.countDocuments({ $or: [{ orgId: new Types.ObjectId(fakeId) }, { orgId: fakeId }] });
        if (byId + byStringId + old + owned) problems.push(`${store.name}.${name}: smuggled values stored`);
      }
    }
    const admins = await portal.auth.ctx.store.collection('users').countDocuments({ role: 'ADMIN' });
    expect(problems).toEqual([]);
    expect(admins).toBe(1);
  }, 120_000);

  it('a learner’s attempt cannot be started as someone else or pre-scored', async () => {
    const learner = await portal.learner('CLIENT', 'Мошенник Подделкин');
    const { quiz, course, quizLessonId } = portal.seeded;
    const start = await api(portal.progress.url, 'POST', '/api/attempts', {
      token: learner.token,
      body: {
        quizId: quiz.id,
        courseId: course.id,
        lessonId: quizLessonId,
        userId: portal.victim.user.id,
        status: 'passed',
        score: 3,
      },
    });
    expect([201, 400]).toContain(start.status);
    const victimAttempts = await portal.store.attempts.countDocuments({ userId: portal.victim.user.id });
    expect(victimAttempts).toBe(1);
    if (start.status === 201) {
      const stored = await portal.store.attempts.findById(start.body.attempt.id).lean();
      expect(stored).toMatchObject({ userId: learner.user.id, status: 'in_progress' });
      expect(stored?.score ?? 0).toBe(0);
    }
  });

  it('a contact cannot be moved to another organization, nor an upload re-owned, by an edit', async () => {
    const other = await api(portal.crm.url, 'POST', '/api/organizations', {
      token: portal.as.MANAGER.token,
      body: { name: 'Другая организация', inn: uniqueInn() },
    });
    const contacts = portal.crm.ctx.store.collection('contacts');
    const read = await contacts.findOne({ _id: new Types.ObjectId(portal.contactId) });
    const patch = await api(portal.crm.url, 'PATCH', `/api/contacts/${portal.contactId}`, {
      token: portal.as.MANAGER.token,
      body: { fullName: 'Ольга Контактова', orgId: other.body.id, version: read?.version ?? 0 },
    });
    expect([200, 400]).toContain(patch.status);
    const stored = await contacts.findOne({ _id: new Types.ObjectId(portal.contactId) });
    expect(String(stored?.orgId)).toBe(portal.organizationId);
  });
});
