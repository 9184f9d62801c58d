import { MSG, PAGING_MSG, type Department, type Page, type User } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userModel } from '../../models/user';
import { startAuth, uniqueEmail, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
let curator: string;
beforeAll(async () => {
  auth = await startAuth();
  curator = (await userWithRole(auth, 'CURATOR')).token;
});
afterAll(() => auth.close());

/** Stores a person of a department straight in the store (as the staff import would). */
const storePerson = (fullName: string, role: User['role'], department?: string) =>
  userModel(auth.ctx.store).create({ email: uniqueEmail('dept'), fullName, role, department, passwordHash: 'not-a-real-hash' });

describe('GET /api/users/departments: the departments an assignment is given to', () => {
  it('lists each department people are in once, by name, paged, and finds one by a part of its name', async () => {
    const tag = `Цех${Date.now().toString(36)}`;
    await storePerson('Анна Белова', 'CLIENT', `${tag} сборки`);
    await storePerson('Борис Волков', 'CLIENT', `${tag} сборки`);
    await storePerson('Вера Гусева', 'CANDIDATE', `${tag} покраски`);
    await storePerson('Глеб Дроздов', 'CLIENT');

    const found = await api<Page<Department>>(
      auth.url,
      'GET',
      `/api/users/departments?search=${encodeURIComponent(tag.toLowerCase())}`,
      {
        token: curator,
      },
    );
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ total: 2, page: 1, limit: 50 });
    expect(found.body.data).toEqual([{ name: `${tag} покраски` }, { name: `${tag} сборки` }]);

    const second = await api<Page<Department>>(auth.url, 'GET', `/api/users/departments?search=${tag}&limit=1&page=2`, {
      token: curator,
    });
    expect(second.body.data).toEqual([{ name: `${tag} сборки` }]);
  });

  it('is refused without a token, to a learner, and with a bad page, in Russian', async () => {
    expect((await api(auth.url, 'GET', '/api/users/departments')).status).toBe(401);
    const learner = (await userWithRole(auth, 'CLIENT')).token;
    const denied = await api(auth.url, 'GET', '/api/users/departments', { token: learner });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ message: MSG.forbidden });
    const bad = await api(auth.url, 'GET', '/api/users/departments?page=0', { token: curator });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: PAGING_MSG.pageInvalid });
  });
});

describe('GET /api/users for the assignment’s people picker', () => {
  it('finds people by their department, and only learners when asked for the assignment’s audience', async () => {
    const tag = `Склад${Date.now().toString(36)}`;
    const learner = await storePerson('Дарья Ершова', 'CLIENT', `${tag} №2`);
    await storePerson('Евгений Жуков', 'CURATOR', `${tag} №2`);

    const everyone = await api<Page<User>>(auth.url, 'GET', `/api/users?search=${encodeURIComponent(tag)}`, { token: curator });
    expect(everyone.body.data.map((u) => u.fullName).sort()).toEqual(['Дарья Ершова', 'Евгений Жуков']);

    const learners = await api<Page<User>>(auth.url, 'GET', `/api/users?search=${encodeURIComponent(tag)}&audience=learners`, {
      token: curator,
    });
    expect(learners.body.data.map((u) => u.id)).toEqual([String(learner._id)]);
    expect(learners.body.total).toBe(1);
  });
});
