import { randomUUID } from 'node:crypto';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { AUDIT_EXPORT_HEADER, DASHBOARD_MSG, type AuditEvent, type AuthResponse } from '@portal/contracts';
import { download, readCsv, readXlsx } from '@portal/devstack/exports';
import { recordModel } from '../../models/record';
import { storeEvent, storeEvents } from '../../queues/worker';
import { backfillRecordFields, recordFilter } from '../../queries/records';
import { auditSubjects } from '../../subjects';
import { startAuditWithAuth, type AuditWithAuth } from '../../testing';
import { auditRouters } from '../../app';

let bed: AuditWithAuth;
let auth: AuditWithAuth['auth'];
let audit: AuditWithAuth['audit'];
beforeAll(async () => {
  bed = await startAuditWithAuth();
  ({ auth, audit } = bed);
});
afterAll(() => bed.close());

const event = (patch: Partial<AuditEvent> = {}): AuditEvent => ({
  id: randomUUID(),
  service: 'test',
  action: 'create',
  entity: 'course',
  entityId: 'c1',
  details: 'Создан курс',
  actor: { id: 'u1', fullName: 'Иван Петров', email: 'ivan@example.test' },
  timestamp: new Date().toISOString(),
  ...patch,
});

const waitUntil = async (check: () => Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
};

describe('the audit worker', () => {
  it('stores each event once however often it is delivered', async () => {
    const records = recordModel(audit.ctx.store);
    const e = event({ details: 'дважды' });
    await storeEvent(records, e);
    await storeEvent(records, e);
    expect(await records.countDocuments({ eventId: e.id })).toBe(1);
  });

  it('takes events published by a service from the queue into the store', async () => {
    const session = await userWithRole(auth, 'CLIENT', 'Очередь Тестовая');
    const published = audit.ctx.audit.publish({
      code: 'contact.updated',
      data: { fullName: 'Борис Орлов', email: 'boris@example.test' },
      entityId: session.user.id,
      actor: session.user,
    });
    await audit.ctx.audit.flush();
    const records = recordModel(audit.ctx.store);
    await waitUntil(async () => (await records.countDocuments({ eventId: published.id })) === 1);
    const stored = await records.findOne({ eventId: published.id }).lean();
    expect(stored).toMatchObject({
      action: 'update',
      entity: 'contact',
      code: 'contact.updated',
      data: { fullName: 'Борис Орлов', email: 'boris@example.test' },
      details: 'Изменён контакт Борис Орлов <boris@example.test>',
      actor: { fullName: 'Очередь Тестовая' },
    });
  });

  it('keeps an event whose data its code refuses, without failing the publisher, and reads it as what was done', async () => {
    const session = await userWithRole(auth, 'CLIENT', 'Данные Неподходящие');
    // A value the types call a string, given back by the store as null.
    const data = { fullName: null, email: 'nobody@example.test' } as unknown as { fullName: string; email: string };
    const published = audit.ctx.audit.publish({ code: 'contact.updated', data, entityId: 'c-null', actor: session.user });
    await audit.ctx.audit.flush();
    const records = recordModel(audit.ctx.store);
    await waitUntil(async () => (await records.countDocuments({ eventId: published.id })) === 1);
    expect(await records.findOne({ eventId: published.id }).lean()).toMatchObject({
      action: 'update',
      entity: 'contact',
      code: 'contact.updated',
      data: { fullName: null, email: 'nobody@example.test' },
      details: '',
    });
  });

  it('refuses a malformed event instead of storing it', async () => {
    await expect(storeEvent(recordModel(audit.ctx.store), { id: 'x', action: 'explode' })).rejects.toThrow();
  });
});

describe('GET /api/audit', () => {
  let reader: TestService;
  let admin: string;
  beforeAll(async () => {
    reader = await startTestService('audit', auditRouters, { env: { AUTH_URL: auth.url } });
    const records = recordModel(reader.ctx.store);
    await records.syncIndexes();
    const day = (d: string, h = '12:00:00') => new Date(`${d}T${h}Z`).toISOString();
    for (const e of [
      event({ entity: 'course', action: 'create', timestamp: day('2026-03-01') }),
      event({ entity: 'course', action: 'update', timestamp: day('2026-03-02') }),
      event({ entity: 'organization', action: 'create', timestamp: day('2026-03-03', '23:59:30') }),
      event({ entity: 'user', action: 'login', timestamp: day('2026-03-04') }),
    ]) {
      await storeEvent(records, e);
    }
    admin = (await userWithRole(auth, 'ADMIN')).token;
  });
  afterAll(() => reader.close());

  it('needs a token (401) and a staff role (403)', async () => {
    expect((await api(reader.url, 'GET', '/api/audit')).status).toBe(401);
    const client = await userWithRole(auth, 'CLIENT');
    expect((await api(reader.url, 'GET', '/api/audit', { token: client.token })).status).toBe(403);
  });

  it('lists newest first with a total, and pages', async () => {
    const all = await api(reader.url, 'GET', '/api/audit', { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.data.map((r: { action: string }) => r.action)).toEqual(['login', 'create', 'update', 'create']);
    expect(all.body.data[0]).toMatchObject({ entity: 'user', user: { fullName: 'Иван Петров', email: 'ivan@example.test' } });
    const page2 = await api(reader.url, 'GET', '/api/audit?page=2&limit=3&sort=oldest', { token: admin });
    expect(page2.body).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect(page2.body.data.map((r: { action: string }) => r.action)).toEqual(['login']);
  });

  it('filters by entity, action and an end date inclusive to the end of that day', async () => {
    const courses = await api(reader.url, 'GET', '/api/audit?entity=course', { token: admin });
    expect(courses.body.total).toBe(2);
    const creates = await api(reader.url, 'GET', '/api/audit?action=create', { token: admin });
    expect(creates.body.total).toBe(2);
    const range = await api(reader.url, 'GET', '/api/audit?startDate=2026-03-02&endDate=2026-03-03', { token: admin });
    expect(range.body.data.map((r: { entity: string }) => r.entity).sort()).toEqual(['course', 'organization']);
  });

  it('names a bad filter in a 400', async () => {
    const bad = await api(reader.url, 'GET', '/api/audit?entity=spaceship', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('entity');
    expect((await api(reader.url, 'GET', '/api/audit?startDate=03/02/2026', { token: admin })).status).toBe(400);
    const backwards = await api(reader.url, 'GET', '/api/audit?startDate=2026-03-03&endDate=2026-03-02', { token: admin });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ field: 'endDate', message: DASHBOARD_MSG.endBeforeStart });
    const zone = await api(reader.url, 'GET', '/api/audit?tz=Mars/Olympus', { token: admin });
    expect(zone.status).toBe(400);
    expect(zone.body).toMatchObject({ field: 'tz', message: DASHBOARD_MSG.unknownTimeZone });
    expect((await api(reader.url, 'GET', '/api/audit?limit=0', { token: admin })).body.field).toBe('limit');
  });

  it('reads the dates as days where the reader is', async () => {
    // The organization was created at 23:59:30 UTC on 3 March: already 4 March in Moscow.
    const utc = await api(reader.url, 'GET', '/api/audit?startDate=2026-03-03&endDate=2026-03-03', { token: admin });
    expect(utc.body.data.map((r: { entity: string }) => r.entity)).toEqual(['organization']);
    const moscow3 = await api(reader.url, 'GET', '/api/audit?startDate=2026-03-03&endDate=2026-03-03&tz=Europe/Moscow', {
      token: admin,
    });
    expect(moscow3.body.total).toBe(0);
    const moscow4 = await api(reader.url, 'GET', '/api/audit?startDate=2026-03-04&endDate=2026-03-04&tz=Europe/Moscow', {
      token: admin,
    });
    expect(moscow4.body.data.map((r: { entity: string }) => r.entity).sort()).toEqual(['organization', 'user']);
  });

  it('pages without overlap in either order', async () => {
    for (const sort of ['newest', 'oldest']) {
      const ids: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const answer = await api(reader.url, 'GET', `/api/audit?limit=1&page=${page}&sort=${sort}`, { token: admin });
        expect(answer.body.total).toBe(4);
        ids.push(answer.body.data[0].id);
      }
      expect(new Set(ids).size).toBe(4);
    }
  });

  it('searches names, emails and details, case-insensitively and literally', async () => {
    const records = recordModel(reader.ctx.store);
    const other = event({
      actor: { id: 'u2', fullName: 'Мария Соколова', email: 'maria@example.test' },
      details: 'Создан курс «C++ (основы)»',
      timestamp: '2026-03-05T10:00:00.000Z',
    });
    await storeEvent(records, other);
    try {
      const byName = await api(reader.url, 'GET', `/api/audit?search=${encodeURIComponent('соколова')}`, { token: admin });
      expect(byName.body.data.map((r: { id: string }) => r.id)).toEqual([other.id]);
      const byEmail = await api(reader.url, 'GET', '/api/audit?search=MARIA%40example', { token: admin });
      expect(byEmail.body.total).toBe(1);
      const byDetails = await api(reader.url, 'GET', `/api/audit?search=${encodeURIComponent('c++ (')}`, { token: admin });
      expect(byDetails.body.total).toBe(1);
      const regexLooking = await api(reader.url, 'GET', '/api/audit?search=.*', { token: admin });
      expect(regexLooking.body.total).toBe(0);
      const combined = await api(
        reader.url,
        'GET',
        `/api/audit?search=${encodeURIComponent('Иван')}&entity=course&action=update`,
        { token: admin },
      );
      expect(combined.body.total).toBe(1);
    } finally {
      await records.deleteOne({ eventId: other.id });
    }
  });
});

describe('GET /api/audit under many readers', () => {
  it('reads a page from the store once however many ask for it, and shows a new event at once', async () => {
    const reader = await startTestService('audit', auditRouters, { env: { AUTH_URL: auth.url } });
    try {
      const records = recordModel(reader.ctx.store);
      await storeEvent(records, event({ details: 'Первое' }));
      const admin = (await userWithRole(auth, 'ADMIN')).token;
      const history = () => api(reader.url, 'GET', '/api/audit?entity=course', { token: admin });
      let reads = 0;
      reader.ctx.store.set('debug', (collection: string) => {
        if (collection === 'audit_records') reads++;
      });
      const pages = await Promise.all(Array.from({ length: 20 }, history));
      expect(pages.map((p) => p.body.total)).toEqual(Array(20).fill(1));
      const firstReads = reads;
      expect(firstReads).toBeGreaterThan(0);
      expect((await history()).body.data[0].details).toBe('Первое');
      expect(reads).toBe(firstReads); // answered without the store

      // A new event is on the next page read, with its total.
      await storeEvent(records, event({ details: 'Второе' }));
      const after = await history();
      expect(after.body.total).toBe(2);
      expect(after.body.data[0].details).toBe('Второе');
    } finally {
      reader.ctx.store.set('debug', false);
      await reader.close();
    }
  });
});

describe('GET /api/audit/my', () => {
  let mine: TestService;
  beforeAll(async () => {
    mine = await startTestService('audit', auditRouters, { env: { AUTH_URL: auth.url } });
    await recordModel(mine.ctx.store).syncIndexes();
  });
  afterAll(() => mine.close());

  it('needs a token', async () => {
    expect((await api(mine.url, 'GET', '/api/audit/my')).status).toBe(401);
  });

  it('shows anyone their own actions and nobody else’s, with the same filters', async () => {
    const learner = await userWithRole(auth, 'CLIENT', 'Дмитрий Соколов');
    const someoneElse = await userWithRole(auth, 'ADMIN');
    const records = recordModel(mine.ctx.store);
    const own = [
      event({ action: 'login', entity: 'user', actor: learner.user, timestamp: '2026-03-01T08:00:00.000Z' }),
      event({
        action: 'create',
        entity: 'progress',
        actor: learner.user,
        details: 'Начат курс «Основы HR»',
        timestamp: '2026-03-02T08:00:00.000Z',
      }),
    ];
    for (const e of [...own, event({ action: 'create', entity: 'course', actor: someoneElse.user })])
      await storeEvent(records, e);

    const answer = await api(mine.url, 'GET', `/api/audit/my?actorId=${someoneElse.user.id}`, { token: learner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(2);
    expect(answer.body.data.map((r: { id: string }) => r.id)).toEqual([own[1].id, own[0].id]);
    const filtered = await api(mine.url, 'GET', '/api/audit/my?action=login&sort=oldest', { token: learner.token });
    expect(filtered.body.data.map((r: { id: string }) => r.id)).toEqual([own[0].id]);
    // Staff read their own here too; the whole trail is GET /api/audit.
    expect((await api(mine.url, 'GET', '/api/audit/my', { token: someoneElse.token })).body.total).toBe(1);
  });

  it('lists records stored before actorId existed once they are given it, and asks the store by that top-level field', async () => {
    const learner = await userWithRole(auth, 'CLIENT', 'Старые Записи');
    const records = recordModel(mine.ctx.store);
    // As an earlier version stored them: the actor inside, no actorId.
    const legacy = [event({ actor: learner.user, timestamp: '2025-01-10T08:00:00.000Z' }), event({ actor: learner.user })];
    await records.collection.insertMany(
      legacy.map((e) => ({
        _id: e.id as never,
        eventId: e.id,
        service: e.service,
        action: e.action,
        entity: e.entity,
        entityId: e.entityId,
        details: e.details,
        actor: e.actor,
        timestamp: new Date(e.timestamp),
      })),
    );
    const mineNow = async () => (await api(mine.url, 'GET', '/api/audit/my', { token: learner.token })).body.total;
    expect(await mineNow()).toBe(0);
    expect(await backfillRecordFields(records, 1)).toBeGreaterThanOrEqual(2);
    expect(await mineNow()).toBe(2);
    expect(await backfillRecordFields(records)).toBe(0); // nothing left to move
    // A new event carries it from the start.
    const fresh = event({ actor: learner.user });
    await storeEvent(records, fresh);
    expect(await records.findById(fresh.id).lean()).toMatchObject({ actorId: learner.user.id });
    expect(recordFilter({} as never, { actorId: learner.user.id })).toEqual({ actorId: learner.user.id });
  });

  it('names a bad filter in a 400', async () => {
    const learner = await userWithRole(auth, 'CANDIDATE');
    const bad = await api(mine.url, 'GET', '/api/audit/my?action=explode', { token: learner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('action');
  });
});

/* ----------------------------------------------------------- downloads */

let admin: AuthResponse;
let learner: AuthResponse;
const tag = Date.now().toString(36);

const exportEvent = (patch: Partial<AuditEvent>): AuditEvent => ({
  id: randomUUID(),
  service: 'test',
  action: 'create',
  entity: 'course',
  entityId: 'c1',
  details: `Создан курс ${tag}`,
  actor: { id: 'u1', fullName: 'Иван Петров', email: 'ivan@example.test' },
  timestamp: '2026-03-01T12:00:00.000Z',
  ...patch,
});

const exportUrl = (path: string, query: string) => `${audit.url}${path}?search=${tag}&${query}`;

beforeAll(async () => {
  admin = await userWithRole(auth, 'ADMIN');
  learner = await userWithRole(auth, 'CANDIDATE', `;=Соколов; Дмитрий ${tag}`);
  await storeEvents(recordModel(audit.ctx.store), [
    exportEvent({ entityId: 'c1' }),
    // 23:59:30 UTC on 3 March is already 4 March in Moscow.
    exportEvent({
      entity: 'organization',
      entityId: 'o1',
      details: `=HYPERLINK("http://evil") ${tag}`,
      timestamp: '2026-03-03T23:59:30.000Z',
    }),
    exportEvent({
      action: 'login',
      entity: 'user',
      entityId: learner.user.id,
      actor: learner.user,
      details: `Вход ${tag}`,
      timestamp: '2026-03-04T08:00:00.000Z',
    }),
  ]);
});

describe('GET /api/audit/export', () => {
  it('needs a token (401), a staff role (403) and good filters (400)', async () => {
    expect((await api(audit.url, 'GET', '/api/audit/export')).status).toBe(401);
    expect((await api(audit.url, 'GET', '/api/audit/export', { token: learner.token })).status).toBe(403);
    const backwards = await api(audit.url, 'GET', '/api/audit/export?startDate=2026-03-03&endDate=2026-03-02', {
      token: admin.token,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ field: 'endDate', message: DASHBOARD_MSG.endBeforeStart });
    expect((await api(audit.url, 'GET', '/api/audit/export?format=doc', { token: admin.token })).body.field).toBe('format');
  });

  it('writes the trail as CSV in the history’s order, with Russian labels and inert formulas', async () => {
    const res = await download(exportUrl('/api/audit/export', 'tz=Europe/Moscow'), admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit_history.csv"');
    const rows = readCsv(res.bytes);
    expect(rows[0]).toEqual([...AUDIT_EXPORT_HEADER]);
    expect(rows.slice(1)).toEqual([
      ['04.03.2026 11:00', 'Вход', 'Пользователь', learner.user.id, `Вход ${tag}`, learner.user.fullName, learner.user.email],
      [
        '04.03.2026 02:59',
        'Создание',
        'Организация',
        'o1',
        `'=HYPERLINK("http://evil") ${tag}`,
        'Иван Петров',
        'ivan@example.test',
      ],
      ['01.03.2026 15:00', 'Создание', 'Курс', 'c1', `Создан курс ${tag}`, 'Иван Петров', 'ivan@example.test'],
    ]);
  });

  it('respects the filters of the dialog: entity, action, days in the reader’s zone, order', async () => {
    const moscow4 = readCsv(
      (
        await download(
          exportUrl('/api/audit/export', 'startDate=2026-03-04&endDate=2026-03-04&tz=Europe/Moscow&sort=oldest'),
          admin.token,
        )
      ).bytes,
    );
    expect(moscow4.slice(1).map((r) => r[3])).toEqual(['o1', learner.user.id]);
    const courses = readCsv((await download(exportUrl('/api/audit/export', 'entity=course&action=create'), admin.token)).bytes);
    expect(courses.slice(1).map((r) => r[3])).toEqual(['c1']);
  });

  it('writes the same rows as XLSX, with the time as a real date', async () => {
    const res = await download(exportUrl('/api/audit/export', 'format=xlsx&tz=UTC&entity=course'), admin.token);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit_history.xlsx"');
    const sheet = await readXlsx(res.bytes);
    expect(sheet.rows[0]).toEqual([...AUDIT_EXPORT_HEADER]);
    expect(sheet.rows[1]).toEqual([
      new Date('2026-03-01T12:00:00.000Z'),
      'Создание',
      'Курс',
      'c1',
      `Создан курс ${tag}`,
      'Иван Петров',
      'ivan@example.test',
    ]);
    expect(sheet.formats[0]).toBe('dd.mm.yyyy hh:mm');
  });
});

describe('GET /api/audit/my/export', () => {
  it('gives anyone their own actions only', async () => {
    expect((await api(audit.url, 'GET', '/api/audit/my/export')).status).toBe(401);
    const rows = readCsv((await download(exportUrl('/api/audit/my/export', ''), learner.token)).bytes);
    expect(rows.slice(1).map((r) => r[5])).toEqual([learner.user.fullName]);
    // The name starts with ;= and stays one field, as typed.
    expect(rows[1][5]).toBe(`;=Соколов; Дмитрий ${tag}`);
  });
});

describe('forgetting a person', () => {
  it('takes their former name and email out of an edit of their account too', async () => {
    const records = recordModel(audit.ctx.store);
    const userId = `forgotten-${randomUUID()}`;
    const edit = event({
      action: 'update',
      entity: 'user',
      entityId: userId,
      code: 'user.updated',
      data: {
        email: 'new.mail@example.test',
        changes: {
          fullName: { from: 'Прежняя Фамилия', to: 'Новая Фамилия' },
          email: { from: 'old.mail@example.test', to: 'new.mail@example.test' },
        },
      },
      details: 'Изменён пользователь new.mail@example.test',
    });
    // Made before the edit: it names the account by its former email only.
    const created = event({
      action: 'create',
      entity: 'user',
      entityId: userId,
      details: 'Создан пользователь old.mail@example.test',
    });
    await storeEvents(records, [created, edit]);
    await auditSubjects(records).anonymise(userId, {
      alias: 'Пользователь 1',
      fullName: 'Новая Фамилия',
      email: 'new.mail@example.test',
    });
    const kept = JSON.stringify(await Promise.all([edit.id, created.id].map((id) => records.findById(id).lean())));
    expect(kept).toContain(created.id);
    for (const trace of ['Прежняя Фамилия', 'Новая Фамилия', 'old.mail@example.test', 'new.mail@example.test'])
      expect(kept).not.toContain(trace);
  });

  it('is gone at once from a history page read just before, which the service keeps', async () => {
    const records = recordModel(audit.ctx.store);
    const admin = (await userWithRole(auth, 'ADMIN')).token;
    const userId = `forgotten-${randomUUID()}`;
    const person = { id: userId, fullName: 'Забытая Персона', email: 'zabytaya@example.test' };
    await storeEvents(records, [event({ actor: person, details: 'Вход Забытая Персона' })]);
    const before = await api(audit.url, 'GET', '/api/audit?page=1&limit=20', { token: admin });
    expect(JSON.stringify(before.body)).toContain('Забытая Персона');
    await auditSubjects(records).anonymise(userId, { alias: 'Пользователь 2', ...person });
    const after = await api(audit.url, 'GET', '/api/audit?page=1&limit=20', { token: admin });
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body)).toContain('Пользователь 2');
    for (const trace of ['Забытая Персона', 'zabytaya@example.test']) expect(JSON.stringify(after.body)).not.toContain(trace);
  });
});
