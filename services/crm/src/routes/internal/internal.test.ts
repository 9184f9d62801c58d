import { LIST_TOTAL_CAP } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { startCrm, uniqueInn, type CrmTestBed } from '../../testing';

let bed: CrmTestBed;
beforeAll(async () => {
  bed = await startCrm();
});
afterAll(() => bed.close());

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

describe('GET /internal/stats', () => {
  it('is refused without the internal token, even to an administrator', async () => {
    expect((await api(bed.crm.url, 'GET', '/internal/stats')).status).toBe(403);
    expect((await api(bed.crm.url, 'GET', '/internal/stats', { token: bed.as.ADMIN.token })).status).toBe(403);
    expect(
      (await api(bed.crm.url, 'GET', '/internal/stats', { headers: { 'x-internal-token': 'wrong-token-of-some-length' } }))
        .status,
    ).toBe(403);
  });

  it('counts organizations and contacts, created in the last 30 days against the 30 before', async () => {
    // Written around mongoose so createdAt can lie in the past.
    const orgs = [1, 2, 10, 40, 45, 90].map((days) => ({
      name: `Орг ${days}`,
      inn: uniqueInn(),
      status: 'ACTIVE',
      site: null,
      createdAt: daysAgo(days),
      updatedAt: daysAgo(days),
    }));
    const { insertedIds } = await bed.models.organizations.collection.insertMany(orgs);
    const orgId = insertedIds[0];
    const contacts = [3, 31, 59, 61].map((days, i) => ({
      orgId,
      fullName: `Контакт ${i}`,
      email: `c${i}@stats.test`,
      createdAt: daysAgo(days),
      updatedAt: daysAgo(days),
    }));
    await bed.models.contacts.collection.insertMany(contacts);

    const res = await api(bed.crm.url, 'GET', '/internal/stats', {
      headers: { 'x-internal-token': bed.crm.ctx.config.INTERNAL_TOKEN },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organizations: 6,
      contacts: 4,
      change: { organizations: { last30: 3, prev30: 2 }, contacts: { last30: 1, prev30: 2 } },
    });
  });

  it('counts no further than 10 000 organizations and names the figure a lower bound, the change too', async () => {
    const before = await api(bed.crm.url, 'GET', '/internal/stats', {
      headers: { 'x-internal-token': bed.crm.ctx.config.INTERNAL_TOKEN },
    });
    const now = new Date();
    for (let stored = before.body.organizations; stored <= LIST_TOTAL_CAP; stored += 2_000)
      await bed.models.organizations.collection.insertMany(
        Array.from({ length: 2_000 }, (_, i) => ({
          name: `Много ${i}`,
          inn: String(9_000_000_000 + stored + i), // unique in this file's database
          status: 'ACTIVE',
          site: null,
          createdAt: now,
          updatedAt: now,
        })),
      );

    let res: Awaited<ReturnType<typeof api>> | undefined;
    const ops = await storeOperationsDuring(bed.crm, async () => {
      res = await api(bed.crm.url, 'GET', '/internal/stats', {
        headers: { 'x-internal-token': bed.crm.ctx.config.INTERNAL_TOKEN },
      });
    });
    expect(res?.status).toBe(200);
    expect(res?.body).toEqual({
      organizations: LIST_TOTAL_CAP,
      contacts: 4,
      change: { organizations: { last30: LIST_TOTAL_CAP, prev30: 2, exact: false }, contacts: { last30: 1, prev30: 2 } },
      lowerBounds: ['organizations'],
    });
    // Three counts a figure (all, last 30 days, the 30 before), each stopping at the cap.
    expect(ops.sort()).toEqual([...Array(3).fill('contacts.countDocuments'), ...Array(3).fill('organizations.countDocuments')]);
  }, 120_000);
});
