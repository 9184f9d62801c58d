import { completeInn } from '@portal/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { op, withTimeout } from '@portal/service-kit';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { freePort, sleep } from '@portal/devstack/util';
import { startRedisServer } from '@portal/devstack/store';
import type { ManagedProcess } from '@portal/devstack/processes';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { crmRouters } from '@portal/svc-crm/app';
import { crmModels } from '@portal/svc-crm/models';
import { recordModel } from '../models/record';
import { startAudit, type AuditTestService } from '../testing';

/*
 * At-least-once delivery with idempotent storage, end to end: a real service (crm) answers a
 * burst of requests while first Redis is killed and restarted, then the audit service's worker is
 * stopped, Redis is killed once more while the events wait in the queue, and the worker is started
 * again. Every event must be stored, each exactly once.
 *
 * Redis is private to this test and keeps an append-only file fsynced on every write (production's
 * redis:7 runs with --appendonly yes): a job Redis acknowledged survives its SIGKILL. Without
 * persistence the jobs queued at that moment would be lost with the server's memory.
 */

let dir: string;
let port: number;
let redis: ManagedProcess;
let auth: Awaited<ReturnType<typeof startAuth>>;
let crm: TestService;
let audit: AuditTestService;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'audit-fault-redis-'));
  port = await freePort();
  redis = await startRedisServer(port, `redis-fault-${port}`, { persistDir: dir });
  const shared = { REDIS_URL: `redis://127.0.0.1:${port}`, QUEUE_PREFIX: `fault${randomBytes(3).toString('hex')}` };
  auth = await startAuth();
  crm = await startTestService('crm', crmRouters, { env: { AUTH_URL: auth.url, ...shared } });
  await crmModels(crm.ctx.store).organizations.init();
  audit = await startAudit(shared);
  token = (await userWithRole(auth, 'CURATOR', 'Екатерина Волкова')).token;
});
afterAll(async () => {
  await audit?.close();
  await crm?.close();
  await auth?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const waitUntil = async (check: () => Promise<boolean> | boolean, ms: number, everyMs = 200) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(everyMs);
  }
  throw new Error('condition not met in time');
};

/** A step that has no bound of its own fails with its name after `ms`, instead of the whole test hanging to its budget. */
const within = <T>(what: string, work: Promise<T>, ms = 30_000): Promise<T> =>
  withTimeout(work, ms, `${what}: not done within ${ms} ms`);

it('stores every event exactly once when Redis and then the audit worker go down during a burst', async () => {
  const created: string[] = [];
  const refused: number[] = [];
  let running = true;
  let next = 0;
  const innBase = Date.now().toString().slice(-5);
  // Three clients creating organizations as fast as the service answers, until told to stop.
  const client = async () => {
    while (running) {
      const i = next++;
      const answer = await api(crm.url, 'POST', '/api/organizations', {
        token,
        body: { name: `ООО Нагрузка ${i}`, inn: completeInn(`${innBase}${String(i).padStart(4, '0')}`) },
      });
      if (answer.status === 201) created.push(answer.body.id);
      else refused.push(answer.status);
    }
  };
  const outbox = crm.ctx.store.collection('audit_outbox');
  const queue = crm.ctx.audit.queue;
  const throughFaults = async () => {
    // Each phase lasts until a few more requests have been answered in it, not for a fixed time.
    const moreAnswered = (since: number, count = 5) => waitUntil(() => created.length >= since + count, 20_000, 20);

    await moreAnswered(0);
    await within('killing Redis', redis.stop('SIGKILL'));
    const createdBeforeKill = created.length;
    await moreAnswered(createdBeforeKill);
    // Requests went on; their events wait in the service's own database.
    expect(created.length).toBeGreaterThan(createdBeforeKill);
    await waitUntil(async () => (await outbox.countDocuments()) > 0, 10_000, 20);

    redis = await startRedisServer(port, `redis-fault-${port}`, { persistDir: dir });
    await moreAnswered(created.length);
    await within('stopping the audit worker', audit.stopWorker());
    const createdWhileWorkerDown = created.length;
    await moreAnswered(createdWhileWorkerDown);
    // With nobody to take them, the events wait in the queue.
    expect(created.length).toBeGreaterThan(createdWhileWorkerDown);
    // Not `flush()`: it returns when the publisher's buffer is empty, which a burst that keeps
    // publishing may never let it be (the test hung on it once).
    await waitUntil(async () => (await queue.getWaitingCount()) > 0, 15_000);
    const waiting = await within('counting the waiting events', queue.getWaitingCount());

    // Redis dies again while they wait: what it acknowledged is on disk and comes back with it.
    await within('killing Redis again', redis.stop('SIGKILL'));
    redis = await startRedisServer(port, `redis-fault-${port}`, { persistDir: dir });
    await waitUntil(async () => (await queue.getWaitingCount().catch(() => 0)) > 0, 15_000);
    expect(await within('counting the waiting events after the restart', queue.getWaitingCount())).toBeGreaterThanOrEqual(
      waiting,
    );

    audit.startWorker();
    // A few more with the worker back, and a burst of more than 30 in all.
    await moreAnswered(created.length);
    await waitUntil(() => created.length > 30, 20_000, 20);
  };
  const burst = Promise.all([client(), client(), client()]);
  // A failed phase stops the clients too, so that the services can be closed after it; its own
  // message is the one reported, not a later step's.
  let failure: unknown = null;
  await throughFaults().catch((err: unknown) => (failure = err));
  running = false;
  await within('the burst’s last requests', burst).catch((err: unknown) => (failure ??= err));
  if (failure) throw failure;

  expect(refused).toEqual([]);
  expect(created.length).toBeGreaterThan(30);
  const records = recordModel(audit.ctx.store);
  await waitUntil(
    async () => (await outbox.countDocuments()) === 0 && (await records.countDocuments()) >= created.length,
    60_000,
  );

  // Every organization has its one create event, and nothing else was stored.
  expect(await records.countDocuments()).toBe(created.length);
  const stored = await records
    .find({ entityId: op({ $in: created }) })
    .select({ entityId: 1, action: 1, entity: 1 })
    .lean();
  expect(stored).toHaveLength(created.length);
  expect(new Set(stored.map((r) => r.entityId)).size).toBe(created.length);
  expect(stored.every((r) => r.action === 'create' && r.entity === 'organization')).toBe(true);
  expect(await queue.getFailedCount()).toBe(0);
  // Above the sum of its phases' own bounds (about 225 s), so that a slow phase fails with its own message; a step
  // without a bound of its own fails by name after 30 s (`within`).
}, 240_000);
