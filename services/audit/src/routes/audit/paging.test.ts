import { randomUUID } from 'node:crypto';
import { AUDIT_MAX_DAYS_COUNTED, AUDIT_TOTAL_CAP, PAGING_MSG, type AuditPage } from '@portal/contracts';
import { api, startTestService, storeOperationsDuring, type TestService } from '@portal/devstack/testing';
import { clock, op } from '@portal/service-kit';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { auditRouters } from '../../app';
import { dayOf, filedAt, recordModel } from '../../models/record';
import { SUMMARIES_MADE_PER_REQUEST, warmDaySummaries } from '../../queries/daySummaries';
import { MAX_DAYS_WALKED } from '../../queries/records';
import { storeEvents } from '../../queues/worker';

const AUDIT_MAX = 200;

let auth: Awaited<ReturnType<typeof startAuth>>;
let reader: TestService;
let admin: string;
const at = new Date('2026-05-05T10:00:00.000Z');

beforeAll(async () => {
  auth = await startAuth();
  reader = await startTestService('audit', auditRouters, { env: { AUTH_URL: auth.url } });
  const records = recordModel(reader.ctx.store);
  await records.syncIndexes();
  // 250 records of the same millisecond: only the tie-breaker orders them.
  await records.insertMany(
    Array.from({ length: 250 }, (_, i) => {
      const id = randomUUID();
      return {
        _id: id,
        eventId: id,
        service: 'test',
        action: i % 2 ? 'update' : 'create',
        entity: 'course',
        entityId: `c${i}`,
        details: `Запись ${i}`,
        actor: { id: 'u1', fullName: 'Иван Петров', email: 'ivan@example.test' },
        actorId: 'u1',
        timestamp: at,
        day: dayOf(at),
      };
    }),
  );
  admin = (await userWithRole(auth, 'ADMIN')).token;
});
afterAll(async () => {
  await reader.close();
  await auth.close();
});

const history = (query: string) => api<AuditPage>(reader.url, 'GET', `/api/audit?${query}`, { token: admin });

/** A stored record of no one (a system's action), as the audit worker writes it. */
const systemRecord = (fields: { action: string; entity: string; entityId: string; details: string; timestamp: Date }) => {
  const id = randomUUID();
  return { _id: id, eventId: id, service: 'test', actor: null, actorId: null, ...fields, ...filedAt(fields.timestamp) };
};

/**
 * Sets the services' clock to minute `minute` and second `second` of an hour that has passed, so a
 * test knows which records fall in the current ten seconds, minute and hour; answers that moment.
 * Put back after each test.
 */
function pinClock(minute: number, second = 30): number {
  const hourAgo = Date.now() - 3_600_000;
  const at = hourAgo - (hourAgo % 3_600_000) + minute * 60_000 + second * 1000;
  clock.set(new Date(at));
  return at;
}
afterEach(() => clock.reset());

describe('GET /api/audit in pages', () => {
  it('answers 50 by default and up to 200, refusing more with 400 in Russian', async () => {
    const first = await history('');
    expect(first.body).toMatchObject({ page: 1, limit: 50, total: 250 });
    expect(first.body.data).toHaveLength(50);
    expect((await history(`limit=${AUDIT_MAX}`)).body.data).toHaveLength(AUDIT_MAX);
    const refused = await history(`limit=${AUDIT_MAX + 1}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: PAGING_MSG.limitInvalid.replace('{max}', String(AUDIT_MAX)), statusCode: 400 });
  });

  it('pages a filtered history of one millisecond without losing or repeating a record, in either order', async () => {
    for (const sort of ['newest', 'oldest']) {
      const ids: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const answer = await history(`action=update&startDate=2026-05-05&endDate=2026-05-05&limit=50&page=${page}&sort=${sort}`);
        expect(answer.body.total).toBe(125);
        ids.push(...answer.body.data.map((r) => r.id));
      }
      expect(ids).toHaveLength(125);
      expect(new Set(ids).size).toBe(125);
    }
  });

  it('reads the store the same few times for a page of any size, however long the trail', async () => {
    const small = await storeOperationsDuring(reader, () => history('action=update&limit=1'));
    const large = await storeOperationsDuring(reader, () => history('action=update&limit=200'));
    expect(large).toEqual(small);
    // The pages' version and the totals'; the current ten seconds, minute and hour; the day summaries (none yet);
    // then day by day back from tomorrow; these records are older than the walk, so one query over
    // the filter after it; and the count.
    expect(small.length).toBeLessThanOrEqual(MAX_DAYS_WALKED + 8);
  });

  it('reads only the days it needs for a first page of recent history, and pages on across days', async () => {
    const records = recordModel(reader.ctx.store);
    const now = Date.now();
    // 30 records an hour apart, the newest an hour ago: today's and yesterday's, maybe the day before.
    const recent = Array.from({ length: 30 }, (_, i) =>
      systemRecord({
        action: 'delete',
        entity: 'organization',
        entityId: `o${i}`,
        details: `Удаление ${i}`,
        timestamp: new Date(now - (i + 1) * 3_600_000),
      }),
    );
    await records.insertMany(recent);
    const ops = await storeOperationsDuring(reader, async () => {
      const first = await history('entity=organization&action=delete&limit=5');
      expect(first.body.total).toBe(30);
      expect(first.body.data.map((r) => r.id)).toEqual(recent.slice(0, 5).map((r) => r.eventId));
    });
    // The current ten seconds, minute and hour (empty), tomorrow (a publisher's clock may run ahead),
    // today, and yesterday just after midnight (UTC); and the count.
    expect(ops.filter((op) => op === 'audit_records.find').length).toBeLessThanOrEqual(6);
    expect(ops.filter((op) => op === 'audit_records.countDocuments')).toHaveLength(1);
    const ids: string[] = [];
    for (let page = 1; page <= 4; page++)
      ids.push(...(await history(`entity=organization&action=delete&limit=8&page=${page}`)).body.data.map((r) => r.id));
    expect(ids).toEqual(recent.map((r) => r.eventId));
    const oldest = await history(
      `entity=organization&action=delete&sort=oldest&limit=30&startDate=${dayOf(now - 3 * 86_400_000)}`,
    );
    expect(oldest.body.data.map((r) => r.id)).toEqual([...recent].reverse().map((r) => r.eventId));
  });

  it('counts no further than 500 records, says so, and still pages to the last record', async () => {
    const records = recordModel(reader.ctx.store);
    const day = new Date('2026-02-10T12:00:00.000Z');
    const many = Array.from({ length: AUDIT_TOTAL_CAP + 40 }, (_, i) =>
      systemRecord({
        action: 'login',
        entity: 'user',
        entityId: `u${i}`,
        details: `Вход ${i}`,
        timestamp: new Date(day.getTime() + i * 1000),
      }),
    );
    await records.insertMany(many);
    for (const period of ['', '&startDate=2026-02-01&endDate=2026-02-28']) {
      const ops = await storeOperationsDuring(reader, async () => {
        const first = await history(`entity=user&action=login&limit=200${period}`);
        // The whole history is counted to the cap; a period of days that are over is summed from
        // the days' summaries, exactly, at any size.
        expect(first.body).toMatchObject(
          period ? { total: many.length, totalExact: true } : { total: AUDIT_TOTAL_CAP, totalExact: false },
        );
      });
      // The whole history in one count; the period's 28 days are each summarised once (one read of
      // that day's records), and no record is counted.
      expect(ops.filter((op) => op === 'audit_records.countDocuments').length).toBe(period ? 0 : 1);
      const ids: string[] = [];
      for (let page = 1; page <= 3; page++)
        ids.push(...(await history(`entity=user&action=login&limit=200&page=${page}${period}`)).body.data.map((r) => r.id));
      expect(new Set(ids).size).toBe(many.length);
    }
    // Once summarised, a period's total is one read of its summaries.
    const again = await storeOperationsDuring(reader, async () => {
      const page = await history('entity=user&action=login&limit=20&startDate=2026-02-01&endDate=2026-02-28');
      expect(page.body).toMatchObject({ total: many.length, totalExact: true });
    });
    expect(again.filter((op) => op.startsWith('audit_day_summaries.')).length).toBe(1);
    expect(again.filter((op) => op === 'audit_records.countDocuments')).toHaveLength(0);
    // Narrower filters are counted exactly.
    const narrow = await history('entity=user&action=login&startDate=2026-02-10&endDate=2026-02-10&search=Вход 53');
    expect(narrow.body).toMatchObject({ total: 11, totalExact: true }); // «Вход 53» and «Вход 530»…«Вход 539»
  });

  it('sums a long period from day summaries: a lower bound while days are unsummarised, exact after the warm-up', async () => {
    const longAgo = await history('startDate=2025-01-01&endDate=2026-05-20&action=update');
    // One request summarises at most 32 days, newest first: 2026-05-05, which holds the 125 updates, is among them.
    expect(SUMMARIES_MADE_PER_REQUEST).toBe(32);
    expect(longAgo.body).toMatchObject({ total: 125, totalExact: false });
    await warmDaySummaries(recordModel(reader.ctx.store), 700);
    expect((await history('startDate=2025-01-01&endDate=2026-05-20&action=update')).body).toMatchObject({
      total: 125,
      totalExact: true,
    });
    const tooLate = await history('startDate=2025-01-01&endDate=2026-06-30&action=update');
    expect(tooLate.body).toMatchObject({ total: 125, totalExact: true });
    expect(tooLate.body.data).toHaveLength(50);
    // A search still counts day by day, for the last 31 days of the period at most.
    const searched = await history('startDate=2025-01-01&endDate=2026-06-30&action=update&search=Запись');
    expect(searched.body).toMatchObject({ total: 50, totalExact: false });
    expect(AUDIT_MAX_DAYS_COUNTED).toBe(31);
  }, 180_000); // the warm-up summarises 700 days, a read and a write each: 60 s was too short on a slow host

  it('passes the days the summaries show empty, or a deep page skips whole, without reading them', async () => {
    const records = recordModel(reader.ctx.store);
    // 20 days of March: each with 5 deletions of a quiz among 20 creations of one, delivered late by
    // the queue (days already summarised above, as empty: the worker makes those summaries stale).
    const march = Array.from({ length: 20 }, (_, d) =>
      Array.from({ length: 25 }, (_, i) => ({
        id: randomUUID(),
        service: 'test',
        action: i < 5 ? ('delete' as const) : ('create' as const),
        entity: 'quiz' as const,
        entityId: `q${d}-${i}`,
        details: `Квиз ${d}-${i}`,
        actor: null,
        timestamp: new Date(Date.UTC(2026, 2, d + 1, 9, i)).toISOString(),
      })),
    ).flat();
    expect(new Set(await storeEvents(records, march))).toEqual(new Set([null]));
    await warmDaySummaries(records, 700);
    const deletions = march
      .filter((r) => r.action === 'delete')
      .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    const period = 'entity=quiz&action=delete&startDate=2026-01-01&endDate=2026-04-30&limit=20';
    const ops = await storeOperationsDuring(reader, async () => {
      const third = await history(`${period}&page=3`);
      expect(third.body).toMatchObject({ total: 100, totalExact: true });
      expect(third.body.data.map((r) => r.id)).toEqual(deletions.slice(40, 60));
    });
    // The 41 empty days of April and March's 8 newest (40 deletions) are passed by their summaries;
    // the page is the next 4 days, one query each.
    expect(ops.filter((op) => op === 'audit_records.find')).toHaveLength(4);
    const pages: string[] = [];
    for (let page = 1; page <= 5; page++) pages.push(...(await history(`${period}&page=${page}`)).body.data.map((r) => r.id));
    expect(pages).toEqual(deletions);
    const none = await storeOperationsDuring(reader, async () => {
      expect((await history('entity=quiz&action=login&startDate=2026-01-01&endDate=2026-04-30')).body).toMatchObject({
        data: [],
        total: 0,
        totalExact: true,
      });
    });
    expect(none.filter((op) => op === 'audit_records.find')).toHaveLength(0);
  }, 120_000); // its warm-up rereads the 700 days' summaries

  it("counts a late record of a summarised day, and days cut by the reader's time zone, exactly", async () => {
    const records = recordModel(reader.ctx.store);
    const moscowMay5 = 'startDate=2026-05-05&endDate=2026-05-05&tz=Europe%2FMoscow&entity=course&action=update';
    const utcMay4to6 = 'startDate=2026-05-04&endDate=2026-05-06&entity=course&action=update';
    expect((await history(moscowMay5)).body).toMatchObject({ total: 125, totalExact: true });
    // Whole UTC days: summed from their summaries, which this first read makes.
    expect((await history(utcMay4to6)).body).toMatchObject({ total: 125, totalExact: true });
    // Late events delivered by the queue: one inside Moscow's 5 May, one filed under UTC's 5 May but on
    // Moscow's 6 May (01:00), one on 4 May in both.
    const late = (iso: string) => ({
      id: randomUUID(),
      service: 'test',
      action: 'update' as const,
      entity: 'course' as const,
      entityId: 'late',
      details: 'Поздняя запись',
      actor: null,
      timestamp: iso,
    });
    const outcomes = await storeEvents(records, [
      late('2026-05-05T15:00:00.000Z'),
      late('2026-05-05T22:00:00.000Z'),
      late('2026-05-04T12:00:00.000Z'),
    ]);
    expect(outcomes).toEqual([null, null, null]);
    expect((await history(moscowMay5)).body).toMatchObject({ total: 126, totalExact: true });
    expect((await history(utcMay4to6)).body).toMatchObject({ total: 128, totalExact: true });
  });

  it('on a busy hour, answers «500+» from the hour the first page read, without counting its records again', async () => {
    const records = recordModel(reader.ctx.store);
    const now = pinClock(45);
    // More contacts read today than the count's cap, a second apart, the newest a minute ago.
    const busy = Array.from({ length: AUDIT_TOTAL_CAP + 20 }, (_, i) =>
      systemRecord({
        action: 'read',
        entity: 'contact',
        entityId: `k${i}`,
        details: `Просмотр ${i}`,
        timestamp: new Date(now - 60_000 - i * 1000),
      }),
    );
    await records.insertMany(busy);
    const newest = busy.slice(0, 10).map((r) => r.eventId);
    const ops = await storeOperationsDuring(reader, async () => {
      const first = await history('entity=contact&action=read&limit=10');
      expect(first.body).toMatchObject({ total: AUDIT_TOTAL_CAP, totalExact: false });
      expect(first.body.data.map((r) => r.id)).toEqual(newest);
    });
    // The current ten seconds and minute (empty), and the hour; and no count.
    expect(ops.filter((op) => op === 'audit_records.find')).toHaveLength(3);
    expect(ops.filter((op) => op === 'audit_records.countDocuments')).toHaveLength(0);
    // A period's total stays exact past the cap: today is counted, as it is not summarised yet.
    const today = dayOf(now);
    const period = await history(`entity=contact&action=read&limit=10&startDate=${dayOf(now - 86_400_000)}&endDate=${today}`);
    expect(period.body).toMatchObject({ total: busy.length, totalExact: true });
    expect(period.body.data.map((r) => r.id)).toEqual(newest);
  });
  it('on a busy minute, reads its last ten seconds and then the minute for a first page, and counts to «500+» again only after a record changes', async () => {
    const records = recordModel(reader.ctx.store);
    // At 30 seconds past: the current ten seconds have just begun.
    const now = pinClock(45);
    // 60 certificates issued within the current minute, and 500 earlier today.
    const lastMinute = Array.from({ length: 60 }, (_, i) =>
      systemRecord({
        action: 'create',
        entity: 'certificate',
        entityId: `m${i}`,
        details: `Сертификат ${i}`,
        timestamp: new Date(now - i * 400),
      }),
    );
    const earlier = Array.from({ length: AUDIT_TOTAL_CAP }, (_, i) =>
      systemRecord({
        action: 'create',
        entity: 'certificate',
        entityId: `e${i}`,
        details: `Сертификат раньше ${i}`,
        timestamp: new Date(now - 600_000 - i * 1000),
      }),
    );
    await records.insertMany([...lastMinute, ...earlier]);
    const firstPage = 'entity=certificate&action=create&limit=20';
    const first = await storeOperationsDuring(reader, async () => {
      const page = await history(firstPage);
      expect(page.body).toMatchObject({ total: AUDIT_TOTAL_CAP, totalExact: false });
      expect(page.body.data.map((r) => r.id)).toEqual(lastMinute.slice(0, 20).map((r) => r.eventId));
    });
    // The ten seconds (one record), then the minute.
    expect(first.filter((op) => op === 'audit_records.find')).toHaveLength(2);
    expect(first.filter((op) => op === 'audit_records.countDocuments')).toHaveLength(1);

    // A new record outdates the page, not the total: the next page reads the same and counts nothing.
    const issued = randomUUID();
    const event = {
      service: 'test',
      action: 'create',
      entity: 'certificate',
      entityId: 'new',
      details: 'Новый',
      actor: null,
    } as const;
    // Stored a moment after the newest of the minute (the pinned clock runs on from it).
    expect(await storeEvents(records, [{ ...event, id: issued, timestamp: clock.now().toISOString() }])).toEqual([null]);
    const next = await storeOperationsDuring(reader, async () => {
      const page = await history(firstPage);
      expect(page.body).toMatchObject({ total: AUDIT_TOTAL_CAP, totalExact: false });
      expect(page.body.data[0].id).toBe(issued);
    });
    expect(next.filter((op) => op === 'audit_records.find')).toHaveLength(2);
    expect(next.filter((op) => op === 'audit_records.countDocuments')).toHaveLength(0);

    // Removing records (as the retention does) can bring a total under the cap: it is counted again.
    await records.deleteMany({ entityId: op({ $in: earlier.slice(0, 100).map((r) => r.entityId) }) });
    const fewer = await history(firstPage);
    expect(fewer.body).toMatchObject({ total: lastMinute.length + earlier.length - 100 + 1, totalExact: true });
  });

  it('on a busy ten seconds (30 events a second), reads those ten seconds alone for a first page', async () => {
    const records = recordModel(reader.ctx.store);
    const now = pinClock(50, 38);
    // 40 logouts within the last 4 seconds (the ten seconds began at 30), 50 earlier in the minute.
    const lastSeconds = Array.from({ length: 40 }, (_, i) =>
      systemRecord({
        action: 'logout',
        entity: 'user',
        entityId: `s${i}`,
        details: `Выход ${i}`,
        timestamp: new Date(now - i * 100),
      }),
    );
    const earlier = Array.from({ length: 50 }, (_, i) =>
      systemRecord({
        action: 'logout',
        entity: 'user',
        entityId: `r${i}`,
        details: `Выход раньше ${i}`,
        timestamp: new Date(now - 10_000 - i * 500),
      }),
    );
    await records.insertMany([...lastSeconds, ...earlier]);
    const ops = await storeOperationsDuring(reader, async () => {
      const page = await history('entity=user&action=logout&limit=20');
      expect(page.body).toMatchObject({ total: 90, totalExact: true });
      expect(page.body.data.map((r) => r.id)).toEqual(lastSeconds.slice(0, 20).map((r) => r.eventId));
    });
    expect(ops.filter((op) => op === 'audit_records.find')).toHaveLength(1);
    // Its second page needs the minute.
    const second = await history('entity=user&action=logout&limit=20&page=2');
    expect(second.body.data.map((r) => r.id)).toEqual(lastSeconds.slice(20, 40).map((r) => r.eventId));
    const third = await history('entity=user&action=logout&limit=20&page=3');
    expect(third.body.data.map((r) => r.id)).toEqual(earlier.slice(0, 20).map((r) => r.eventId));
  });
});
