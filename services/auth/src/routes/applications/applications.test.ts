import { MSG, type AuditEvent, type AuthResponse } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { applicationModel } from '../../models/application';
import { userModel } from '../../models/user';
import { startAuth, uniqueEmail, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const registerCurator = async (fullName = 'Кира Кураторова') => {
  const answer = await api<AuthResponse>(auth.url, 'POST', '/api/auth/register', {
    body: { email: uniqueEmail('apply'), password: 'Kursy-Portal-42', fullName, role: 'CURATOR' },
  });
  expect(answer.status).toBe(201);
  return answer.body;
};

const auditOf = async (entityId: string): Promise<AuditEvent[]> => {
  await auth.ctx.audit.flush();
  const jobs = await auth.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs
    .map((j) => j.data as AuditEvent)
    .filter((e) => e.entityId === entityId)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
};

describe('self-registration as CURATOR', () => {
  it('makes a CANDIDATE with a pending application, says so, and audits the application', async () => {
    const registered = await registerCurator();
    expect(registered.user.role).toBe('CANDIDATE');
    expect(registered.message).toBe(
      'Регистрация прошла успешно. Заявка на роль «Куратор» отправлена администратору; пока она рассматривается, вы можете учиться как кандидат',
    );
    expect(registered.application).toMatchObject({ role: 'CURATOR', status: 'pending', user: { id: registered.user.id } });
    expect(await userModel(auth.ctx.store).findById(registered.user.id).lean()).toMatchObject({ role: 'CANDIDATE' });
    // Candidate rights only: the directory stays closed.
    expect((await api(auth.url, 'GET', '/api/users', { token: registered.token })).status).toBe(403);
    const profile = await api(auth.url, 'GET', '/api/auth/profile', { token: registered.token });
    expect(profile.body).toMatchObject({ user: { role: 'CANDIDATE' }, application: { status: 'pending', role: 'CURATOR' } });
    const events = await auditOf(registered.application!.id);
    expect(events.map((e) => [e.action, e.entity])).toEqual([['create', 'application']]);
  });

  it('files nothing for a learner registration: the profile has no application', async () => {
    const answer = await api<AuthResponse>(auth.url, 'POST', '/api/auth/register', {
      body: { email: uniqueEmail('client'), password: 'Kursy-Portal-42', fullName: 'Клара', role: 'CLIENT' },
    });
    expect(answer.body).toMatchObject({ user: { role: 'CLIENT' }, message: MSG.registerOk, application: null });
    const profile = await api(auth.url, 'GET', '/api/auth/profile', { token: answer.body.token });
    expect(profile.body.application).toBeNull();
  });
});

describe('/api/applications', () => {
  it('is for an ADMIN only: 401 without a token, 403 for every other role', async () => {
    const pending = await registerCurator();
    expect((await api(auth.url, 'GET', '/api/applications')).status).toBe(401);
    for (const role of ['MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'] as const) {
      const { token } = await userWithRole(auth, role);
      expect((await api(auth.url, 'GET', '/api/applications', { token })).status).toBe(403);
      const approve = await api(auth.url, 'POST', `/api/applications/${pending.application!.id}/approve`, { token });
      expect(approve.status).toBe(403);
    }
    expect(await applicationModel(auth.ctx.store).findById(pending.application!.id).lean()).toMatchObject({ status: 'pending' });
    expect(await userModel(auth.ctx.store).findById(pending.user.id).lean()).toMatchObject({ role: 'CANDIDATE' });
  });

  it('lists pending applications oldest first with who filed them, paged, and refuses a bad status', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const first = await registerCurator('Первая Заявка');
    const second = await registerCurator('Вторая Заявка');
    const all = await api(auth.url, 'GET', '/api/applications?limit=100', { token: admin.token });
    expect(all.status).toBe(200);
    const ids = all.body.data.map((a: { id: string }) => a.id);
    expect(ids.indexOf(first.application!.id)).toBeLessThan(ids.indexOf(second.application!.id));
    expect(all.body.data.find((a: { id: string }) => a.id === second.application!.id)).toMatchObject({
      status: 'pending',
      user: { id: second.user.id, fullName: 'Вторая Заявка', email: second.user.email },
    });
    const paged = await api(auth.url, 'GET', '/api/applications?limit=1&page=2', { token: admin.token });
    expect(paged.body).toMatchObject({ page: 2, limit: 1, total: all.body.total });
    expect(paged.body.data).toHaveLength(1);
    const bad = await api(auth.url, 'GET', '/api/applications?status=maybe', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[а-я]/i);
  });

  it('approval gives the role at once (the next request has curator rights), is audited, and cannot be decided twice', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const applicant = await registerCurator();
    const id = applicant.application!.id;
    const approved = await api(auth.url, 'POST', `/api/applications/${id}/approve`, { token: admin.token });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      application: { status: 'approved', role: 'CURATOR' },
      user: { id: applicant.user.id, role: 'CURATOR' },
      message: 'Заявка одобрена: роль «Куратор» назначена',
    });
    // The token the applicant already holds now carries curator rights.
    expect((await api(auth.url, 'GET', '/api/users', { token: applicant.token })).status).toBe(200);
    const profile = await api(auth.url, 'GET', '/api/auth/profile', { token: applicant.token });
    expect(profile.body).toMatchObject({ user: { role: 'CURATOR' }, application: { status: 'approved' } });
    const again = await api(auth.url, 'POST', `/api/applications/${id}/decline`, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MSG.applicationDecided);
    expect(await userModel(auth.ctx.store).findById(applicant.user.id).lean()).toMatchObject({ role: 'CURATOR' });
    const pending = await api(auth.url, 'GET', '/api/applications?limit=100', { token: admin.token });
    expect(pending.body.data.map((a: { id: string }) => a.id)).not.toContain(id);
    const events = await auditOf(id);
    expect(events.map((e) => [e.action, e.entity, e.actor?.id])).toEqual([
      ['create', 'application', applicant.user.id],
      ['update', 'application', admin.user.id],
    ]);
  });

  it('declining keeps the CANDIDATE role, is audited, and is listed under declined', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const applicant = await registerCurator();
    const id = applicant.application!.id;
    const declined = await api(auth.url, 'POST', `/api/applications/${id}/decline`, { token: admin.token });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ application: { status: 'declined' }, user: { role: 'CANDIDATE' } });
    expect((await api(auth.url, 'GET', '/api/users', { token: applicant.token })).status).toBe(403);
    const listed = await api(auth.url, 'GET', '/api/applications?status=declined&limit=100', { token: admin.token });
    expect(listed.body.data.map((a: { id: string }) => a.id)).toContain(id);
    expect((await auditOf(id)).map((e) => e.action)).toEqual(['create', 'update']);
  });

  it('answers 404 in Russian for an unknown or malformed application id', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    for (const id of ['64b7f0c2a1b2c3d4e5f60718', 'not-an-id']) {
      const answer = await api(auth.url, 'POST', `/api/applications/${id}/approve`, { token: admin.token });
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(MSG.applicationNotFound);
    }
  });
});
