import { randomBytes } from 'node:crypto';
import { MSG, completeInn } from '@portal/contracts';
import {
  ADMIN,
  Cleanup,
  dropDatabases,
  freePortOffset,
  freshPrefix,
  isAlive,
  login,
  sharedMongoUrl,
  sharedRedisUrl,
  startTestStack,
  timed,
  type TestStack,
} from './harness';

/*
 * The dashboard with one service missing, on the real processes: the crm service first hangs
 * (SIGSTOP: its port still accepts, nothing answers) and then is stopped; the administrator's
 * dashboard stays a 200 with the other figures, the crm figures null and `partial: true`, within
 * the gateway's 800 ms budget per service. Started again, the crm service's figures come back, with
 * the data it had.
 */

const BUDGET_MS = 800;
const cleanup = new Cleanup();
let stack: TestStack;
let admin: string;
let candidate: string;

beforeAll(async () => {
  const prefix = freshPrefix('fd');
  cleanup.add('databases', () => dropDatabases(sharedMongoUrl(), prefix));
  stack = await startTestStack('dashboard-partial', {
    mongoUrl: sharedMongoUrl(),
    redisUrl: sharedRedisUrl(),
    portOffset: await freePortOffset(),
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
  });
  cleanup.add('stack', () => stack.stop());
  admin = await login(stack.gatewayUrl, ADMIN);
  candidate = await login(stack.gatewayUrl, { email: 'candidate@portal.local', password: 'Portal-Kan-2026' });
}, 90_000);

afterAll(() => cleanup.run(), 60_000);

it('gives partial figures, never an error, while the crm service hangs or is down, and full ones when it is back', async () => {
  const gateway = stack.gatewayUrl;
  const run = randomBytes(2).toString('hex');
  const inn = String(Date.now()).slice(-7);
  const stats = (token = admin) => timed(gateway, 'GET', '/api/dashboard/stats', { token });

  for (const n of [1, 2]) {
    const org = await timed(gateway, 'POST', '/api/organizations', {
      token: admin,
      body: { name: `ООО Панель ${run}-${n}`, inn: completeInn(`${inn}${n}0`) },
    });
    expect(org.status).toBe(201);
    if (n === 1) {
      const contact = await timed(gateway, 'POST', '/api/contacts', {
        token: admin,
        body: { fullName: 'Ольга Кузнецова', email: `olga.${run}@example.test`, orgId: org.body.id },
      });
      expect(contact.status).toBe(201);
    }
  }
  expect((await timed(gateway, 'POST', '/api/courses', { token: admin, body: { title: `Курс панели ${run}` } })).status).toBe(
    201,
  );

  const full = await stats();
  expect(full.status).toBe(200);
  expect(full.body).toMatchObject({
    partial: false,
    unavailable: [],
    organizations: 2,
    contacts: 1,
    totalCourses: 1,
    activeCourses: 0,
  });
  expect(typeof full.body.totalStudents).toBe('number');
  const others = { totalCourses: 1, activeCourses: 0, totalStudents: full.body.totalStudents };

  const crm = stack.processes.get('crm')!;
  const crmDown = {
    ...others,
    organizations: null,
    contacts: null,
    partial: true,
    unavailable: ['crm'],
    change: expect.objectContaining({ organizations: null, contacts: null, totalCourses: expect.any(String) }),
  };

  // The crm service hangs: the dashboard waits for it no longer than its budget.
  crm.child.kill('SIGSTOP');
  cleanup.add('crm continued', () => crm.child.kill('SIGCONT'));
  const hung = await stats();
  expect(hung.status).toBe(200);
  expect(hung.body).toMatchObject(crmDown);
  expect(hung.ms).toBeGreaterThanOrEqual(BUDGET_MS - 50);
  expect(hung.ms).toBeLessThan(BUDGET_MS + 1000);
  // A learner's dashboard does not need the crm service: it stays whole.
  const learner = await stats(candidate);
  expect(learner.status).toBe(200);
  expect(learner.body).toMatchObject({ partial: false, unavailable: [] });
  crm.child.kill('SIGCONT');

  // The crm service is stopped: no answer at all, and the dashboard says so at once.
  const stopping = Date.now();
  await stack.stopOne('crm', 'SIGTERM');
  const stopMs = Date.now() - stopping;
  expect(isAlive(crm)).toBe(false);
  const stopped = await stats();
  expect(stopped.status).toBe(200);
  expect(stopped.body).toMatchObject(crmDown);
  expect(stopped.ms).toBeLessThan(BUDGET_MS);
  // The crm screens themselves get a clear error meanwhile.
  const list = await timed(gateway, 'GET', '/api/organizations', { token: admin });
  expect([list.status, list.body]).toEqual([503, { message: MSG.serviceUnavailable, statusCode: 503 }]);

  // Back again: the figures return, with the data the service had.
  const starting = Date.now();
  await stack.startOne('crm');
  const startMs = Date.now() - starting;
  const back = await stats();
  expect(back.status).toBe(200);
  expect(back.body).toMatchObject({ ...others, organizations: 2, contacts: 1, partial: false, unavailable: [] });
  console.log(
    `dashboard: full in ${full.ms} ms, crm hanging ${hung.ms} ms, crm stopped ${stopped.ms} ms, back ${back.ms} ms; crm stopped in ${stopMs} ms, started in ${startMs} ms`,
  );
}, 60_000);
