import { randomUUID } from 'node:crypto';
import { startTestService, storeOperationsDuring, type TestService } from '@portal/devstack/testing';
import { auditRouters } from '../app';
import { dayOf, recordModel } from '../models/record';
import { storeEvents } from '../queues/worker';
import { daySummaryModel, validSummaries, warmDaySummaries } from './daySummaries';

let audit: TestService;
beforeAll(async () => {
  audit = await startTestService('audit', auditRouters);
  await recordModel(audit.ctx.store).syncIndexes();
});
afterAll(() => audit.close());

const now = Date.parse('2026-12-01T12:00:00Z');
/** The last sealed day at `now` and the first of the three years before it. */
const [first, last] = ['2023-12-01', '2026-11-29'];

const record = (timestamp: string, action: 'create' | 'update') => {
  const id = randomUUID();
  return {
    _id: id,
    eventId: id,
    service: 'test',
    action,
    entity: 'course' as const,
    entityId: 'c1',
    details: 'Запись',
    actor: null,
    timestamp: new Date(timestamp),
    day: dayOf(new Date(timestamp)),
  };
};

it("summarises a new store's three years in a few operations: the days without a record as empty, the others counted", async () => {
  const records = recordModel(audit.ctx.store);
  await records.insertMany([
    record('2024-02-29T10:00:00Z', 'create'),
    record('2025-07-01T23:59:00Z', 'update'),
    record('2025-07-01T00:00:00Z', 'update'),
    record('2026-11-29T08:00:00Z', 'create'),
  ]);
  // A day a late record reached once: its summary moved past generation 0, with no record there now.
  await daySummaryModel(records.db).create({ _id: '2025-01-15', month: '2025-01', gen: 1 });

  let made = 0;
  const ops = await storeOperationsDuring(audit, async () => {
    made = await warmDaySummaries(records, 1095, now);
  });
  expect(made).toBe(1095);
  // One read of each month's summaries (37), four to make the empty days, a few for each of the four
  // days counted one by one (three with records, one moved): five a day, 5,511 in all, before.
  expect(ops.length).toBeLessThan(80);

  const valid = await validSummaries(records, first, last);
  expect(valid.size).toBe(1095);
  const counted = [...valid].filter(([, counts]) => counts.length).map(([day, counts]) => [day, counts]);
  expect(Object.fromEntries(counted)).toEqual({
    '2024-02-29': [{ entity: 'course', action: 'create', n: 1 }],
    '2025-07-01': [{ entity: 'course', action: 'update', n: 2 }],
    '2026-11-29': [{ entity: 'course', action: 'create', n: 1 }],
  });
  // Warm already: nothing is summarised again.
  expect(await warmDaySummaries(records, 1095, now)).toBe(0);
});

it('a late record of a day summarised as empty makes its summary stale, and the next warm-up counts it', async () => {
  const records = recordModel(audit.ctx.store);
  // Summarised as empty by the warm-up above.
  expect((await validSummaries(records, '2025-03-10', '2025-03-10')).get('2025-03-10')).toEqual([]);
  const late = {
    id: randomUUID(),
    service: 'test',
    action: 'update' as const,
    entity: 'course' as const,
    entityId: 'c1',
    details: 'Поздняя запись',
    actor: null,
    timestamp: '2025-03-10T12:00:00.000Z',
  };
  expect(await storeEvents(records, [late])).toEqual([null]);
  expect((await validSummaries(records, '2025-03-10', '2025-03-10')).has('2025-03-10')).toBe(false);
  // One day missing: counted as before, one by one.
  expect(await warmDaySummaries(records, 1095, now)).toBe(1);
  expect((await validSummaries(records, '2025-03-10', '2025-03-10')).get('2025-03-10')).toEqual([
    { entity: 'course', action: 'update', n: 1 },
  ]);
});
