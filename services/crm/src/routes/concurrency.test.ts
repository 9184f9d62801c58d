import { MSG, type Contact, type Organization, type OrganizationDetail } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { startCrm, uniqueInn, type CrmTestBed } from '../testing';

/** Optimistic concurrency of organizations and contacts (docs/decisions/028). */
let bed: CrmTestBed;
beforeAll(async () => {
  bed = await startCrm();
});
afterAll(() => bed.close());

const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  api<T>(bed.crm.url, method, path, { token: bed.as.MANAGER.token, body, headers });
let n = 0;
const newOrg = async () =>
  (await call<Organization>('POST', '/api/organizations', { name: 'ООО Версия', inn: uniqueInn() })).body;
const newContact = async (orgId: string) =>
  (await call<Contact>('POST', '/api/contacts', { orgId, fullName: 'Анна Версия', email: `v.${Date.now()}.${n++}@example.test` }))
    .body;

describe('an organization', () => {
  it('sends its version as a strong ETag; a stale If-Match is 412 with the Russian message and changes nothing', async () => {
    const org = await newOrg();
    const read = await call<OrganizationDetail>('GET', `/api/organizations/${org.id}`);
    expect(read.headers.get('etag')).toBe('"0"');
    expect(read.body.version).toBe(0);
    expect(
      (await call('PATCH', `/api/organizations/${org.id}`, { name: 'ООО Первый' }, { 'If-Match': '"0"' })).body.version,
    ).toBe(1);
    const stale = await call(
      'PATCH',
      `/api/organizations/${org.id}`,
      { name: 'ООО Второй', status: 'INACTIVE' },
      { 'If-Match': '"0"' },
    );
    expect(stale.body).toEqual({ statusCode: 412, message: MSG.staleDocument });
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({
      name: 'ООО Первый',
      status: org.status,
      version: 1,
    });
  });

  it('answers a stale version with 412 before a taken inn could answer 409', async () => {
    const [a, b] = [await newOrg(), await newOrg()];
    await call('PATCH', `/api/organizations/${a.id}`, { name: 'ООО Сдвиг', version: 0 });
    expect((await call('PATCH', `/api/organizations/${a.id}`, { inn: b.inn, version: 0 })).status).toBe(412);
  });

  it('of ten parallel writers from the same version, exactly one wins', async () => {
    const org = await newOrg();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('PATCH', `/api/organizations/${org.id}`, { name: `ООО Писатель ${i}`, version: 0 }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(412)]);
    const winner = answers.find((a) => a.status === 200)?.body.name;
    expect(await bed.models.organizations.findById(org.id).lean()).toMatchObject({ name: winner, version: 1 });
  });
});

describe('a contact', () => {
  it('carries a version; a stale one in the body is 412 and changes nothing', async () => {
    const org = await newOrg();
    const contact = await newContact(org.id);
    expect(contact.version).toBe(0);
    expect((await call('PATCH', `/api/contacts/${contact.id}`, { phone: '+7 900 000-00-01', version: 0 })).body.version).toBe(1);
    const stale = await call('PATCH', `/api/contacts/${contact.id}`, { phone: '+7 900 000-00-02', version: 0 });
    expect(stale.body).toEqual({ statusCode: 412, message: MSG.staleDocument });
    const detail = await call<OrganizationDetail>('GET', `/api/organizations/${org.id}`);
    expect(detail.body.contacts[0]).toMatchObject({ phone: '+7 900 000-00-01', version: 1 });
  });

  it('of ten parallel writers from the same version, exactly one wins', async () => {
    const org = await newOrg();
    const contact = await newContact(org.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('PATCH', `/api/contacts/${contact.id}`, { role: `Должность ${i}`, version: 0 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(412)]);
  });
});
