import { CRM_MSG, MSG, ORGANIZATIONS_EXPORT_HEADER, ORG_STATUS_LABELS, REQUISITES_MSG, completeInn } from '@portal/contracts';
import { download, readCsv, readXlsx } from '@portal/devstack/exports';
import { api } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { auditEventsFor, startCrm, uniqueInn, type CrmTestBed } from '../../testing';

let bed: CrmTestBed;
beforeAll(async () => {
  bed = await startCrm();
});
afterAll(() => bed.close());

const call = (method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  api(bed.crm.url, method, path, opts);
const token = (role: 'ADMIN' | 'MANAGER' | 'CURATOR' | 'CLIENT' | 'CANDIDATE') => bed.as[role].token;
const missingId = () => new Types.ObjectId().toHexString();

async function makeOrg(fields: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/organizations', {
    token: token('CURATOR'),
    body: { name: 'ООО Тест', inn: uniqueInn(), ...fields },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; inn: string; version: number };
}

describe('GET /api/organizations', () => {
  it('refuses anonymous callers with 401 and learners with 403', async () => {
    expect((await call('GET', '/api/organizations')).status).toBe(401);
    for (const role of ['CANDIDATE', 'CLIENT'] as const) {
      const refused = await call('GET', '/api/organizations', { token: token(role) });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
    }
  });

  it('is open to ADMIN, CURATOR and MANAGER', async () => {
    for (const role of ['ADMIN', 'CURATOR', 'MANAGER'] as const) {
      expect((await call('GET', '/api/organizations', { token: token(role) })).status).toBe(200);
    }
  });

  it('refuses a page size over 100 and an unknown status filter with 400', async () => {
    const tooBig = await call('GET', '/api/organizations?limit=1000', { token: token('CURATOR') });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.field).toBe('limit');
    const badStatus = await call('GET', '/api/organizations?status=CLOSED', { token: token('CURATOR') });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.message).toBe(CRM_MSG.statusInvalid);
  });

  it('searches name or inn case-insensitively, with the contact count of each', async () => {
    const romashka = await makeOrg({ name: 'ООО Ромашка-Поиск', inn: completeInn('550100000') });
    await makeOrg({ name: 'АО Василёк-Поиск', inn: completeInn('550200000') });
    await bed.models.contacts.create([
      { orgId: romashka.id, fullName: 'Анна', email: 'anna@romashka.test' },
      { orgId: romashka.id, fullName: 'Борис', email: 'boris@romashka.test' },
    ]);
    const byName = await call('GET', '/api/organizations?search=РОМАШКА-поиск', { token: token('CURATOR') });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ total: 1, page: 1 });
    expect(byName.body.data).toEqual([
      expect.objectContaining({
        id: romashka.id,
        name: 'ООО Ромашка-Поиск',
        inn: completeInn('550100000'),
        status: 'ACTIVE',
        site: null,
        _count: { contacts: 2 },
      }),
    ]);
    const byInn = await call('GET', '/api/organizations?search=550200', { token: token('CURATOR') });
    expect(byInn.body.data.map((o: { name: string }) => o.name)).toEqual(['АО Василёк-Поиск']);
    expect(byInn.body.data[0]._count).toEqual({ contacts: 0 });
    // Regular-expression characters are text, not patterns.
    expect((await call('GET', '/api/organizations?search=.*', { token: token('CURATOR') })).body.data).toEqual([]);
  });

  it('pages newest first and filters by status', async () => {
    const tag = `Страницы-${Date.now()}`;
    for (let i = 1; i <= 3; i++) await makeOrg({ name: `${tag} ${i}`, status: i === 2 ? 'PENDING' : 'ACTIVE' });
    const first = await call('GET', `/api/organizations?search=${encodeURIComponent(tag)}&limit=2&page=1`, {
      token: token('ADMIN'),
    });
    expect(first.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.body.data.map((o: { name: string }) => o.name)).toEqual([`${tag} 3`, `${tag} 2`]);
    const second = await call('GET', `/api/organizations?search=${encodeURIComponent(tag)}&limit=2&page=2`, {
      token: token('ADMIN'),
    });
    expect(second.body.data.map((o: { name: string }) => o.name)).toEqual([`${tag} 1`]);
    const pending = await call('GET', `/api/organizations?search=${encodeURIComponent(tag)}&status=PENDING`, {
      token: token('ADMIN'),
    });
    expect(pending.body.data.map((o: { name: string }) => o.name)).toEqual([`${tag} 2`]);
  });
});

describe('POST /api/organizations', () => {
  it('refuses anonymous callers with 401 and a candidate with 403, storing nothing', async () => {
    const inn = uniqueInn();
    expect((await call('POST', '/api/organizations', { body: { name: 'Аноним', inn } })).status).toBe(401);
    const refused = await call('POST', '/api/organizations', { token: token('CANDIDATE'), body: { name: 'Кандидат', inn } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.forbidden);
    expect(await bed.models.organizations.countDocuments({ inn })).toBe(0);
  });

  it('requires name and inn with the spec message', async () => {
    for (const body of [
      { inn: uniqueInn() },
      { name: 'Без ИНН' },
      { name: '   ', inn: uniqueInn() },
      { name: 'Пустой ИНН', inn: '' },
      {},
    ]) {
      const res = await call('POST', '/api/organizations', { token: token('CURATOR'), body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MSG.fillRequired);
    }
    expect(await bed.models.organizations.countDocuments({ name: 'Без ИНН' })).toBe(0);
  });

  it('refuses an ИНН, КПП or ОГРН whose format or check digits are wrong, naming the field, and stores nothing', async () => {
    for (const [fields, message, field] of [
      [{ inn: '1234567890' }, REQUISITES_MSG.innChecksum, 'inn'],
      [{ inn: '0000000000' }, REQUISITES_MSG.innZeros, 'inn'],
      [{ inn: '77-0708389' }, REQUISITES_MSG.innFormat, 'inn'],
      [{ inn: uniqueInn(), kpp: '7736' }, REQUISITES_MSG.kppFormat, 'kpp'],
      [{ inn: uniqueInn(), ogrn: '1027700132196' }, REQUISITES_MSG.ogrnChecksum, 'ogrn'],
    ] as const) {
      const res = await call('POST', '/api/organizations', { token: token('CURATOR'), body: { name: 'Реквизиты', ...fields } });
      expect([res.status, res.body.message, res.body.field]).toEqual([400, message, field]);
    }
    expect(await bed.models.organizations.countDocuments({ name: 'Реквизиты' })).toBe(0);
  });

  it('keeps КПП and ОГРН, changes and clears them, and refuses a wrong ИНН on edit', async () => {
    const created = await call('POST', '/api/organizations', {
      token: token('CURATOR'),
      body: { name: 'С реквизитами', inn: uniqueInn(), kpp: '773601001', ogrn: '1027700132195' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kpp: '773601001', ogrn: '1027700132195' });
    const cleared = await call('PATCH', `/api/organizations/${created.body.id}`, {
      token: token('CURATOR'),
      body: { kpp: '', ogrn: '304500116000157', version: created.body.version },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ kpp: null, ogrn: '304500116000157' });
    const wrong = await call('PATCH', `/api/organizations/${created.body.id}`, {
      token: token('CURATOR'),
      body: { inn: '1234567890', version: cleared.body.version },
    });
    expect([wrong.status, wrong.body.message]).toEqual([400, REQUISITES_MSG.innChecksum]);
    expect((await bed.models.organizations.findById(created.body.id).lean())?.inn).toBe(created.body.inn);
  });

  it('refuses an unknown status', async () => {
    const res = await call('POST', '/api/organizations', {
      token: token('CURATOR'),
      body: { name: 'Статус', inn: uniqueInn(), status: 'CLOSED' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: CRM_MSG.statusInvalid, field: 'status' });
  });

  it('creates an organization, ACTIVE by default, trimmed, with an optional site, and audits it', async () => {
    const inn = uniqueInn();
    const res = await call('POST', '/api/organizations', {
      token: token('MANAGER'),
      body: { name: '  ООО Новая  ', inn: ` ${inn} ` },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'ООО Новая', inn, site: null, status: 'ACTIVE', _count: { contacts: 0 } });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    const stored = await bed.models.organizations.findById(res.body.id).lean();
    expect(stored).toMatchObject({ name: 'ООО Новая', inn, status: 'ACTIVE', site: null });

    const withSite = await call('POST', '/api/organizations', {
      token: token('ADMIN'),
      body: { name: 'С сайтом', inn: uniqueInn(), site: 'example.ru', status: 'PENDING' },
    });
    expect(withSite.body).toMatchObject({ site: 'example.ru', status: 'PENDING' });

    const events = await auditEventsFor(bed.crm, res.body.id);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'organization',
        service: 'crm',
        actor: expect.objectContaining({ id: bed.as.MANAGER.user.id }),
      }),
    ]);
    expect(events[0].details).toContain('ООО Новая');
  });

  it('refuses a duplicate inn with 409 and keeps one organization', async () => {
    const first = await makeOrg({ name: 'Первая' });
    const dup = await call('POST', '/api/organizations', {
      token: token('CURATOR'),
      body: { name: 'Вторая', inn: ` ${first.inn}` },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: CRM_MSG.innTaken, field: 'inn', statusCode: 409 });
    expect(await bed.models.organizations.countDocuments({ inn: first.inn })).toBe(1);
  });

  it('lets the unique index settle two simultaneous creates of one inn', async () => {
    const inn = uniqueInn();
    const answers = await Promise.all(
      [1, 2, 3].map((i) => call('POST', '/api/organizations', { token: token('CURATOR'), body: { name: `Гонка ${i}`, inn } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await bed.models.organizations.countDocuments({ inn })).toBe(1);
  });
});

describe('GET /api/organizations/{id}', () => {
  it('refuses 401 and 403', async () => {
    const org = await makeOrg();
    expect((await call('GET', `/api/organizations/${org.id}`)).status).toBe(401);
    expect((await call('GET', `/api/organizations/${org.id}`, { token: token('CLIENT') })).status).toBe(403);
  });

  it('answers 404 for a missing or malformed id', async () => {
    for (const id of [missingId(), 'not-an-id', '123']) {
      const res = await call('GET', `/api/organizations/${id}`, { token: token('CURATOR') });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(CRM_MSG.orgNotFound);
    }
  });

  it('returns the organization with its contacts in the order they were added', async () => {
    const org = await makeOrg({ name: 'С контактами', site: 'https://example.org' });
    for (const [fullName, email] of [
      ['Первый Контакт', 'first@c.test'],
      ['Второй Контакт', 'second@c.test'],
    ]) {
      expect(
        (
          await call('POST', '/api/contacts', {
            token: token('CURATOR'),
            body: { fullName, email, orgId: org.id, phone: '+7 999 000-00-00', role: 'Директор' },
          })
        ).status,
      ).toBe(201);
    }
    const res = await call('GET', `/api/organizations/${org.id}`, { token: token('MANAGER') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: org.id,
      name: 'С контактами',
      site: 'https://example.org',
      status: 'ACTIVE',
      _count: { contacts: 2 },
    });
    expect(res.body.contacts.map((c: { fullName: string }) => c.fullName)).toEqual(['Первый Контакт', 'Второй Контакт']);
    expect(res.body.contacts[0]).toEqual({
      id: expect.any(String),
      orgId: org.id,
      fullName: 'Первый Контакт',
      email: 'first@c.test',
      phone: '+7 999 000-00-00',
      role: 'Директор',
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // 152-FZ access log: who read the contacts' personal data, one record for the card.
    const reads = (await auditEventsFor(bed.crm, org.id)).filter((e) => e.action === 'read');
    expect(reads).toEqual([
      expect.objectContaining({
        entity: 'profile',
        details: 'Просмотр контактов организации "С контактами": 2',
        actor: expect.objectContaining({ id: bed.as.MANAGER.user.id }),
      }),
    ]);
    // A card without contacts holds nobody's personal data.
    const empty = await makeOrg({ name: 'Без контактов' });
    await call('GET', `/api/organizations/${empty.id}`, { token: token('MANAGER') });
    expect((await auditEventsFor(bed.crm, empty.id)).filter((e) => e.action === 'read')).toEqual([]);
  });
});

describe('PATCH /api/organizations/{id}', () => {
  it('refuses 401 and 403 and changes nothing', async () => {
    const org = await makeOrg({ name: 'Неизменная' });
    expect((await call('PATCH', `/api/organizations/${org.id}`, { body: { name: 'X' } })).status).toBe(401);
    expect((await call('PATCH', `/api/organizations/${org.id}`, { token: token('CANDIDATE'), body: { name: 'X' } })).status).toBe(
      403,
    );
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({ name: 'Неизменная' });
  });

  it('refuses blank name or inn, an unknown status and an empty edit with 400', async () => {
    const org = await makeOrg({ name: 'Проверка' });
    for (const body of [{ name: '' }, { inn: '  ' }, { name: 'Ок', inn: null }]) {
      const res = await call('PATCH', `/api/organizations/${org.id}`, {
        token: token('CURATOR'),
        body: { ...body, version: org.version },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MSG.fillRequired);
    }
    const badStatus = await call('PATCH', `/api/organizations/${org.id}`, {
      token: token('CURATOR'),
      body: { status: 'DELETED', version: org.version },
    });
    expect(badStatus.body).toMatchObject({ statusCode: 400, message: CRM_MSG.statusInvalid });
    const empty = await call('PATCH', `/api/organizations/${org.id}`, {
      token: token('CURATOR'),
      body: { version: org.version },
    });
    expect(empty.body).toMatchObject({ statusCode: 400, message: CRM_MSG.nothingToUpdate });
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({
      name: 'Проверка',
      inn: org.inn,
      status: 'ACTIVE',
    });
  });

  it('answers 404 for a missing organization', async () => {
    const res = await call('PATCH', `/api/organizations/${missingId()}`, {
      token: token('CURATOR'),
      body: { status: 'INACTIVE', version: 0 },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(CRM_MSG.orgNotFound);
  });

  it('changes name, inn, site and status, stores them and audits the change', async () => {
    const org = await makeOrg({ name: 'Старое имя', site: 'old.example' });
    const inn = uniqueInn();
    const res = await call('PATCH', `/api/organizations/${org.id}`, {
      token: token('CURATOR'),
      body: { name: 'Новое имя', inn, site: '', status: 'INACTIVE', version: org.version },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.id, name: 'Новое имя', inn, site: null, status: 'INACTIVE' });
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({
      name: 'Новое имя',
      inn,
      site: null,
      status: 'INACTIVE',
    });

    const statusOnly = await call('PATCH', `/api/organizations/${org.id}`, {
      token: token('ADMIN'),
      body: { status: 'PENDING', version: res.body.version },
    });
    expect(statusOnly.body).toMatchObject({ name: 'Новое имя', status: 'PENDING' });

    const events = await auditEventsFor(bed.crm, org.id);
    expect(events.map((e) => e.action)).toEqual(['create', 'update', 'update']);
    expect(events[1].details).toContain('Неактивна');
  });

  it('refuses the inn of another organization with 409, but keeping its own inn is fine', async () => {
    const taken = await makeOrg({ name: 'Владелец ИНН' });
    const org = await makeOrg({ name: 'Претендент' });
    const res = await call('PATCH', `/api/organizations/${org.id}`, {
      token: token('CURATOR'),
      body: { inn: taken.inn, version: org.version },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CRM_MSG.innTaken);
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({ inn: org.inn });
    const same = await call('PATCH', `/api/organizations/${org.id}`, {
      token: token('CURATOR'),
      body: { name: 'Претендент 2', inn: org.inn, version: org.version },
    });
    expect(same.status).toBe(200);
  });
});

describe('PATCH /api/organizations/{id} without a version', () => {
  it('is refused with 428 and the Russian message, and changes nothing', async () => {
    const org = await makeOrg({ name: 'Без версии' });
    for (const headers of [{}, { 'If-Match': '*' }] as Array<Record<string, string>>) {
      const res = await call('PATCH', `/api/organizations/${org.id}`, {
        token: token('CURATOR'),
        body: { name: 'Чужая правка' },
        headers,
      });
      expect(res.status).toBe(428);
      expect(res.body.message).toBe(MSG.versionRequired);
    }
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({ name: 'Без версии', version: org.version });
  });

  it('is refused with 428 before its body is read: an empty edit without a version is not a 400', async () => {
    const org = await makeOrg({ name: 'Без версии и правок' });
    const res = await call('PATCH', `/api/organizations/${org.id}`, { token: token('CURATOR'), body: {} });
    expect(res.status).toBe(428);
    expect(res.body.message).toBe(MSG.versionRequired);
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({ version: org.version });
  });
});

describe('DELETE /api/organizations/{id}', () => {
  it('refuses 401 and 403 and keeps the organization', async () => {
    const org = await makeOrg();
    expect((await call('DELETE', `/api/organizations/${org.id}`)).status).toBe(401);
    const refused = await call('DELETE', `/api/organizations/${org.id}`, { token: token('CANDIDATE') });
    expect(refused.status).toBe(403);
    expect(await bed.models.organizations.exists({ _id: org.id })).toBeTruthy();
  });

  it('answers 404 for a missing or malformed id', async () => {
    expect((await call('DELETE', `/api/organizations/${missingId()}`, { token: token('CURATOR') })).status).toBe(404);
    expect((await call('DELETE', '/api/organizations/%24where', { token: token('CURATOR') })).status).toBe(404);
  });

  it('deletes the organization with its contacts only, and audits it', async () => {
    const doomed = await makeOrg({ name: 'Удаляемая' });
    const kept = await makeOrg({ name: 'Соседняя' });
    await bed.models.contacts.create([
      { orgId: doomed.id, fullName: 'Уходит 1', email: 'a@doomed.test' },
      { orgId: doomed.id, fullName: 'Уходит 2', email: 'b@doomed.test' },
      { orgId: kept.id, fullName: 'Остаётся', email: 'a@doomed.test' },
    ]);
    const res = await call('DELETE', `/api/organizations/${doomed.id}`, { token: token('CURATOR') });
    expect(res.status).toBe(204);
    expect(await bed.models.organizations.exists({ _id: doomed.id })).toBeNull();
    expect(await bed.models.contacts.countDocuments({ orgId: doomed.id })).toBe(0);
    expect(await bed.models.contacts.countDocuments({ orgId: kept.id })).toBe(1);
    expect((await call('GET', `/api/organizations/${doomed.id}`, { token: token('CURATOR') })).status).toBe(404);
    expect((await call('DELETE', `/api/organizations/${doomed.id}`, { token: token('CURATOR') })).status).toBe(404);

    const events = await auditEventsFor(bed.crm, doomed.id);
    expect(events.map((e) => e.action)).toEqual(['create', 'delete']);
    expect(events[1]).toMatchObject({ entity: 'organization', actor: expect.objectContaining({ id: bed.as.CURATOR.user.id }) });
    expect(events[1].details).toContain('контактами: 2');
  });
});

describe('GET /api/organizations/export', () => {
  const tag = `Выгрузка-${Date.now().toString(36)}`;
  const url = (query: string) => `${bed.crm.url}/api/organizations/export?search=${encodeURIComponent(tag)}&${query}`;
  let withContacts: { id: string; inn: string };
  beforeAll(async () => {
    withContacts = await makeOrg({ name: `=ООО ${tag}; "Альфа"`, site: 'alfa.example', status: 'PENDING' });
    await makeOrg({ name: `ИП ${tag}` });
    await bed.models.contacts.create([
      { orgId: withContacts.id, fullName: '@Анна Смирнова', email: 'anna@alfa.test', phone: '+7 900 000-00-00', role: 'HR' },
      { orgId: withContacts.id, fullName: 'Борис', email: 'boris@alfa.test' },
    ]);
  });

  it('refuses anonymous callers (401), learners (403) and an unknown format (400)', async () => {
    expect((await call('GET', '/api/organizations/export')).status).toBe(401);
    expect((await call('GET', '/api/organizations/export', { token: token('CLIENT') })).status).toBe(403);
    expect((await call('GET', '/api/organizations/export?format=ods', { token: token('MANAGER') })).body.field).toBe('format');
  });

  it('writes one row per contact, and one for an organization without contacts, with inert formulas', async () => {
    const res = await download(url('tz=Europe/Moscow'), token('MANAGER'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="organizations.csv"');
    const rows = readCsv(res.bytes);
    expect(rows[0]).toEqual([...ORGANIZATIONS_EXPORT_HEADER]);
    // Newest organization first, as in the list; contacts in the order they were added.
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[5], r[6], r[7], r[8]])).toEqual([
      [`ИП ${tag}`, expect.any(String), '', ORG_STATUS_LABELS.ACTIVE, '', '', '', ''],
      [
        `'=ООО ${tag}; "Альфа"`,
        withContacts.inn,
        'alfa.example',
        ORG_STATUS_LABELS.PENDING,
        "'@Анна Смирнова",
        'anna@alfa.test',
        "'+7 900 000-00-00",
        'HR',
      ],
      [`'=ООО ${tag}; "Альфа"`, withContacts.inn, 'alfa.example', ORG_STATUS_LABELS.PENDING, 'Борис', 'boris@alfa.test', '', ''],
    ]);
    expect(rows[2][4]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  });

  it('respects the status filter and writes XLSX with real dates', async () => {
    const res = await download(url('status=PENDING&format=xlsx'), token('CURATOR'));
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="organizations.xlsx"');
    const sheet = await readXlsx(res.bytes);
    expect(sheet.rows[0]).toEqual([...ORGANIZATIONS_EXPORT_HEADER]);
    expect(sheet.rows.slice(1).map((r) => r[5])).toEqual(['@Анна Смирнова', 'Борис']);
    expect(sheet.rows[1][0]).toBe(`=ООО ${tag}; "Альфа"`);
    expect(sheet.rows[1][4]).toBeInstanceOf(Date);
    expect(sheet.rows[1][9]).toBeInstanceOf(Date);
  });
});
