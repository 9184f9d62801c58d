import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import mongoose, { type Connection } from 'mongoose';
import { AUDIT_QUEUE, AUDIT_TOTAL_CAP, completeInn } from '@portal/contracts';
import type { ManagedProcess } from '@portal/devstack/processes';
import { startRedisServer } from '@portal/devstack/store';
import { freePort, sleep } from '@portal/devstack/util';
import {
  ADMIN,
  Cleanup,
  dropDatabases,
  freePortOffset,
  freshPrefix,
  isAlive,
  load,
  login,
  removeDir,
  sharedMongoUrl,
  tempDir,
  timed,
  until,
  type TestStack,
  startTestStack,
  type Timed,
} from './harness';

/*
 * The audit promise across the whole system, with real processes: while users write through the
 * gateway, (a) Redis is SIGKILLed and started again, (b) the audit service is stopped (SIGTERM) and
 * started again, (c) the audit service is SIGKILLed while its worker holds a batch of a backlog, and
 * started again. Every write a user saw succeed must end as exactly one audit record, and every
 * write must have succeeded (a request never waits for Redis or the audit store).
 *
 * Redis is private and persists every write (appendonly, fsync always), as production's redis:7
 * --appendonly yes: a job Redis acknowledged survives its SIGKILL. The store is the shared one,
 * with databases of our own.
 */

const cleanup = new Cleanup();
let stack: TestStack;
let redis: ManagedProcess;
let redisPort: number;
let redisDir: string;
let prefix: string;
let queue: Queue;
let auditDb: Connection;
let crmDb: Connection;
let contentDb: Connection;
let token: string;

const startRedis = () => startRedisServer(redisPort, `faults-redis-${redisPort}`, { persistDir: redisDir });

beforeAll(async () => {
  redisDir = tempDir('audit-redis');
  cleanup.add('redis folder', () => removeDir(redisDir));
  redisPort = await freePort();
  redis = await startRedis();
  cleanup.add('redis', () => redis.stop('SIGKILL'));
  prefix = freshPrefix('fa');
  cleanup.add('databases', () => dropDatabases(sharedMongoUrl(), prefix));
  const portOffset = await freePortOffset();
  stack = await startTestStack('audit-exactly-once', {
    mongoUrl: sharedMongoUrl(),
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    portOffset,
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
  });
  cleanup.add('stack', () => stack.stop());
  // Read the state straight from where it lives: the audit database, the publishers' outboxes, the queue.
  const open = (service: string) => mongoose.createConnection(sharedMongoUrl(), { dbName: `${prefix}${service}` }).asPromise();
  [auditDb, crmDb, contentDb] = await Promise.all([open('audit'), open('crm'), open('content')]);
  cleanup.add('connections', () => Promise.all([auditDb, crmDb, contentDb].map((db) => db.close())));
  queue = new Queue(AUDIT_QUEUE, {
    connection: { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: 1 },
    prefix: prefix.slice(0, -1),
  });
  queue.on('error', () => undefined); // Redis is killed on purpose; reads are retried below
  cleanup.add('queue client', () => queue.close());
  token = await login(stack.gatewayUrl, ADMIN);
}, 90_000);

afterAll(() => cleanup.run(), 60_000);

type Write = { kind: 'organization' | 'course'; answer: Timed };

it('stores each audited write exactly once through a Redis crash, an audit restart and an audit crash mid-batch', async () => {
  const gateway = stack.gatewayUrl;
  const run = randomBytes(2).toString('hex');
  const innBase = String(Date.now()).slice(-6);
  // Three clients create organizations (crm), one creates courses (content): two publishers.
  const burst = load<Write>(4, async (i) =>
    i % 4 === 3
      ? {
          kind: 'course',
          answer: await timed(gateway, 'POST', '/api/courses', { token, body: { title: `Курс под нагрузкой ${run}-${i}` } }),
        }
      : {
          kind: 'organization',
          answer: await timed(gateway, 'POST', '/api/organizations', {
            token,
            body: { name: `ООО Отказоустойчивость ${run}-${i}`, inn: completeInn(`${innBase}${String(i).padStart(3, '0')}`) },
          }),
        },
  );
  const succeeded = () => burst.results.filter((w) => w.answer.status === 201).length;
  const outboxCount = async () =>
    (await crmDb.collection('audit_outbox').countDocuments()) + (await contentDb.collection('audit_outbox').countDocuments());
  const records = auditDb.collection<{ _id: string; entity: string; entityId: string | null; action: string }>('audit_records');
  const phases: Record<string, number> = {};
  // Each phase lasts until a few more writes have been answered in it, not for a fixed time.
  const moreSucceeded = (what: string, since: number) => until(what, async () => succeeded() >= since + 5, 20_000, 20);

  try {
    await moreSucceeded('writes before the faults', 0);

    // (a) Redis dies under load and comes back: events wait in each publisher's outbox meanwhile.
    let before = succeeded();
    await redis.stop('SIGKILL');
    await moreSucceeded('writes while Redis is down', before);
    // The publishers find Redis gone on their next publish; their events then wait in the outbox.
    const outboxWhileDown = await until(
      'events in the outboxes while Redis is down',
      async () => (await outboxCount()) || false,
      20_000,
      50,
    );
    phases.writesWhileRedisDown = succeeded() - before;
    redis = await startRedis();
    await until('outboxes delivered after Redis returned', async () => (await outboxCount()) === 0, 20_000, 250);
    expect(outboxWhileDown).toBeGreaterThan(0);

    // (b) The audit service stops gracefully and starts again; events wait in the queue meanwhile.
    before = succeeded();
    await stack.stopOne('audit', 'SIGTERM');
    await moreSucceeded('writes while the audit service is stopped', before);
    phases.writesWhileAuditStopped = succeeded() - before;
    phases.waitingWhileAuditStopped = await until(
      'events waiting while the audit service is stopped',
      async () => (await queue.getWaitingCount()) || false,
      10_000,
      20,
    );
    await stack.startOne('audit');

    // (c) A backlog builds while the audit service is away; it is SIGKILLed as soon as its worker
    // holds jobs (taken from the queue, not yet acknowledged), i.e. with a batch in flight.
    before = succeeded();
    await stack.stopOne('audit', 'SIGTERM');
    phases.backlog = await until(
      'a backlog of 300 events',
      async () => {
        const waiting = await queue.getWaitingCount();
        return waiting >= 300 && waiting;
      },
      20_000,
      100,
    );
    const audit = stack.spawnOne('audit');
    const recordsBeforeCrash = await records.countDocuments();
    // Killed as soon as a batch is stored while the worker still holds jobs: some of those are
    // stored and not yet acknowledged, so they come back to a worker and must not be stored twice.
    const killDeadline = Date.now() + 30_000;
    for (;;) {
      const [active, stored] = await Promise.all([queue.getActiveCount(), records.countDocuments()]);
      if (active > 0 && stored > recordsBeforeCrash) {
        phases.activeAtKill = active;
        break;
      }
      if (active === 0 && stored > recordsBeforeCrash && (await queue.getWaitingCount()) === 0)
        throw new Error('the backlog was drained before the audit service could be killed mid-batch');
      if (Date.now() > killDeadline) throw new Error('the restarted audit worker stored nothing within 30 s');
      await sleep(5);
    }
    audit.child.kill('SIGKILL');
    await until('the audit process gone', async () => !isAlive(audit), 5000, 20);
    phases.waitingAtKill = await queue.getWaitingCount();
    phases.storedByTheKilledWorker = (await records.countDocuments()) - recordsBeforeCrash;
    await stack.stopOne('audit'); // forget the dead process
    await stack.startOne('audit');
    await moreSucceeded('writes after the audit service is back', succeeded());
  } finally {
    await burst.stop();
  }

  const writes = burst.results;
  phases.writes = writes.length;
  phases.slowestWriteMs = Math.max(...writes.map((w) => w.answer.ms));
  console.log(`audit exactly-once: ${JSON.stringify(phases)}`);

  // Every write succeeded for its user, during every fault.
  expect(writes.filter((w) => w.answer.status !== 201).map((w) => [w.answer.status, w.answer.body])).toEqual([]);
  expect(phases.writesWhileRedisDown).toBeGreaterThan(0);
  expect(phases.writesWhileAuditStopped).toBeGreaterThan(0);
  expect(phases.waitingWhileAuditStopped).toBeGreaterThan(0);
  expect(phases.activeAtKill).toBeGreaterThan(0);
  expect(phases.storedByTheKilledWorker).toBeGreaterThan(0);
  // Nobody waited for the audit store: a write is answered in about the same time whatever it does.
  expect(phases.slowestWriteMs).toBeLessThan(5000);

  // The jobs the killed worker held come back once their locks expire (the audit worker's lockDuration
  // 10 s, stalled check every 5 s), so this wait is bounded by about 15 s, not by the burst.
  const created = new Map(writes.map((w) => [String(w.answer.body.id), w.kind]));
  const ids = [...created.keys()];
  await until(
    'every event stored',
    async () => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      const pending = Object.values(counts).reduce((a, b) => a + b, 0);
      return (
        pending === 0 && (await outboxCount()) === 0 && (await records.countDocuments({ entityId: { $in: ids } })) >= ids.length
      );
    },
    80_000,
    1000,
  );

  const stored = await records.find({ entityId: { $in: ids } }, { projection: { entityId: 1, entity: 1, action: 1 } }).toArray();
  const perEntity = new Map<string, number>();
  for (const r of stored) perEntity.set(String(r.entityId), (perEntity.get(String(r.entityId)) ?? 0) + 1);
  const missing = ids.filter((id) => !perEntity.has(id));
  const duplicated = [...perEntity].filter(([, n]) => n > 1);
  expect({ missing, duplicated }).toEqual({ missing: [], duplicated: [] });
  expect(stored.every((r) => r.action === 'create' && r.entity === created.get(String(r.entityId)))).toBe(true);
  // Nothing beyond them: only the administrator's login(s) and these creates were audited.
  const creates = await records.countDocuments({ action: 'create' });
  expect(creates).toBe(ids.length);
  expect(await queue.getFailedCount()).toBe(0);

  // What an administrator sees in the audit log agrees: every record, paging to the end (the total
  // itself is counted to AUDIT_TOTAL_CAP at most, then «500+»).
  for (const entity of ['organization', 'course'] as const) {
    const expected = [...created.values()].filter((k) => k === entity).length;
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const answer = await timed(gateway, 'GET', `/api/audit?entity=${entity}&action=create&limit=200&page=${page}`, { token });
      expect(answer.status).toBe(200);
      if (page === 1)
        expect(answer.body).toMatchObject(
          expected > AUDIT_TOTAL_CAP ? { total: AUDIT_TOTAL_CAP, totalExact: false } : { total: expected, totalExact: true },
        );
      for (const r of answer.body.data) seen.add(r.id);
      if (answer.body.data.length < 200) break;
    }
    expect(seen.size).toBe(expected);
  }
}, 200_000);
