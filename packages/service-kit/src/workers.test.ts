import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import type { ManagedProcess } from '@portal/devstack/processes';
import { startRedisServer } from '@portal/devstack/store';
import { freePort, sleep } from '@portal/devstack/util';
import { createLogger } from './logger';
import { createRedis } from './redis';
import { withTimeout } from './timeout';
import { closeWorker } from './workers';

/*
 * Closing a BullMQ worker around a Redis outage, against a Redis server of the test's own that is
 * killed and started again: the close lets a job in hand finish, and never hangs.
 */

const logger = createLogger('workers-test', 'silent');
let port: number;
let redis: ManagedProcess | null = null;
const opened: Array<{ close(): Promise<unknown> }> = [];
const connections: Array<ReturnType<typeof createRedis>> = [];

beforeAll(async () => {
  port = await freePort();
  redis = await startRedisServer(port, `workers-redis-${port}`);
});
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close().catch(() => undefined)));
  for (const c of connections) c.disconnect();
  await redis?.stop('SIGKILL');
});

/** A queue and a worker on it whose jobs take `workMs`; `done` lists the jobs whose work finished. */
function queueWithWorker(workMs: number) {
  const prefix = `w${randomBytes(3).toString('hex')}`;
  const connection = createRedis(`redis://127.0.0.1:${port}`, logger);
  connections.push(connection);
  const queue = new Queue('jobs', { connection: { host: '127.0.0.1', port, maxRetriesPerRequest: 1 }, prefix });
  queue.on('error', () => undefined);
  const started: string[] = [];
  const done: string[] = [];
  const worker = new Worker(
    'jobs',
    async (job) => {
      started.push(job.id!);
      await sleep(workMs);
      done.push(job.id!);
    },
    { connection, prefix },
  );
  worker.on('error', () => undefined);
  opened.push(queue);
  return { queue, worker, started, done };
}

/** How long `work` took, in ms; it fails the test past `ms` instead of hanging it. */
async function timedWithin(ms: number, work: Promise<unknown>): Promise<number> {
  const at = Date.now();
  await withTimeout(work, ms, `not done within ${ms} ms`);
  return Date.now() - at;
}

const restartRedis = async () => {
  await redis!.stop('SIGKILL');
  // Long enough for the clients' retries to back off past a second: at the restart they are
  // waiting to retry, with no socket, as a worker found in production after an outage.
  await sleep(2_500);
  redis = await startRedisServer(port, `workers-redis-${port}`);
};

it('a worker closed right after Redis came back waits for it and lets the job in hand finish', async () => {
  const { queue, worker, started, done } = queueWithWorker(100);
  await worker.waitUntilReady();
  await restartRedis();
  await queue.add('one', {});
  const closing = closeWorker(worker);
  expect(await timedWithin(10_000, closing)).toBeLessThan(8_000);
  // The job was taken only if the worker got to it before the close; if it did, it finished.
  expect(done).toEqual(started);
}, 30_000);

it('a job in hand when a worker closes finishes first and is recorded as completed', async () => {
  const { queue, worker, started, done } = queueWithWorker(1_000);
  await worker.waitUntilReady();
  const job = await queue.add('one', {});
  for (let i = 0; i < 100 && started.length === 0; i++) await sleep(20);
  expect(started).toEqual([job.id]);
  await timedWithin(10_000, closeWorker(worker));
  expect(done).toEqual([job.id]);
  expect(await queue.getJobState(job.id!)).toBe('completed');
}, 30_000);

it('a worker closed while Redis stays away stops after the wait instead of hanging', async () => {
  const { worker } = queueWithWorker(100);
  await worker.waitUntilReady();
  await redis!.stop('SIGKILL');
  await sleep(2_500);
  try {
    const took = await timedWithin(10_000, closeWorker(worker, 1_000));
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5_000);
  } finally {
    redis = await startRedisServer(port, `workers-redis-${port}`);
  }
}, 30_000);
