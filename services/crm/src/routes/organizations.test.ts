import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { crmRouters } from '../app';
import { organizationModel } from '../models/organization';

let auth: Awaited<ReturnType<typeof startAuth>>;
let crm: TestService;
beforeAll(async () => {
  auth = await startAuth();
  crm = await startTestService('crm', crmRouters, { env: { AUTH_URL: auth.url } });
});
afterAll(async () => {
  await crm.close();
  await auth.close();
});

describe('GET /api/organizations', () => {
  it('refuses anonymous callers with 401 and learners with 403', async () => {
    expect((await api(crm.url, 'GET', '/api/organizations')).status).toBe(401);
    const candidate = await userWithRole(auth, 'CANDIDATE');
    const refused = await api(crm.url, 'GET', '/api/organizations', { token: candidate.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Недостаточно прав для этого действия');
  });

  it('lists organizations for a curator and searches name or inn case-insensitively', async () => {
    await organizationModel(crm.ctx.store).create([
      { name: 'ООО Ромашка', inn: '7701000001' },
      { name: 'АО Василёк', inn: '7702000002' },
    ]);
    const curator = await userWithRole(auth, 'CURATOR');
    const all = await api(crm.url, 'GET', '/api/organizations', { token: curator.token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((o: { name: string }) => o.name).sort()).toEqual(['АО Василёк', 'ООО Ромашка']);
    const byName = await api(crm.url, 'GET', '/api/organizations?search=ромаш', { token: curator.token });
    expect(byName.body.data.map((o: { inn: string }) => o.inn)).toEqual(['7701000001']);
    const byInn = await api(crm.url, 'GET', '/api/organizations?search=7702', { token: curator.token });
    expect(byInn.body.data.map((o: { name: string }) => o.name)).toEqual(['АО Василёк']);
  });
});
