import { randomBytes } from 'node:crypto';
import { MSG, SERVICE_NAMES } from '@portal/contracts';
import {
  ADMIN,
  Cleanup,
  dropDatabases,
  freePortOffset,
  freshPrefix,
  isAlive,
  load,
  login,
  sharedMongoUrl,
  sharedRedisUrl,
  startTestStack,
  timed,
  until,
  type TestStack,
  type Timed,
} from './harness';

/*
 * Two replicas of every service behind the gateway, under steady mixed traffic (reads of every
 * service, a read that one service makes of another, and writes). One replica of each service is
 * killed with SIGKILL mid-load: no read sees anything but 200, and every write either succeeded (and
 * is there afterwards) or was told 503 in Russian. Nothing is lost silently.
 */

const cleanup = new Cleanup();
let stack: TestStack;
let admin: string;
let candidate: string;
let courseId: string;

beforeAll(async () => {
  const prefix = freshPrefix('fr');
  cleanup.add('databases', () => dropDatabases(sharedMongoUrl(), prefix));
  stack = await startTestStack('replicas', {
    mongoUrl: sharedMongoUrl(),
    redisUrl: sharedRedisUrl(),
    portOffset: await freePortOffset(2),
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
    replicas: { auth: 2, content: 2, progress: 2, crm: 2, audit: 2 },
  });
  cleanup.add('stack', () => stack.stop());
  admin = await login(stack.gatewayUrl, ADMIN);
  candidate = await login(stack.gatewayUrl, { email: 'candidate@portal.local', password: 'Portal-Kan-2026' });
  const course = await timed(stack.gatewayUrl, 'POST', '/api/courses', {
    token: admin,
    body: { title: `Курс реплик ${randomBytes(2).toString('hex')}`, status: 'published', isPublished: true },
  });
  expect(course.status).toBe(201);
  courseId = course.body.id;
}, 120_000);

afterAll(() => cleanup.run(), 60_000);

it('keeps every read whole and every write accounted for when one replica of each service is killed', async () => {
  const gateway = stack.gatewayUrl;
  const reads: Array<[string, string]> = [
    ['/api/courses?page=1&limit=20', admin],
    ['/api/organizations?page=1&limit=20', admin],
    ['/api/users?page=1&limit=20', admin],
    ['/api/audit?page=1&limit=20', admin],
    // progress asks content for the outline: a service's own call to a peer with a dead replica.
    [`/api/progress/course/${courseId}`, candidate],
    ['/api/auth/profile', candidate],
  ];
  const run = randomBytes(2).toString('hex');
  const readers = load(4, (i) => {
    const [route, token] = reads[i % reads.length];
    return timed(gateway, 'GET', route, { token }).then((answer) => ({ route, answer }));
  });
  const writes: Array<{ name: string; answer: Timed }> = [];
  const writers = load(2, async (i) => {
    const name = `ООО Реплика ${run}-${i}`;
    const answer = await timed(gateway, 'POST', '/api/organizations', {
      token: admin,
      body: { name, inn: `77${String(i).padStart(8, '0')}` },
    });
    writes.push({ name, answer });
  });

  await until('traffic under way', async () => readers.results.length > 30 && writes.length > 5, 30_000);
  const killed = SERVICE_NAMES.map((name) => stack.processes.get(`${name}#2`));
  expect(killed.every(isAlive)).toBe(true);
  for (const name of SERVICE_NAMES) await stack.stopOne(name, 'SIGKILL', 1);
  const readsAtKill = readers.results.length;
  await until('traffic after the kill', async () => readers.results.length > readsAtKill + 60, 60_000);
  const [readAnswers] = await Promise.all([readers.stop(), writers.stop()]);

  const failedReads = readAnswers.filter(({ answer }) => answer.status !== 200);
  expect(failedReads.map(({ route, answer }) => `${route} → ${answer.status} ${JSON.stringify(answer.body)}`)).toEqual([]);

  const refused = writes.filter(({ answer }) => answer.status !== 201);
  for (const { answer } of refused) expect([answer.status, answer.body.message]).toEqual([503, MSG.serviceUnavailable]);
  const accepted = writes.filter(({ answer }) => answer.status === 201).map(({ name }) => name);
  expect(accepted.length).toBeGreaterThan(5);
  const listed = await timed(gateway, 'GET', `/api/organizations?page=1&limit=100&search=${encodeURIComponent(run)}`, {
    token: admin,
  });
  expect(listed.status).toBe(200);
  const stored = new Set((listed.body.data as Array<{ name: string }>).map((o) => o.name));
  expect(accepted.filter((name) => !stored.has(name))).toEqual([]);

  const health = await until(
    'health names the dead replicas',
    async () => {
      const answer = await timed(gateway, 'GET', '/api/health');
      return answer.status === 200 && Object.values(answer.body.replicas.crm).includes('down') && answer;
    },
    10_000,
  );
  for (const name of SERVICE_NAMES) expect(Object.values(health.body.replicas[name]).sort()).toEqual(['down', 'ready']);
}, 120_000);
