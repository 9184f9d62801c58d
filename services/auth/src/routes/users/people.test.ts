import { MSG } from '@portal/contracts';
import { createLogger } from '@portal/service-kit';
import { api } from '@portal/devstack/testing';
import { migrateNameParts } from '../../commands/people';
import { userModel } from '../../models/user';
import { DEFAULT_PRESETS } from '../../presets';
import { patchUser, startAuth, uniqueEmail, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const patch = (token: string, id: string, body: Record<string, unknown>) => patchUser(auth, token, id, body);

describe('name parts, department and position', () => {
  it('an admin sets the parts, department and position; the full name is built surname first and the greeting name is the first name', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT', 'Иван Иванов');
    const answer = await patch(admin.token, target.user.id, {
      lastName: 'Иванов',
      firstName: 'Иван',
      middleName: 'Иванович',
      department: 'Отдел продаж',
      position: 'Менеджер',
      email: target.user.email,
      role: 'CLIENT',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      fullName: 'Иванов Иван Иванович',
      firstName: 'Иван',
      department: 'Отдел продаж',
      position: 'Менеджер',
    });
    const profile = await api(auth.url, 'GET', '/api/auth/profile', { token: target.token });
    expect(profile.body.user).toMatchObject({ firstName: 'Иван', department: 'Отдел продаж' });
  });

  it('a curator renames a learner but cannot move them to another department (403, nothing changes)', async () => {
    const curator = await userWithRole(auth, 'CURATOR');
    const target = await userWithRole(auth, 'CANDIDATE', 'Петров Пётр');
    const moved = await patch(curator.token, target.user.id, {
      fullName: 'Петров Пётр',
      department: 'Бухгалтерия',
      email: target.user.email,
      role: 'CANDIDATE',
    });
    expect(moved.status).toBe(403);
    expect(moved.body.message).toBe(MSG.userDepartmentAdminOnly);
    expect(await userModel(auth.ctx.store).findById(target.user.id).lean()).toMatchObject({ department: '' });
    const renamed = await patch(curator.token, target.user.id, {
      fullName: 'Петров Пётр Петрович',
      email: target.user.email,
      role: 'CANDIDATE',
    });
    expect(renamed.body).toMatchObject({ lastName: 'Петров', firstName: 'Пётр', middleName: 'Петрович' });
  });

  it('refuses a body with neither a full name nor a first or last name', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT');
    const answer = await patch(admin.token, target.user.id, {
      firstName: '',
      lastName: '',
      email: target.user.email,
      role: 'CLIENT',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(MSG.fillRequired);
  });

  it('the directory filters by department and by position', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const department = `Цех ${Date.now().toString(36)}`;
    for (const [name, position] of [
      ['Сидоров Сидор', 'Мастер'],
      ['Кузнецов Кузьма', 'Слесарь'],
      ['Попов Павел', 'Слесарь'],
    ]) {
      const person = await userWithRole(auth, 'CLIENT', name);
      await patch(admin.token, person.user.id, {
        fullName: name,
        department,
        position,
        email: person.user.email,
        role: 'CLIENT',
      });
    }
    const list = async (query: string) =>
      (await api(auth.url, 'GET', `/api/users?${query}`, { token: admin.token })).body as {
        total: number;
        data: Array<{ fullName: string }>;
      };
    expect((await list(`department=${encodeURIComponent(department)}`)).total).toBe(3);
    const fitters = await list(`department=${encodeURIComponent(department)}&position=${encodeURIComponent('Слесарь')}`);
    expect(fitters.data.map((u) => u.fullName).sort()).toEqual(['Кузнецов Кузьма', 'Попов Павел']);
  });
});

describe('the start-up migration', () => {
  it('gives accounts from before the parts from their full name (presets from their definition), once', async () => {
    const users = userModel(auth.ctx.store);
    const old = uniqueEmail('old');
    await users.collection.insertMany([
      {
        email: old,
        fullName: 'Иванов Иван Иванович',
        role: 'CLIENT',
        passwordHash: 'x',
        createdAt: new Date(),
        updatedAt: new Date(),
      },
      {
        email: 'admin@portal.local',
        fullName: 'Анна Смирнова',
        role: 'ADMIN',
        passwordHash: 'x',
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    ]);
    const logger = createLogger('test', 'silent');
    expect(await migrateNameParts(users, DEFAULT_PRESETS, logger, 1)).toBeGreaterThanOrEqual(2);
    expect(await users.findOne({ email: old }).lean()).toMatchObject({
      lastName: 'Иванов',
      firstName: 'Иван',
      middleName: 'Иванович',
    });
    expect(await users.findOne({ email: 'admin@portal.local' }).lean()).toMatchObject({
      lastName: 'Смирнова',
      firstName: 'Анна',
    });
    expect(await migrateNameParts(users, DEFAULT_PRESETS, logger)).toBe(0);
  });
});
