import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, op, type ScheduledJob } from '@portal/service-kit';
import { waitFor } from '@portal/devstack/util';
import type { AuditEvent } from '@portal/contracts';
import { recordModel } from '../models/record';
import { daySummaryModel } from '../queries/daySummaries';
import { RETENTION_QUEUE, startRetention } from '../queues/retention';
import { storeEvents } from '../queues/worker';
import { startAudit, type AuditTestService } from '../testing';
import { purgeExpiredRecords } from './purge';

const DAY = 86_400_000;
let audit: AuditTestService;
let connection: Redis;
const started: ScheduledJob[] = [];
// The purge reads `now` from this clock, so the test moves time instead of waiting years.
let now = new Date();

const daysAgo = (days: number, from = now): string => new Date(from.getTime() - days * DAY).toISOString();
const record = (timestamp: string, details: string): AuditEvent => ({
  id: randomUUID(),
  service: 'test',
  action: 'create',
  entity: 'course',
  entityId: null,
  details,
  actor: null,
  timestamp,
});

/** A replica's retention, scheduled every second (the service's default is nightly). */
const replica = () => {
  const retention = startRetention(connection, recordModel(audit.ctx.store), audit.ctx.audit, audit.ctx.logger, {
    days: 1095,
    batchSize: 2,
    cron: '* * * * * *',
    prefix: audit.ctx.config.QUEUE_PREFIX,
    clock: () => now,
  });
  started.push(retention);
  return retention;
};

beforeAll(async () => {
  audit = await startAudit();
  connection = createRedis(audit.ctx.config.REDIS_URL, audit.ctx.logger);
});
afterAll(async () => {
  for (const r of started) await r.close();
  connection.disconnect();
  await audit.close();
});

describe('the audit retention', () => {
  it('removes records older than the period in batches of the given size, and keeps the rest', async () => {
    const records = recordModel(audit.ctx.store);
    const at = new Date('2030-01-01T00:00:00.000Z');
    const old = Array.from({ length: 5 }, (_, i) => record(daysAgo(1096 + i, at), `старая ${i}`));
    const kept = [record(daysAgo(1094, at), 'почти три года'), record(daysAgo(1, at), 'вчера')];
    await storeEvents(records, [...old, ...kept]);
    const outcome = await purgeExpiredRecords(records, { days: 1095, batchSize: 2, now: at });
    expect(outcome).toMatchObject({ removed: 5, batches: 3 });
    const left = await records.find({ _id: op({ $in: [...old, ...kept].map((e) => e.id) }) }, { details: 1 }).lean();
    expect(left.map((r) => r.details).sort()).toEqual(['вчера', 'почти три года']);
    // The history's day summaries: those of the purged days go, the cutoff's own day is recounted.
    const summaries = daySummaryModel(audit.ctx.store);
    await summaries.create([
      { _id: daysAgo(1097, at).slice(0, 10), gen: 0, countedGen: 0, tally: 'course create 1' },
      { _id: daysAgo(1095, at).slice(0, 10), gen: 0, countedGen: 0, tally: 'course create 3' },
      { _id: daysAgo(1094, at).slice(0, 10), gen: 0, countedGen: 0, tally: 'course create 1' },
    ]);
    await purgeExpiredRecords(records, { days: 1095, batchSize: 2, now: at });
    const summarised = await summaries
      .find({ _id: op({ $gte: daysAgo(1100, at).slice(0, 10), $lte: daysAgo(1094, at).slice(0, 10) }) })
      .sort({ _id: 1 })
      .lean();
    expect(summarised.map((d) => [d._id, d.gen === d.countedGen])).toEqual([
      [daysAgo(1095, at).slice(0, 10), false],
      [daysAgo(1094, at).slice(0, 10), true],
    ]);
    await records.deleteMany({ _id: op({ $in: kept.map((e) => e.id) }) });
  });

  it('runs on its schedule once however many replicas start it, records the purge, and follows the clock', async () => {
    const records = recordModel(audit.ctx.store);
    now = new Date();
    const old = Array.from({ length: 3 }, (_, i) => record(daysAgo(1200 + i), `давняя ${i}`));
    const borderline = record(daysAgo(1000), 'тысяча дней');
    const recent = record(daysAgo(10), 'десять дней');
    await storeEvents(records, [...old, borderline, recent]);

    const [first, second] = [replica(), replica()];
    await Promise.all([first.scheduled, second.scheduled]);
    const queue = new Queue(RETENTION_QUEUE, { connection, prefix: audit.ctx.config.QUEUE_PREFIX });
    expect(await queue.getJobSchedulersCount()).toBe(1);
    await queue.close();

    const purgeRecords = () => records.find({ entity: 'audit', action: 'delete' }).lean();
    await waitFor(async () => (await purgeRecords()).length === 1, 'the first purge', 15_000);
    const [purge] = await purgeRecords();
    expect(purge.actor).toBeNull();
    expect(purge.details).toBe('Удалены записи журнала старше 1095 дн.: 3');
    expect(await records.countDocuments({ _id: op({ $in: old.map((e) => e.id) }) })).toBe(0);
    expect(await records.countDocuments({ _id: op({ $in: [borderline.id, recent.id] }) })).toBe(2);

    // 200 days later the thousand-day record is past the period too; the recent one stays.
    now = new Date(now.getTime() + 200 * DAY);
    await waitFor(async () => (await records.countDocuments({ _id: borderline.id })) === 0, 'the second purge', 15_000);
    await waitFor(async () => (await purgeRecords()).length === 2, 'the second purge record', 15_000);
    expect((await purgeRecords()).map((r) => r.details.replace(/^.*: /, '')).sort()).toEqual(['1', '3']);
    expect(await records.countDocuments({ _id: recent.id })).toBe(1);
  });
});
