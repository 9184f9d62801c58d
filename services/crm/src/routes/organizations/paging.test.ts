import { LIST_TOTAL_CAP, MAX_PAGE_SIZE, PAGING_MSG, type OrganizationListItem, type Page } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { startCrm, type CrmTestBed } from '../../testing';

let bed: CrmTestBed;
beforeAll(async () => {
  bed = await startCrm();
});
afterAll(() => bed.close());

let counter = 0;
const list = (query: string) =>
  api<Page<OrganizationListItem>>(bed.crm.url, 'GET', `/api/organizations?${query}`, { token: bed.as.MANAGER.token });

/** Stores `count` organizations named `tag …`, all made in the same millisecond, each with `contacts` contacts. */
async function storeOrgs(tag: string, count: number, contacts = 0): Promise<string[]> {
  const createdAt = new Date();
  const orgs = Array.from({ length: count }, (_, i) => ({
    _id: new Types.ObjectId(),
    name: `${tag} ${i}`,
    inn: `99${Date.now().toString().slice(-7)}${String(counter++).padStart(4, '0')}`,
    status: i % 3 === 0 ? 'PENDING' : 'ACTIVE',
    site: null,
    createdAt,
    updatedAt: createdAt,
  }));
  await bed.models.organizations.collection.insertMany(orgs);
  const people = orgs.flatMap((o) =>
    Array.from({ length: contacts }, (_, j) => ({ orgId: o._id, fullName: `Сотрудник ${j}`, email: `p${j}@${o.inn}.test` })),
  );
  if (people.length) await bed.models.contacts.insertMany(people);
  return orgs.map((o) => String(o._id));
}

describe('GET /api/organizations in pages', () => {
  it('answers 24 by default and up to 100, refusing more with 400 in Russian', async () => {
    const tag = `Пределы-${Date.now()}`;
    await storeOrgs(tag, MAX_PAGE_SIZE + 2);

    const first = await list(`search=${encodeURIComponent(tag)}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, limit: 24, total: MAX_PAGE_SIZE + 2 });
    expect(first.body.data).toHaveLength(24);
    const max = await list(`search=${encodeURIComponent(tag)}&limit=${MAX_PAGE_SIZE}`);
    expect(max.body.data).toHaveLength(MAX_PAGE_SIZE);

    const refused = await list(`limit=${MAX_PAGE_SIZE + 1}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: PAGING_MSG.limitInvalid.replace('{max}', String(MAX_PAGE_SIZE)),
      statusCode: 400,
      field: 'limit',
    });
    expect((await list('page=0')).body).toMatchObject({ message: PAGING_MSG.pageInvalid, statusCode: 400 });
  });

  it('pages through organizations made in the same millisecond without losing or repeating one', async () => {
    const tag = `Порядок-${Date.now()}`;
    const stored = await storeOrgs(tag, 17);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const answer = await list(`search=${encodeURIComponent(tag)}&limit=5&page=${page}`);
      expect(answer.body.total).toBe(17);
      seen.push(...answer.body.data.map((o) => o.id));
    }
    expect(seen).toEqual([...stored].sort().reverse());

    // The same under the status filter: PENDING are every third.
    const pending = await list(`search=${encodeURIComponent(tag)}&status=PENDING&limit=100`);
    expect(pending.body.total).toBe(6);
    expect(pending.body.data.map((o) => o.id)).toEqual(stored.filter((_, i) => i % 3 === 0).reverse());
  });

  it('reads the same few times for 2 organizations and for 100 with their contact counts', async () => {
    const few = `Мало-${Date.now()}`;
    const many = `Много-${Date.now()}`;
    await storeOrgs(few, 2, 1);
    await storeOrgs(many, 100, 3);
    await list(`search=${encodeURIComponent(few)}`); // the person is cached after this

    const fewOps = await storeOperationsDuring(bed.crm, () => list(`search=${encodeURIComponent(few)}&limit=100`));
    let answer: Awaited<ReturnType<typeof list>> | undefined;
    const manyOps = await storeOperationsDuring(bed.crm, async () => {
      answer = await list(`search=${encodeURIComponent(many)}&limit=100`);
    });
    expect(answer?.body.data).toHaveLength(100);
    expect(answer?.body.data.every((o) => o._count.contacts === 3)).toBe(true);
    expect(manyOps).toEqual(fewOps);
    // The page, its count and the contacts' counts (the list's version is read from Redis).
    expect(fewOps.length).toBeLessThanOrEqual(3);
  });

  it('answers a page asked again without asking the store (the list’s version is read from Redis), until an organization or a contact is written', async () => {
    const tag = `Повтор-${Date.now()}`;
    const [orgId] = await storeOrgs(tag, 3, 1);
    const query = `search=${encodeURIComponent(tag)}`;
    const first = await list(query);
    expect(first.body.total).toBe(3);

    let again: Awaited<ReturnType<typeof list>> | undefined;
    const againOps = await storeOperationsDuring(bed.crm, async () => {
      again = await list(query);
    });
    expect(again?.body).toEqual(first.body);
    expect(againOps).toEqual([]);

    // A contact added through the API shows in the count at once.
    const added = await api(bed.crm.url, 'POST', '/api/contacts', {
      token: bed.as.MANAGER.token,
      body: { orgId, fullName: 'Иван Петров', email: `ivan-${Date.now()}@example.ru` },
    });
    expect(added.status).toBe(201);
    const counted = (await list(query)).body.data.find((o) => o.id === orgId);
    expect(counted?._count.contacts).toBe(2);

    // So does an organization renamed through the API.
    const detail = await api<{ version: number }>(bed.crm.url, 'GET', `/api/organizations/${orgId}`, {
      token: bed.as.MANAGER.token,
    });
    const renamed = await api(bed.crm.url, 'PATCH', `/api/organizations/${orgId}`, {
      token: bed.as.MANAGER.token,
      body: { name: `${tag} переименована`, version: detail.body.version },
    });
    expect(renamed.status).toBe(200);
    expect((await list(query)).body.data.map((o) => o.name)).toContain(`${tag} переименована`);
  });

  it('counts no further than 10 000 organizations, says so, and counts a narrower search exactly', async () => {
    const tag = `Предел-${Date.now()}`;
    for (let stored = 0; stored <= LIST_TOTAL_CAP; stored += 2_000) await storeOrgs(tag, 2_000);
    const ops = await storeOperationsDuring(bed.crm, async () => {
      const many = await list(`search=${encodeURIComponent(tag)}`);
      expect(many.body).toMatchObject({ total: LIST_TOTAL_CAP, totalExact: false });
      expect(many.body.data).toHaveLength(24);
    });
    expect(ops.filter((op) => op === 'organizations.countDocuments')).toHaveLength(1);
    const one = await list(`search=${encodeURIComponent(`${tag} 1999`)}`);
    expect(one.body.total).toBe(6); // «… 1999» in each of the six batches
    expect(one.body).not.toHaveProperty('totalExact');
  }, 120_000);
});
