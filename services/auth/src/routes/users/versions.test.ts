import { MSG, type User } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userModel } from '../../models/user';
import { startAuth, userWithRole } from '../../testing';

/** Optimistic concurrency of the user directory's edits (docs/decisions/028). */
let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const patch = (token: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
  api(auth.url, 'PATCH', `/api/users/${id}`, { token, body, headers });

describe('PATCH /api/users/{id} with a version', () => {
  it('refuses an edit without a version with 428 and the Russian message, changing nothing', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT', 'Пётр Безверсионный');
    const base = { email: target.user.email, role: 'CLIENT', fullName: 'Чужая правка' };
    for (const headers of [{}, { 'If-Match': '*' }] as Array<Record<string, string>>) {
      const refused = await patch(admin.token, target.user.id, base, headers);
      expect(refused.status).toBe(428);
      expect(refused.body).toEqual({ statusCode: 428, message: MSG.versionRequired });
    }
    expect(await userModel(auth.ctx.store).findById(target.user.id).lean()).toMatchObject({
      fullName: 'Пётр Безверсионный',
      version: 0,
    });
  });

  it('answers a stale version with 412 and the Russian message, changing nothing', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT', 'Пётр Исходный');
    const read = await api<User>(auth.url, 'GET', `/api/users/${target.user.id}`, { token: admin.token });
    expect(read.body.version).toBe(0);
    const base = { email: target.user.email, role: 'CLIENT' };
    expect((await patch(admin.token, target.user.id, { ...base, fullName: 'Пётр Первый', version: 0 })).body.version).toBe(1);
    const stale = await patch(admin.token, target.user.id, { ...base, fullName: 'Пётр Второй' }, { 'If-Match': '"0"' });
    expect(stale.body).toEqual({ statusCode: 412, message: MSG.staleDocument });
    expect(await userModel(auth.ctx.store).findById(target.user.id).lean()).toMatchObject({
      fullName: 'Пётр Первый',
      version: 1,
    });
  });

  it('of ten parallel edits from the same version, exactly one wins', async () => {
    const admin = await userWithRole(auth, 'ADMIN');
    const target = await userWithRole(auth, 'CLIENT');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        patch(admin.token, target.user.id, { email: target.user.email, role: 'CLIENT', fullName: `Имя ${i}`, version: 0 }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(412)]);
  });
});
