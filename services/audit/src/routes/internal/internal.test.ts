import { randomUUID } from 'node:crypto';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { LIST_TOTAL_CAP, type AuditEvent } from '@portal/contracts';
import { auditRouters } from '../../app';
import { dayOf as utcDayOf, recordModel } from '../../models/record';
import { dayOf } from '../../queries/period';
import { storeEvent } from '../../queues/worker';

let audit: TestService;
let internal: Record<string, string>;
beforeAll(async () => {
  audit = await startTestService('audit', auditRouters);
  await recordModel(audit.ctx.store).syncIndexes();
  internal = { 'x-internal-token': audit.ctx.config.INTERNAL_TOKEN };
});
afterAll(() => audit.close());

const DAY = 86_400_000;
const ann = { id: 'u-ann', fullName: 'Анна Смирнова', email: 'ann@example.test' };
const bob = { id: 'u-bob', fullName: 'Борис Орлов', email: 'bob@example.test' };
const event = (actor: AuditEvent['actor'], ago: number, patch: Partial<AuditEvent> = {}): AuditEvent => ({
  id: randomUUID(),
  service: 'test',
  action: 'create',
  entity: 'course',
  entityId: 'c1',
  details: 'Создан курс «Основы HR»',
  actor,
  timestamp: new Date(Date.now() - ago).toISOString(),
  ...patch,
});

describe('GET /internal/activity', () => {
  beforeAll(async () => {
    const records = recordModel(audit.ctx.store);
    const events = [
      event(ann, 1000, { action: 'update' }),
      event(ann, 2000),
      event(bob, 3000, { action: 'login', entity: 'user' }),
      event(bob, 2 * DAY),
      event(ann, 20 * DAY), // outside the 14 days
    ];
    for (const e of events) await storeEvent(records, e);
  });

  it('is for other services only: no or a wrong internal token is refused', async () => {
    expect((await api(audit.url, 'GET', '/internal/activity')).status).toBe(403);
    expect((await api(audit.url, 'GET', '/internal/activity', { headers: { 'x-internal-token': 'x'.repeat(33) } })).status).toBe(
      403,
    );
  });

  it('names a bad parameter in a 400', async () => {
    const bad = await api(audit.url, 'GET', '/internal/activity?tz=Nowhere/Else', { headers: internal });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('tz');
    expect((await api(audit.url, 'GET', '/internal/activity?limit=500', { headers: internal })).body.field).toBe('limit');
  });

  it('gives the latest actions of everyone and the count of each of the last 14 days', async () => {
    const answer = await api(audit.url, 'GET', '/internal/activity?limit=3&tz=Europe/Moscow', { headers: internal });
    expect(answer.status).toBe(200);
    expect(
      answer.body.recent.map((r: { action: string; user: { fullName: string } }) => `${r.user.fullName}:${r.action}`),
    ).toEqual(['Анна Смирнова:update', 'Анна Смирнова:create', 'Борис Орлов:login']);
    const byDay: Array<{ date: string; count: number }> = answer.body.byDay;
    expect(byDay).toHaveLength(14);
    expect(byDay[13].date).toBe(dayOf(new Date(), 'Europe/Moscow'));
    expect(byDay.reduce((sum, d) => sum + d.count, 0)).toBe(4);
    expect(byDay.find((d) => d.date === dayOf(Date.now() - 2 * DAY, 'Europe/Moscow'))?.count).toBeGreaterThanOrEqual(1);
  });

  it('gives only one person’s own actions when asked for an actor', async () => {
    const answer = await api(audit.url, 'GET', `/internal/activity?actorId=${bob.id}`, { headers: internal });
    expect(answer.body.recent).toHaveLength(2);
    expect(answer.body.recent.every((r: { user: { id: string } }) => r.user.id === bob.id)).toBe(true);
    expect(answer.body.byDay.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(2);
  });

  it('gives a curator’s feed: their own actions and those about the ids of their courses, nothing else (POST)', async () => {
    const carl = { id: 'u-carl', fullName: 'Карл Куратор', email: 'carl@example.test' };
    const records = recordModel(audit.ctx.store);
    for (const e of [
      event(carl, 500, { entityId: 'mine-course' }),
      event(ann, 400, { action: 'update', entity: 'progress', entityId: 'mine-lesson', details: 'Урок пройден' }),
      event(bob, 300, { entity: 'consent', entityId: bob.id, details: 'Согласие' }),
      event(bob, 200, { entityId: 'theirs-course' }),
    ])
      await storeEvent(records, e);
    const ask = (body: unknown) => api(audit.url, 'POST', '/internal/activity', { headers: internal, body });
    const answer = await ask({ actorId: carl.id, entityIds: ['mine-course', 'mine-lesson'], tz: 'Europe/Moscow' });
    expect(answer.status).toBe(200);
    expect(answer.body.recent.map((r: { user: { id: string }; entityId: string }) => `${r.user.id}:${r.entityId}`)).toEqual([
      'u-ann:mine-lesson',
      'u-carl:mine-course',
    ]);
    expect(answer.body.byDay.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(2);

    expect((await api(audit.url, 'POST', '/internal/activity', { body: { actorId: carl.id, entityIds: [] } })).status).toBe(403);
    const bad = await ask({ entityIds: 'mine-course' });
    expect(bad.status).toBe(400);
  });

  it('counts a day no further than 10 000 actions and says so', async () => {
    const at = new Date();
    const busy = Array.from({ length: LIST_TOTAL_CAP + 1 }, (_, i) => {
      const id = randomUUID();
      return {
        _id: id,
        eventId: id,
        service: 'test',
        action: 'login' as const,
        entity: 'user' as const,
        entityId: null,
        details: `Вход ${i}`,
        actor: null,
        actorId: null,
        timestamp: at,
        day: utcDayOf(at),
      };
    });
    const records = recordModel(audit.ctx.store);
    // Written as they are (they are whole records already: nothing to cast or check), a few batches at once.
    const batches = Array.from({ length: Math.ceil(busy.length / 2_500) }, (_, i) => busy.slice(i * 2_500, (i + 1) * 2_500));
    await Promise.all(batches.map((batch) => records.insertMany(batch, { lean: true })));

    const answer = await api(audit.url, 'GET', '/internal/activity?tz=UTC', { headers: internal });
    expect(answer.status).toBe(200);
    const byDay: Array<{ date: string; count: number; exact?: boolean }> = answer.body.byDay;
    expect(byDay.find((d) => d.date === utcDayOf(at))).toEqual({ date: utcDayOf(at), count: LIST_TOTAL_CAP, exact: false });
    expect(byDay.filter((d) => d.date !== utcDayOf(at)).every((d) => !('exact' in d))).toBe(true);
  }, 120_000);
});
