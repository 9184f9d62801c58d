import { op } from '@portal/service-kit';
import { freePort } from '@portal/devstack/util';
import { startRedisServer } from '@portal/devstack/store';
import type { ManagedProcess } from '@portal/devstack/processes';
import { recordModel } from '../models/record';
import { startAudit } from '../testing';

// A private Redis that the test may kill, so the machine's own Redis is never touched.
let redis: ManagedProcess;
let port: number;
let audit: Awaited<ReturnType<typeof startAudit>>;

beforeAll(async () => {
  port = await freePort();
  redis = await startRedisServer(port, `redis-${port}`);
  audit = await startAudit({ REDIS_URL: `redis://127.0.0.1:${port}` });
});
afterAll(async () => {
  await audit.close();
  await redis.stop();
});

const waitUntil = async (check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('condition not met in time');
};

it('keeps events published while Redis is down and stores each exactly once when it returns', async () => {
  const publisher = audit.ctx.audit;
  const actor = { id: 'u1', fullName: 'Анна Смирнова', email: 'anna@example.test' };
  const before = Array.from({ length: 20 }, (_, i) =>
    publisher.publish({ code: 'organization.created', data: { name: 'до сбоя', inn: '1' }, entityId: `before-${i}`, actor }),
  );
  await publisher.flush();

  await redis.stop('SIGKILL');
  const started = Date.now();
  const during = Array.from({ length: 50 }, (_, i) =>
    publisher.publish({
      code: 'contact.updated',
      data: { fullName: 'во время сбоя', email: 'x@example.test' },
      entityId: `during-${i}`,
      actor,
    }),
  );
  expect(Date.now() - started).toBeLessThan(50); // publishing never waits for Redis
  await publisher.flush();
  const outbox = audit.ctx.store.collection('audit_outbox');
  expect(await outbox.countDocuments()).toBe(50);

  redis = await startRedisServer(port, `redis-${port}`);
  const records = recordModel(audit.ctx.store);
  const ids = [...before, ...during].map((e) => e.id);
  await waitUntil(
    async () =>
      (await outbox.countDocuments()) === 0 &&
      (await records.countDocuments({ eventId: op({ $in: during.map((e) => e.id) }) })) === 50,
  );
  for (const id of ids.slice(20)) expect(await records.countDocuments({ eventId: id })).toBe(1);
});

it('an event published while a flush delivers the outbox is moved by that flush, not left in memory for a timer', async () => {
  const publisher = audit.ctx.audit;
  const actor = { id: 'u2', fullName: 'Олег Петров', email: 'oleg@example.test' };
  // Events an earlier outage left in the outbox: the timer's flush delivers them after the buffer.
  const outbox = audit.ctx.store.collection('audit_outbox');
  const left = Array.from({ length: 200 }, (_, i) => ({
    id: `left-${i}-${Date.now()}`,
    service: 'audit',
    action: 'update',
    entity: 'course',
    entityId: `left-${i}`,
    details: 'из outbox',
    actor,
    timestamp: new Date().toISOString(),
  }));
  await outbox.insertMany(left.map((event) => ({ _id: event.id as never, event, createdAt: new Date() })));

  publisher.publish({ code: 'organization.created', data: { name: 'первое', inn: '1' }, entityId: 'first', actor });
  // The timer's flush: the buffer first, then the outbox.
  const flushing = publisher.flush({ drainOutbox: true });
  // The buffer is out; the flush is now delivering the outbox.
  while (publisher.pending) await new Promise((r) => setImmediate(r));
  const late = publisher.publish({ code: 'organization.created', data: { name: 'позднее', inn: '1' }, entityId: 'late', actor });
  // Asked for after the late event, the flush returns only once it is out of memory too.
  await publisher.flush();
  await flushing;

  expect(publisher.pending).toBe(0);
  const records = recordModel(audit.ctx.store);
  await waitUntil(async () => (await records.countDocuments({ eventId: late.id })) === 1);
});
