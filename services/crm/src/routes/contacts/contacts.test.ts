import { CRM_MSG, MSG } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { op } from '@portal/service-kit';
import { Types } from 'mongoose';
import { auditEventsFor, startCrm, uniqueInn, type CrmTestBed } from '../../testing';

let bed: CrmTestBed;
let orgId: string;
beforeAll(async () => {
  bed = await startCrm();
  orgId = String((await bed.models.organizations.create({ name: 'ООО Контакты', inn: uniqueInn() }))._id);
});
afterAll(() => bed.close());

const call = (method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  api(bed.crm.url, method, path, opts);
const token = (role: 'ADMIN' | 'MANAGER' | 'CURATOR' | 'CLIENT' | 'CANDIDATE') => bed.as[role].token;
let n = 0;
const email = () => `contact.${Date.now().toString(36)}.${n++}@example.test`;

async function makeContact(fields: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/contacts', {
    token: token('CURATOR'),
    body: { fullName: 'Ирина Смирнова', email: email(), orgId, ...fields },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; email: string; fullName: string; orgId: string; version: number };
}

describe('POST /api/contacts', () => {
  it('refuses anonymous callers with 401 and learners with 403, storing nothing', async () => {
    const address = email();
    expect((await call('POST', '/api/contacts', { body: { fullName: 'А', email: address, orgId } })).status).toBe(401);
    for (const role of ['CANDIDATE', 'CLIENT'] as const) {
      const refused = await call('POST', '/api/contacts', { token: token(role), body: { fullName: 'А', email: address, orgId } });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
    }
    expect(await bed.models.contacts.countDocuments({ email: address })).toBe(0);
  });

  it('requires fullName and email with the spec message', async () => {
    for (const body of [
      { email: email(), orgId },
      { fullName: '  ', email: email(), orgId },
      { fullName: 'Без почты', orgId },
      { fullName: 'Пустая', email: '', orgId },
    ]) {
      const res = await call('POST', '/api/contacts', { token: token('CURATOR'), body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MSG.fillRequired);
    }
    expect(await bed.models.contacts.countDocuments({ fullName: 'Без почты' })).toBe(0);
  });

  it('checks the email format and the phone', async () => {
    const badEmail = await call('POST', '/api/contacts', {
      token: token('CURATOR'),
      body: { fullName: 'Почта', email: 'not-an-email', orgId },
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toMatchObject({ message: MSG.emailInvalid, field: 'email' });
    const badPhone = await call('POST', '/api/contacts', {
      token: token('CURATOR'),
      body: { fullName: 'Телефон', email: email(), phone: 'позвонить', orgId },
    });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body).toMatchObject({ message: CRM_MSG.phoneInvalid, field: 'phone' });
    expect(await bed.models.contacts.countDocuments({ fullName: op({ $in: ['Почта', 'Телефон'] }) })).toBe(0);
  });

  it('requires an organization that exists', async () => {
    const noOrg = await call('POST', '/api/contacts', { token: token('CURATOR'), body: { fullName: 'Сирота', email: email() } });
    expect(noOrg.status).toBe(400);
    expect(noOrg.body).toMatchObject({ message: CRM_MSG.orgIdMissing, field: 'orgId' });
    for (const missing of [new Types.ObjectId().toHexString(), 'no-such-org']) {
      const res = await call('POST', '/api/contacts', {
        token: token('CURATOR'),
        body: { fullName: 'Сирота', email: email(), orgId: missing },
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(CRM_MSG.orgNotFound);
    }
    expect(await bed.models.contacts.countDocuments({ fullName: 'Сирота' })).toBe(0);
  });

  it('creates a contact with a lower-cased email, optional phone and job title, and audits it', async () => {
    const address = email();
    const res = await call('POST', '/api/contacts', {
      token: token('MANAGER'),
      body: {
        fullName: ' Олег Иванов ',
        email: address.toUpperCase(),
        phone: '+7 (999) 123-45-67',
        role: 'Главный бухгалтер',
        orgId,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      orgId,
      fullName: 'Олег Иванов',
      email: address,
      phone: '+7 (999) 123-45-67',
      role: 'Главный бухгалтер',
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await bed.models.contacts.findById(res.body.id).lean()).toMatchObject({
      fullName: 'Олег Иванов',
      email: address,
      role: 'Главный бухгалтер',
    });

    const bare = await makeContact({ phone: '', role: '' });
    expect(bare).toMatchObject({ phone: null, role: null });

    const events = await auditEventsFor(bed.crm, res.body.id);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'contact',
        actor: expect.objectContaining({ id: bed.as.MANAGER.user.id }),
      }),
    ]);
    expect(events[0].details).toContain('ООО Контакты');
  });

  it('refuses the same email twice in one organization with 409, but allows it in another', async () => {
    const first = await makeContact();
    const dup = await call('POST', '/api/contacts', {
      token: token('CURATOR'),
      body: { fullName: 'Двойник', email: first.email.toUpperCase(), orgId },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: CRM_MSG.contactEmailTaken, field: 'email' });
    expect(await bed.models.contacts.countDocuments({ email: first.email })).toBe(1);
    const other = String((await bed.models.organizations.create({ name: 'Другая', inn: uniqueInn() }))._id);
    expect(
      (
        await call('POST', '/api/contacts', {
          token: token('CURATOR'),
          body: { fullName: 'Двойник', email: first.email, orgId: other },
        })
      ).status,
    ).toBe(201);
  });
});

describe('PATCH /api/contacts/{id}', () => {
  it('refuses 401 and 403 and changes nothing', async () => {
    const contact = await makeContact({ fullName: 'Неизменный' });
    expect((await call('PATCH', `/api/contacts/${contact.id}`, { body: { fullName: 'X' } })).status).toBe(401);
    expect(
      (await call('PATCH', `/api/contacts/${contact.id}`, { token: token('CANDIDATE'), body: { fullName: 'X' } })).status,
    ).toBe(403);
    expect(await bed.models.contacts.findById(contact.id).lean()).toMatchObject({ fullName: 'Неизменный' });
  });

  it('refuses a blank name, a bad email and an empty edit with 400', async () => {
    const contact = await makeContact({ fullName: 'Проверяемый' });
    expect(
      (
        await call('PATCH', `/api/contacts/${contact.id}`, {
          token: token('CURATOR'),
          body: { fullName: '', version: contact.version },
        })
      ).body,
    ).toMatchObject({ statusCode: 400, message: MSG.fillRequired });
    expect(
      (
        await call('PATCH', `/api/contacts/${contact.id}`, {
          token: token('CURATOR'),
          body: { email: 'bad', version: contact.version },
        })
      ).body,
    ).toMatchObject({ statusCode: 400, message: MSG.emailInvalid });
    expect(
      (await call('PATCH', `/api/contacts/${contact.id}`, { token: token('CURATOR'), body: { version: contact.version } })).body,
    ).toMatchObject({
      statusCode: 400,
      message: CRM_MSG.nothingToUpdate,
    });
    expect(await bed.models.contacts.findById(contact.id).lean()).toMatchObject({
      fullName: 'Проверяемый',
      email: contact.email,
    });
  });

  it('answers 404 for a missing contact', async () => {
    const res = await call('PATCH', `/api/contacts/${new Types.ObjectId().toHexString()}`, {
      token: token('CURATOR'),
      body: { fullName: 'Никто', version: 0 },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(CRM_MSG.contactNotFound);
  });

  it('changes the fields, keeps the organization, and audits it', async () => {
    const contact = await makeContact({ phone: '+7 900 000-00-00', role: 'Стажёр' });
    const address = email();
    const res = await call('PATCH', `/api/contacts/${contact.id}`, {
      token: token('CURATOR'),
      body: {
        fullName: 'Новое Имя',
        email: address,
        phone: null,
        role: 'Менеджер по закупкам',
        orgId: 'ignored',
        version: contact.version,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: contact.id,
      orgId,
      fullName: 'Новое Имя',
      email: address,
      phone: null,
      role: 'Менеджер по закупкам',
    });
    expect(await bed.models.contacts.findById(contact.id).lean()).toMatchObject({
      fullName: 'Новое Имя',
      email: address,
      phone: null,
      role: 'Менеджер по закупкам',
    });
    expect((await auditEventsFor(bed.crm, contact.id)).map((e) => e.action)).toEqual(['create', 'update']);
  });

  it('refuses the email of another contact of the organization with 409', async () => {
    const taken = await makeContact();
    const contact = await makeContact();
    const res = await call('PATCH', `/api/contacts/${contact.id}`, {
      token: token('CURATOR'),
      body: { email: taken.email, version: contact.version },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CRM_MSG.contactEmailTaken);
    expect(await bed.models.contacts.findById(contact.id).lean()).toMatchObject({ email: contact.email });
  });

  it('refuses a write without a version with 428 and the Russian message, and changes nothing', async () => {
    const contact = await makeContact({ fullName: 'Без версии' });
    for (const headers of [{}, { 'If-Match': '*' }] as Array<Record<string, string>>) {
      const res = await call('PATCH', `/api/contacts/${contact.id}`, {
        token: token('CURATOR'),
        body: { fullName: 'Чужая правка' },
        headers,
      });
      expect(res.status).toBe(428);
      expect(res.body.message).toBe(MSG.versionRequired);
    }
    expect(await bed.models.contacts.findById(contact.id).lean()).toMatchObject({
      fullName: 'Без версии',
      version: contact.version,
    });
  });
});

describe('DELETE /api/contacts/{id}', () => {
  it('refuses 401 and 403 and keeps the contact', async () => {
    const contact = await makeContact();
    expect((await call('DELETE', `/api/contacts/${contact.id}`)).status).toBe(401);
    expect((await call('DELETE', `/api/contacts/${contact.id}`, { token: token('CLIENT') })).status).toBe(403);
    expect(await bed.models.contacts.exists({ _id: contact.id })).toBeTruthy();
  });

  it('answers 404 for a missing or malformed id', async () => {
    for (const id of [new Types.ObjectId().toHexString(), 'nope']) {
      const res = await call('DELETE', `/api/contacts/${id}`, { token: token('CURATOR') });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(CRM_MSG.contactNotFound);
    }
  });

  it('deletes one contact, leaves the others and audits it', async () => {
    const doomed = await makeContact({ fullName: 'Удаляемый' });
    const kept = await makeContact({ fullName: 'Остающийся' });
    const res = await call('DELETE', `/api/contacts/${doomed.id}`, { token: token('ADMIN') });
    expect(res.status).toBe(204);
    expect(await bed.models.contacts.exists({ _id: doomed.id })).toBeNull();
    expect(await bed.models.contacts.exists({ _id: kept.id })).toBeTruthy();
    const detail = await call('GET', `/api/organizations/${orgId}`, { token: token('CURATOR') });
    expect(detail.body.contacts.map((c: { id: string }) => c.id)).not.toContain(doomed.id);
    expect((await auditEventsFor(bed.crm, doomed.id)).map((e) => e.action)).toEqual(['create', 'delete']);
  });
});
