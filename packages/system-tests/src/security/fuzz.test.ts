import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { ServiceName } from '@portal/contracts';
import { AUDIT_OUTBOX } from '@portal/service-kit';
import { rightfulCaller, serviceUrl, startPortal, type DeclaredRoute, type Portal } from './portal';
import { ROUTE_RULES, fillPath, routeKey, type CellRequest, type RouteRule } from './routeTable';
import { generator, seedOf, type Random } from './sampling';

// Generated hostile input on every route of every service: bodies, query strings and headers, as a
// caller with the right and as nobody. Whatever is sent, the answer is never a 5xx nor a dropped
// connection, every refusal says why in Russian, and a refused write changes nothing in the store.
// The inputs come from a seeded generator: the seed is printed, and FUZZ_SEED replays a run.

const SEED = Number(process.env.FUZZ_SEED ?? 18_2026);
const CASES_WITH_RIGHT = Number(process.env.FUZZ_CASES ?? 6);
const CASES_ANONYMOUS = 2;
/**
 * The first round sends a case to every route; each later round to a share of the routes the seed
 * picks. A fixed share, not a time budget: the same seed sends the same cases on any machine.
 */
const LATER_ROUND_SHARE = Number(process.env.FUZZ_SHARE ?? 0.2);

interface Target {
  route: DeclaredRoute;
  key: string;
  request: CellRequest;
  callers: Array<{ who: string; auth: Record<string, string>; cases: number; random: Random }>;
}

const HOSTILE_TEXT = [
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  'ы'.repeat(300_001),
  'javascript:alert(1)',
  'JaVaScRiPt:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  '//evil.example/x.png',
  '/\\evil.example/x.png',
  '\\\\evil.example\\x',
  '/\t/evil.example',
  'http://',
  '   ',
  '',
  '\u202e\u200b',
] as const;
const HOSTILE_NUMBERS = [1e308, -1e308, -1, 2 ** 53 + 2, 1.5, -0.000001, 1e21] as const;
const HOSTILE_SHAPES = [null, true, [], {}, { $gt: '' }, { $ne: null }, ['a', { $where: '1' }], { __proto__: { admin: true } }];

/** A JSON value that nothing should accept as any field: odd types, out-of-range numbers, text the store cannot keep. */
function hostileValue(random: Random): unknown {
  const kind = random.next();
  if (kind < 0.45) return random.pick(HOSTILE_TEXT);
  if (kind < 0.7) return random.pick(HOSTILE_NUMBERS);
  if (kind < 0.9) return random.pick(HOSTILE_SHAPES);
  return [random.pick(HOSTILE_TEXT)];
}

/** Replaces one value somewhere inside a (copied) JSON value: a field, an array item, or a nested field. */
function mutated(value: unknown, random: Random, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 4 || random.next() < 0.15) return hostileValue(random);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as object) };
  const keys = Object.keys(copy);
  if (!keys.length)
    return { [random.pick(['title', 'email', 'role', 'src', 'page', '$set', 'constructor'])]: hostileValue(random) };
  const key = random.pick(keys);
  (copy as Record<string, unknown>)[key] = mutated((copy as Record<string, unknown>)[key], random, depth + 1);
  return copy;
}

interface Probe {
  what: string;
  /** Another method than the route's: a path asked in a way it does not answer. */
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** Query strings no route should answer with a crash: odd numbers, arrays, objects, bad escapes. */
const HOSTILE_QUERIES = [
  'page=1e308&limit=1e308',
  'page=-1&limit=-1',
  'page=NaN&limit=Infinity',
  'page=99999999999999999999999&limit=0x10',
  'limit=1.5&days=-0',
  'search=%00',
  'search=%ED%A0%80',
  'search=%E0%A4%A',
  'search[]=a&search[]=b',
  'search[$ne]=1&status[$gt]=',
  'search=a&search=b&status=a&status=b',
  'sort=__proto__&role=constructor',
  'tz=..%2F..%2Fetc%2Fpasswd&days=1e400',
  'userId=%7B%22%24gt%22%3A%22%22%7D&courseId=%24where',
  `search=${'%D1%8B'.repeat(5000)}`,
  'actorId=&from=2025-13-45&to=never',
  'accept=javascript:alert(1)',
];

/** Headers sent with a body that is otherwise the route's own: wrong encodings and types, odd values. */
function headerProbes(body: Buffer): Array<{ what: string; headers: Record<string, string>; body: Buffer }> {
  return [
    { what: 'gzip that is not gzip', headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body },
    { what: 'deflate that is not deflate', headers: { ...JSON_TYPE, 'content-encoding': 'deflate' }, body },
    { what: 'br that is not br', headers: { ...JSON_TYPE, 'content-encoding': 'br' }, body },
    { what: 'unknown encoding', headers: { ...JSON_TYPE, 'content-encoding': 'x-unknown, gzip' }, body },
    { what: 'truncated gzip', headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: gzipSync(body).subarray(0, 12) },
    { what: 'text/plain', headers: { 'content-type': 'text/plain' }, body },
    { what: 'form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from('title=a&email=b') },
    { what: 'utf-16 charset', headers: { 'content-type': 'application/json; charset=utf-16' }, body },
    { what: 'latin1 charset', headers: { 'content-type': 'application/json; charset=latin1' }, body },
    { what: 'no type', headers: {}, body },
    { what: 'stale If-Match', headers: { ...JSON_TYPE, 'if-match': 'W/"garbage"' }, body },
    { what: 'bad range', headers: { ...JSON_TYPE, range: 'bytes=999999999999-1' }, body },
    { what: 'bad forwarded-for', headers: { ...JSON_TYPE, 'x-forwarded-for': '%00, ::ffff:999.1.1.1, <script>' }, body },
  ];
}

/** Headers of a read that no route should crash on: ranges, validators, tokens and encodings it cannot use. */
const READ_HEADERS: Array<Record<string, string>> = [
  { range: 'bytes=999999999999999999999-1' },
  { range: 'bytes=-0, 5-1, x' },
  { range: 'bytes=1e308-' },
  { 'if-none-match': '"\\u0000", W/' },
  { 'if-modified-since': 'gestern \xe4\xff' },
  { 'accept-encoding': 'gzip;q=NaN, br;q=-1, *;q=1e308' },
  { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.' },
  { authorization: 'Basic Og==' },
  { cookie: 'token=%00; token=%ED%A0%80' },
  { 'x-request-id': '../../../etc/passwd' },
  { accept: 'text/csv;q=1e999, */*;q=-1' },
  { authorization: 'Bearer \xe4\xff\xfe' },
  { 'x-internal-token': '\xff'.repeat(34) },
  { 'x-forwarded-for': '\xff, 999.999.999.999, ::1%00' },
];

const BOUNDARY = 'fuzz-boundary';
const part = (headers: string, content: string) => `--${BOUNDARY}\r\n${headers}\r\n\r\n${content}\r\n`;
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/** Multipart bodies an upload should refuse: no boundary, cut short, odd names, too many parts, no file. */
const MULTIPART_PROBES: Array<{ what: string; headers: Record<string, string>; body: Buffer }> = [
  { what: 'multipart without a boundary', headers: { 'content-type': 'multipart/form-data' }, body: Buffer.from('x') },
  {
    what: 'multipart cut short',
    headers: MULTIPART,
    body: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG`),
  },
  {
    what: 'a malformed part header',
    headers: MULTIPART,
    body: Buffer.from(`${part('Content-Disposition form-data', 'x')}--${BOUNDARY}--\r\n`),
  },
  {
    what: 'a NUL in the file name (RFC 5987)',
    headers: MULTIPART,
    body: Buffer.from(
      `${part(`Content-Disposition: form-data; name="file"; filename*=UTF-8''a%00b%ED%A0%80.txt`, 'текст')}--${BOUNDARY}--\r\n`,
    ),
  },
  {
    what: 'a NUL in the field name',
    headers: MULTIPART,
    body: Buffer.from(`${part('Content-Disposition: form-data; name="fi\u0000le"; filename="a.txt"', 'x')}--${BOUNDARY}--\r\n`),
  },
  {
    what: 'a field that is not a file',
    headers: MULTIPART,
    body: Buffer.from(`${part('Content-Disposition: form-data; name="file"', 'не файл')}--${BOUNDARY}--\r\n`),
  },
  {
    what: 'too many parts',
    headers: MULTIPART,
    body: Buffer.from(
      `${Array.from({ length: 60 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'x')).join('')}--${BOUNDARY}--\r\n`,
    ),
  },
  {
    what: 'a file under another field name',
    headers: MULTIPART,
    body: Buffer.from(`${part('Content-Disposition: form-data; name="other"; filename="a.txt"', 'x')}--${BOUNDARY}--\r\n`),
  },
];

/** Bodies no route can read: truncated, too deep, not UTF-8, a scalar, an array, a prototype key. */
const RAW_BODIES: Array<{ what: string; body: Buffer }> = [
  { what: 'truncated JSON', body: Buffer.from('{"title": "обрыв') },
  { what: 'too deep', body: Buffer.from(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`) },
  { what: 'deeper than the stack', body: Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) },
  { what: 'invalid UTF-8', body: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]) },
  { what: 'escaped NUL key', body: Buffer.from('{"ti\\u0000tle":"x"}') },
  { what: 'a JSON scalar', body: Buffer.from('"строка"') },
  { what: 'a JSON array', body: Buffer.from('[{"title":"x"}]') },
  { what: 'null', body: Buffer.from('null') },
  { what: 'a prototype key', body: Buffer.from('{"__proto__":{"role":"ADMIN"},"constructor":{"prototype":{"x":1}}}') },
  { what: 'huge number', body: Buffer.from(`{"page":1${'0'.repeat(400)},"position":-1e999}`) },
];

/** The probes of one case: one kind of hostile input, chosen by the generator. */
function probesFor(route: DeclaredRoute, request: CellRequest, random: Random): Probe {
  const path = fillPath(route.path, request.params);
  const sep = request.query ? `${request.query}&` : '?';
  const writes = route.method !== 'GET';
  const body = request.body === undefined ? undefined : json(request.body);
  const kind = random.next();
  if (kind > 0.95) {
    const method = random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'MKCOL'].filter((m) => m !== route.method));
    return { what: `${method} instead of ${route.method}`, method, path, headers: body ? JSON_TYPE : {}, body };
  }
  if (route.path.startsWith('/api/upload') && kind < 0.5) {
    const probe = random.pick(MULTIPART_PROBES);
    return { ...probe, path: `${path}${sep}accept=${random.pick(['media', 'image', 'any', '%00'])}` };
  }
  if (!writes && kind < 0.3) {
    const headers = random.pick(READ_HEADERS);
    return { what: `headers ${JSON.stringify(headers)}`, path: `${path}${request.query ?? ''}`, headers };
  }
  if (kind < 0.25 || !writes) {
    const query = random.pick(HOSTILE_QUERIES);
    // Path parameters get their share of hostile text too.
    const hostilePath =
      route.path.includes('/:') && random.next() < 0.3
        ? route.path.replace(/:(\w+)/g, () =>
            random.pick(['%00', '%ED%A0%80', '%E0%A4%A', '..%2F..', 'a'.repeat(5000), '%24where']),
          )
        : path;
    return {
      what: `${hostilePath.slice(0, 60)}?${query.slice(0, 60)}`,
      path: `${hostilePath}${sep}${query}`,
      headers: body ? JSON_TYPE : {},
      body,
    };
  }
  if (kind < 0.6) {
    const value = mutated(request.body ?? {}, random);
    return { what: `body ${JSON.stringify(value)?.slice(0, 100)}`, path, headers: JSON_TYPE, body: json(value) };
  }
  if (kind < 0.8) {
    const probe = random.pick(RAW_BODIES);
    return { what: probe.what, path, headers: JSON_TYPE, body: probe.body };
  }
  const probe = random.pick(headerProbes(body ?? json({ title: 'x' })));
  return { what: probe.what, path, headers: probe.headers, body: probe.body };
}

interface Answer {
  status: number;
  body: unknown;
}

/** One request over a fresh connection; a connection dropped before a whole answer is a failure. */
function send(base: string, method: string, probe: Probe, auth: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...auth, ...probe.headers };
    // node frames a DELETE or GET body only when told its length.
    if (probe.body) headers['content-length'] = String(probe.body.length);
    const req = request(`${base}${probe.path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.setTimeout(15_000, () => req.destroy(new Error('no answer in 15 s')));
    req.on('error', reject);
    req.end(probe.body);
  });
}

const isRussianRefusal = ({ status, body }: Answer) =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as { message?: unknown }).message === 'string' &&
  /[а-яё]/i.test((body as { message: string }).message) &&
  (body as { statusCode?: unknown }).statusCode === status;

let portal: Portal;
let routes: DeclaredRoute[];
beforeAll(async () => {
  portal = await startPortal();
  routes = portal.routes();
}, 60_000);
afterAll(() => portal?.close());

/**
 * A fingerprint of everything one service stores: equal before and after means nothing was written.
 * The audit outbox is left out: it holds events on their way to the trail only while Redis is slow
 * or away, and drains on its own timer, whatever the request was (events normally go through Redis,
 * which no fingerprint reads either).
 */
async function fingerprint(service: DeclaredRoute['service']): Promise<string> {
  const db = portal[service].ctx.store.db!;
  const names = (await db.listCollections().toArray())
    .map((c) => c.name)
    .filter((name) => name !== AUDIT_OUTBOX)
    .sort();
  // Read side by side: one collection after another would be most of this file's time.
  const contents = await Promise.all(
    names.map(async (name) => [name, await db.collection(name).find().sort({ _id: 1 }).toArray()] as const),
  );
  return createHash('sha256').update(JSON.stringify(contents)).digest('hex');
}

/**
 * The stores a service's accepted request may write besides its own, through the internal routes it
 * calls: progress pins the course version an attempt starts on and marks a course as studied
 * (content), and makes a candidate link's accounts (auth). A refusal of theirs is checked before
 * such a request, and their stores are looked at again after one is accepted.
 */
const WRITES_INTO: Partial<Record<ServiceName, ServiceName[]>> = { progress: ['content', 'auth'] };

/** Where a route is called: through the gateway like a browser, except the internal routes it never exposes. */
const baseOf = (route: DeclaredRoute) =>
  route.path.startsWith('/internal') ? serviceUrl(portal, route.service) : portal.gateway.url;

describe('fuzz: generated hostile input on every route', () => {
  it('lists every route the routers declare in the route table', () => {
    const unlisted = routes.map(routeKey).filter((key) => !ROUTE_RULES[key]);
    expect(unlisted).toEqual([]);
  });

  it('never answers 5xx or drops the connection, refuses in Russian, and a refusal changes nothing', async () => {
    process.stdout.write(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays this run)\n`);
    const picks = generator(SEED);
    const targets: Target[] = [];
    for (const route of routes) {
      const key = routeKey(route);
      const rule: RouteRule | undefined = ROUTE_RULES[key];
      if (!rule) continue;
      targets.push({
        route,
        key,
        request: (await rule.request?.(portal, 'ADMIN')) ?? {},
        callers: [
          { who: 'with the right', auth: await rightfulCaller(portal, rule, route), cases: CASES_WITH_RIGHT },
          { who: 'anonymous', auth: {}, cases: CASES_ANONYMOUS },
        ].map((caller) => ({ ...caller, random: generator(seedOf(`${SEED} ${key} ${caller.who}`)) })),
      });
    }
    // What each service stored when last looked at; unknown after a request it accepted.
    const known: Partial<Record<ServiceName, string>> = {};
    const problems: string[] = [];
    // Refused writes not yet checked against the store. They are checked together, before the
    // service is next sent a request it may accept: a refusal is never mistaken for an accepted write.
    const unchecked: Partial<Record<ServiceName, string[]>> = {};
    const check = async (service: ServiceName, accepted?: string) => {
      const labels = unchecked[service] ?? [];
      if (!labels.length) return;
      const now = await fingerprint(service);
      if (now !== known[service])
        problems.push(`${labels.join('; ')}: refused but the store changed${accepted ? ` (or by ${accepted})` : ''}`);
      known[service] = now;
      unchecked[service] = [];
    };
    // What an accepted request may have written: its service's store, and those its internal calls write.
    const forget = (service: ServiceName) => {
      for (const written of [service, ...(WRITES_INTO[service] ?? [])]) delete known[written];
    };
    let sent = 0;
    let rounds = 0;
    // Round by round: the first over every route, the others over the routes the seed picks.
    for (; rounds < CASES_WITH_RIGHT; rounds++) {
      const round = rounds === 0 ? targets : targets.filter(() => picks.next() < LATER_ROUND_SHARE);
      for (const { route, key, request, callers } of round) {
        const { service, method } = route;
        for (const { who, auth, cases, random } of callers) {
          if (rounds >= cases) continue;
          const probe = probesFor(route, request, random);
          const label = `${key} ${who}: ${probe.what}`;
          // Nobody may use a route that needs a right without one: such a probe is refused, so the
          // refusals before it are checked after it, with it. Any other probe may be accepted.
          const refusedAnyway = who === 'anonymous' && ROUTE_RULES[key].access !== 'public' && !probe.method;
          if (!refusedAnyway) for (const written of [service, ...(WRITES_INTO[service] ?? [])]) await check(written);
          if (method !== 'GET') known[service] ??= await fingerprint(service);
          sent++;
          let answer: Answer;
          try {
            answer = await send(baseOf(route), probe.method ?? method, probe, auth);
          } catch (err) {
            problems.push(`${label}: connection failed (${(err as Error).message})`);
            await check(service, label);
            forget(service);
            continue;
          }
          if (answer.status >= 500) problems.push(`${label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
          else if (answer.status >= 400 && !isRussianRefusal(answer))
            problems.push(`${label}: ${answer.status} without a Russian message: ${JSON.stringify(answer.body).slice(0, 160)}`);
          if (answer.status < 400) {
            await check(service, label);
            forget(service);
          } else if (method !== 'GET') {
            (unchecked[service] ??= []).push(`${label} (${answer.status})`);
          }
        }
      }
    }
    for (const service of Object.keys(unchecked) as ServiceName[]) await check(service);
    process.stdout.write(`fuzz: ${sent} requests in ${rounds} rounds (the later ones over ${LATER_ROUND_SHARE} of the routes)\n`);
    expect(sent).toBeGreaterThanOrEqual(targets.length * 2);
    expect({ seed: SEED, problems }).toEqual({ seed: SEED, problems: [] });
  }, 150_000);

  it("the gateway's own routes and files: no 5xx, refusals in Russian", async () => {
    const random = generator(SEED + 1);
    const paths = [
      '/api/dashboard/stats',
      '/api/no-such-route',
      '/remotes.json',
      '/mf/mf-courses/x.js',
      '/mf/nothing',
      '/',
      '/courses/1',
    ];
    const problems: string[] = [];
    for (const path of paths) {
      for (const auth of [{ authorization: `Bearer ${portal.as.ADMIN.token}` }, {}] as Array<Record<string, string>>) {
        for (let i = 0; i < CASES_WITH_RIGHT; i++) {
          const kind = random.next();
          const method = kind < 0.2 ? random.pick(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND']) : 'GET';
          const headers = kind < 0.5 ? random.pick([...READ_HEADERS, { authorization: 'Bearer \xe4\xff' }]) : {};
          const query = kind >= 0.5 ? `?${random.pick(HOSTILE_QUERIES)}` : '';
          const body = method === 'GET' ? undefined : random.pick(RAW_BODIES).body;
          const probe: Probe = {
            what: `${method} ${JSON.stringify(headers)} ${query.slice(0, 60)}`,
            path: `${path}${query}`,
            headers,
            body,
          };
          let answer: Answer;
          try {
            answer = await send(portal.gateway.url, method, probe, auth);
          } catch (err) {
            problems.push(`${path} ${probe.what}: connection failed (${(err as Error).message})`);
            continue;
          }
          if (answer.status >= 500 || (answer.status >= 400 && !isRussianRefusal(answer)))
            problems.push(`${path} ${probe.what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
