import { api } from '@portal/devstack/testing';
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
});
