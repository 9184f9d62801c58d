import { randomBytes } from 'node:crypto';
import { MSG, SERVICE_NAMES, completeInn } from '@portal/contracts';
import type { ManagedProcess } from '@portal/devstack/processes';
import { ferretdbPath, startFerretDB } from '@portal/devstack/store';
import { freePort, sleep } from '@portal/devstack/util';
import {
  ADMIN,
  Cleanup,
  freePortOffset,
  freshPrefix,
  isAlive,
  load,
  login,
  removeDir,
  sharedRedisUrl,
  startTestStack,
  tempDir,
  timed,
  until,
  type TestStack,
  type Timed,
} from './harness';

/*
 * The store dies under load, seen from a user of the gateway: every answer comes within a second
 * and is a clear 503 JSON; the gateway and the five services stay up; when the store returns the
 * portal recovers by itself (the same processes), and nothing written before the outage is lost
 * and nothing refused during it was half written.
 *
 * The store is a private FerretDB this test starts (free port, own folder) so it can be killed;
 * the services run as real processes from their built output.
 */

const cleanup = new Cleanup();
let stack: TestStack;
let ferret: ManagedProcess;
let storePort: number;
let storeDir: string;
let token: string;

const startStore = () => startFerretDB(ferretdbPath()!, storePort, storeDir, `faults-ferretdb-${storePort}`);

beforeAll(async () => {
  storeDir = tempDir('store');
  cleanup.add('store folder', () => removeDir(storeDir));
  storePort = await freePort();
  ferret = await startStore();
  cleanup.add('store', () => ferret.stop('SIGKILL'));
  const prefix = freshPrefix('fs');
  stack = await startTestStack('store-outage', {
    mongoUrl: `mongodb://127.0.0.1:${storePort}`,
    redisUrl: sharedRedisUrl(),
    portOffset: await freePortOffset(),
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
  });
  cleanup.add('stack', () => stack.stop());
  token = await login(stack.gatewayUrl, ADMIN);
}, 90_000);

afterAll(() => cleanup.run(), 60_000);

const CLEAR_503 = [
  { message: MSG.storeUnavailable, statusCode: 503 },
  { message: MSG.serviceUnavailable, statusCode: 503 },
];

it('answers 503 JSON within a second while the store is down, stays up, and recovers by itself', async () => {
  const gateway = stack.gatewayUrl;
  const run = randomBytes(2).toString('hex');
  const innBase = String(Date.now()).slice(-5);
  const pids = () => Object.fromEntries([...stack.processes].map(([name, p]) => [name, p.child.pid]));

  // Written before the outage: must still be there after it.
  const org = await timed(gateway, 'POST', '/api/organizations', {
    token,
    body: { name: `ООО До сбоя ${run}`, inn: completeInn(`${innBase}0000`) },
  });
  expect(org.status).toBe(201);
  const course = await timed(gateway, 'POST', '/api/courses', { token, body: { title: `Курс до сбоя ${run}` } });
  expect(course.status).toBe(201);
  const pidsBefore = pids();

  // Steady load on three services: reads and audited writes, each answer timed.
  const calls: Array<() => Promise<Timed>> = [
    () => timed(gateway, 'GET', '/api/organizations?limit=5', { token }),
    () => timed(gateway, 'GET', '/api/courses', { token }),
    () => timed(gateway, 'GET', '/api/users', { token }),
  ];
  const traffic = load<Timed & { write?: boolean; inn?: string; read?: number }>(3, async (i) => {
    if (i % 4 !== 3) return { ...(await calls[i % 3]()), read: i % 3 };
    const inn = completeInn(`${innBase}${String(i + 1).padStart(4, '0')}`);
    const answer = await timed(gateway, 'POST', '/api/organizations', {
      token,
      body: { name: `ООО Во время сбоя ${run}-${i}`, inn },
    });
    return { ...answer, write: true, inn };
  });

  let killedAt = 0;
  let restartedAt = 0;
  let health: Timed | undefined;
  let recoveredAfterMs = 0;
  try {
    await sleep(800);
    await ferret.stop('SIGKILL');
    killedAt = Date.now();
    // Longer than the services' 10 s cache of who a token belongs to: once it expires, every
    // request of the crm, content and progress services also depends on the auth service's store.
    await sleep(11_000);

    health = await timed(gateway, 'GET', '/api/health');
    for (const name of [...SERVICE_NAMES, 'gateway'] as const)
      expect([name, isAlive(stack.processes.get(name))]).toEqual([name, true]);
    for (const name of SERVICE_NAMES) {
      const live = await timed(`http://127.0.0.1:${stack.ports[name]}`, 'GET', '/healthz');
      expect([name, live.status]).toEqual([name, 200]);
    }

    restartedAt = Date.now(); // it may answer before startFerretDB sees it ready
    ferret = await startStore();
    // Recovered when a write goes through again on every service the load touches.
    recoveredAfterMs = await until(
      'the portal answering again after the store returned',
      async () => {
        const probes = await Promise.all([
          ...calls.map((c) => c()),
          timed(gateway, 'POST', '/api/courses', { token, body: { title: `Курс после сбоя ${run}` } }),
        ]);
        return probes.every((p) => p.status === 200 || p.status === 201) && Date.now() - restartedAt;
      },
      20_000,
      250,
    );
    await sleep(500);
  } finally {
    await traffic.stop();
  }

  // Every request sent after the kill, and answered before the store came back, is a clear 503
  // within a second. (Requests in flight at the moment of the kill may have completed either way.)
  // The one exception is a page a service keeps under a version in Redis (decision 112): the catalogue
  // or the organization list as it was answered before the kill, still current, since no write can
  // reach a stopped store.
  const during = traffic.results.filter((a) => a.startedAt > killedAt + 50 && a.startedAt + a.ms < restartedAt);
  const slow = during.filter((a) => a.ms > 1000).map((a) => a.ms);
  const answeredBefore = (read: number) =>
    new Set(
      traffic.results
        .filter((a) => a.read === read && a.status === 200 && a.startedAt < killedAt)
        .map((a) => JSON.stringify(a.body)),
    );
  const before = [0, 1, 2].map(answeredBefore);
  const kept = (a: (typeof during)[number]) =>
    a.read !== undefined && a.status === 200 && before[a.read].has(JSON.stringify(a.body));
  // The store's own message, or (once the 10 s cache of who a token belongs to has expired, for
  // services other than auth) the message of the auth service being unable to say who is asking.
  const unclear = during.filter(
    (a) => !kept(a) && (!CLEAR_503.some((clear) => JSON.stringify(a.body) === JSON.stringify(clear)) || a.status !== 503),
  );
  const sorted = during.map((a) => a.ms).sort((x, y) => x - y);
  const byMessage: Record<string, number> = {};
  for (const a of during)
    byMessage[`${a.status} ${JSON.stringify(a.body)}`] = (byMessage[`${a.status} ${JSON.stringify(a.body)}`] ?? 0) + 1;
  console.log(
    `store outage: ${during.length} answers while down, median ${sorted[Math.floor(sorted.length / 2)]} ms, slowest ${sorted.at(-1)} ms; ` +
      `health ${health?.status} in ${health?.ms} ms ${JSON.stringify(health?.body)}; recovered ${recoveredAfterMs} ms after the store returned; ${JSON.stringify(byMessage)}`,
  );
  expect(during.length).toBeGreaterThan(20);
  expect(unclear.map((a) => [a.status, a.body])).toEqual([]);
  // The writes and the people's list (kept nowhere) were refused.
  expect(during.filter((a) => a.write && a.status === 503).length).toBeGreaterThan(3);
  expect(during.filter((a) => a.read === 2 && a.status === 503).length).toBeGreaterThan(3);

  // The gateway answered its health check while the store was down, and said what was wrong.
  expect(health?.status).toBe(503);
  expect(health?.ms).toBeLessThan(2000);
  expect(health?.body.status).toBe('degraded');

  // Recovered by itself: the very same processes, within a bounded time.
  expect(pids()).toEqual(pidsBefore);
  expect(recoveredAfterMs).toBeLessThan(20_000);
  // The gateway's health is the last background round of the services' readiness (about one a
  // second, each probe bounded at 1 s), so it follows the recovery within a few seconds, not at once.
  // All five must answer ready in one round: on a machine loaded by other tests one probe can miss
  // its second in a round, so the bound is a load balancer's (several checks a few seconds apart).
  let lastHealth: Timed | undefined;
  const healthFrom = Date.now();
  await until(
    'the gateway reports every service ready',
    async () => (lastHealth = await timed(gateway, 'GET', '/api/health')).status === 200,
    15_000,
    200,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; the last health: ${JSON.stringify(lastHealth?.body)}`);
  });
  console.log(`store outage: the gateway's health said ready ${Date.now() - healthFrom} ms after the portal answered again`);

  // Nothing lost, nothing half written: what was created before is there, and the organizations
  // are those whose create was answered 201.
  const orgAfter = await timed(gateway, 'GET', `/api/organizations/${org.body.id}`, { token });
  expect([orgAfter.status, orgAfter.body.name]).toEqual([200, `ООО До сбоя ${run}`]);
  const courseAfter = await timed(gateway, 'GET', `/api/courses/${course.body.id}`, { token });
  expect([courseAfter.status, courseAfter.body.title]).toEqual([200, `Курс до сбоя ${run}`]);
  // A write in flight at the kill may have landed although its answer was a 503 (the store died
  // before acknowledging it); one sent after the kill must not have.
  const writes = traffic.results.filter((a) => a.write);
  const created = writes.filter((a) => a.status === 201).length;
  const inFlightAtKill = writes.filter((a) => a.status !== 201 && a.startedAt <= killedAt).length;
  const list = await timed(gateway, 'GET', '/api/organizations?limit=1', { token });
  expect(list.body.total).toBeGreaterThanOrEqual(1 + created);
  expect(list.body.total).toBeLessThanOrEqual(1 + created + inFlightAtKill);
  const refusedAfterKill = writes.filter((a) => a.status !== 201 && a.startedAt > killedAt);
  expect(refusedAfterKill.length).toBeGreaterThan(0);
  for (const refused of refusedAfterKill) {
    const found = await timed(gateway, 'GET', `/api/organizations?search=${refused.inn}`, { token });
    expect([refused.inn, found.status, found.body.total]).toEqual([refused.inn, 200, 0]);
  }

  // Checked last, so that everything above is proven even while these fail: each of those 503s
  // came within the second the architecture promises, and the health check told the truth: every
  // service process was up and answering, only not ready (not "down", which means unreachable).
  expect({ slowerThanOneSecond: slow, health: health?.body.services }).toEqual({
    slowerThanOneSecond: [],
    health: Object.fromEntries(SERVICE_NAMES.map((name) => [name, 'not ready'])),
  });
}, 120_000);
