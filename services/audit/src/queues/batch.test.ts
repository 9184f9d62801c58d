import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { AUDIT_QUEUE, type AuditEvent } from '@portal/contracts';
import { AUDIT_JOB_OPTIONS, createRedis, op } from '@portal/service-kit';
import { uniquePrefix } from '@portal/devstack/testing';
import { recordModel } from '../models/record';
import { startAudit } from '../testing';
import { MicroBatcher } from './batcher';
import { startAuditWorker, storeEvent, storeEvents } from './worker';

const event = (entityId: string): AuditEvent => ({
  id: randomUUID(),
  service: 'test',
  action: 'update',
  entity: 'course',
  entityId,
  details: 'Изменён курс',
  actor: { id: 'u1', fullName: 'Ольга Кузнецова', email: 'olga@example.test' },
  timestamp: new Date().toISOString(),
});

const waitUntil = async (check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
};

describe('micro-batcher', () => {
  it('writes items added together in one write and settles each with its own outcome', async () => {
    const writes: number[][] = [];
    const batcher = new MicroBatcher<number>(
      async (items) => {
        writes.push(items);
        return items.map((n) => (n === 3 ? new Error('три не записано') : null));
      },
      { maxBatch: 50, maxInFlight: 1 },
    );
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((n) => batcher.add(n)));
    expect(writes).toEqual([[1, 2, 3, 4]]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });

  it('never runs more writes at once than allowed, and cuts batches at the size limit', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const batcher = new MicroBatcher<number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        sizes.push(items.length);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return items.map(() => null);
      },
      { maxBatch: 10, maxInFlight: 2 },
    );
    await Promise.all(Array.from({ length: 95 }, (_, i) => batcher.add(i)));
    expect(most).toBe(2);
    expect(Math.max(...sizes)).toBe(10);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(95);
  });
});

describe('audit worker storing in batches', () => {
  let audit: Awaited<ReturnType<typeof startAudit>>;
  beforeAll(async () => {
    audit = await startAudit({ QUEUE_PREFIX: uniquePrefix().slice(0, -1) });
    await audit.stopWorker(); // this test runs its own worker on the same queue
  });
  afterAll(() => audit.close());

  it('stores a batch holding a repeated event once each, and refuses nothing', async () => {
    const records = recordModel(audit.ctx.store);
    const stored = event('before');
    await storeEvent(records, stored);
    const fresh = event('fresh');
    // Redelivered, and twice in the same write: the _id index keeps one of each.
    const outcomes = await storeEvents(records, [stored, fresh, fresh]);
    expect(outcomes).toEqual([null, null, null]);
    expect(await records.countDocuments({ _id: op({ $in: [stored.id, fresh.id] }) })).toBe(2);
  });

  it('loses nothing and doubles nothing when a batch has a duplicate and writes fail', async () => {
    const records = recordModel(audit.ctx.store);
    const { config, logger } = audit.ctx;
    const events = Array.from({ length: 40 }, (_, i) => event(`e${i}`));
    const [storedBefore, repeated, failsAlone, failsWithBatch] = events;
    await storeEvent(records, storedBefore);

    // One event's write fails the first time on its own; the first write that holds another
    // fails whole (the store went away). Everything else goes to the real store.
    const seen = new Map<string, number>();
    const write = async (batch: AuditEvent[]) => {
      for (const e of batch) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
      if (batch.some((e) => e.id === failsWithBatch.id) && seen.get(failsWithBatch.id) === 1)
        throw new Error('store unreachable');
      const failNow = seen.get(failsAlone.id) === 1 && batch.some((e) => e.id === failsAlone.id);
      const rest = batch.filter((e) => !(failNow && e.id === failsAlone.id));
      const outcomes = await storeEvents(records, rest);
      return batch.map((e) => (failNow && e.id === failsAlone.id ? new Error('write failed') : outcomes[rest.indexOf(e)]));
    };

    const connection = createRedis(config.REDIS_URL, logger);
    const queueConnection = createRedis(config.REDIS_URL, logger);
    const queue = new Queue(AUDIT_QUEUE, { connection: queueConnection, prefix: config.QUEUE_PREFIX });
    const quickRetry = { ...AUDIT_JOB_OPTIONS, backoff: { type: 'fixed', delay: 100 } };
    await queue.addBulk([
      ...events.map((data) => ({ name: 'update', data, opts: { ...quickRetry, jobId: data.id } })),
      // The same event delivered twice under two jobs (a publisher retry after a lost answer).
      { name: 'update', data: repeated, opts: { ...quickRetry, jobId: `${repeated.id}-again` } },
    ]);
    const worker = startAuditWorker(connection, records, logger, { concurrency: 2, prefix: config.QUEUE_PREFIX, write });
    try {
      await waitUntil(async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        return counts.waiting + counts.active + counts.delayed + counts.failed === 0;
      });
      expect(seen.get(failsAlone.id)).toBe(2);
      expect(seen.get(failsWithBatch.id)).toBe(2);
      const ids = events.map((e) => e.id);
      const rows = await records
        .find({ _id: op({ $in: ids }) })
        .select({ _id: 1, entityId: 1 })
        .lean();
      expect(rows).toHaveLength(40);
      expect(new Set(rows.map((r) => r._id)).size).toBe(40);
      expect(rows.map((r) => r.entityId).sort()).toEqual(events.map((e) => e.entityId).sort());
      expect(await queue.getFailedCount()).toBe(0);
    } finally {
      await worker.close();
      connection.disconnect();
      await queue.obliterate({ force: true });
      await queue.close();
      queueConnection.disconnect();
    }
  });
});
