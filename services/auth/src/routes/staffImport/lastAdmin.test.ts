import { MSG, STAFF_IMPORT_COLUMNS, type AuthResponse, type ImportBatchResult, type ImportPreview } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { op } from '@portal/service-kit';
import { writeBatch } from '../../commands/staffImport';
import { userModel } from '../../models/user';
import { startAuth, userWithRole } from '../../testing';

/** The staff import keeps an administrator, as an edit of a user does, whatever the file says. */
let auth: Awaited<ReturnType<typeof startAuth>>;
let admin: AuthResponse;
let other: AuthResponse;
beforeAll(async () => {
  auth = await startAuth();
  await userModel(auth.ctx.store).deleteMany({ role: 'ADMIN' });
  [admin, other] = await Promise.all([
    userWithRole(auth, 'ADMIN', 'Админова Анна'),
    userWithRole(auth, 'ADMIN', 'Главный Борис'),
  ]);
});
afterAll(() => auth.close());

const csv = (rows: string[][]) =>
  Buffer.from(`\uFEFF${[[...STAFF_IMPORT_COLUMNS], ...rows].map((r) => r.join(';')).join('\r\n')}`).toString('base64');

it('refuses, by name, the row that would take the role of the last administrator, and applies the others', async () => {
  // The file makes both administrators curators: the first row may, the second would leave none.
  const content = csv([
    ['Главный Борис', other.user.email, '', '', 'Куратор'],
    ['Админова Анна', admin.user.email, '', '', 'Куратор'],
  ]);
  const preview = await api<ImportPreview>(auth.url, 'POST', '/api/staff-import', {
    token: admin.token,
    body: { fileName: 'staff.csv', content },
  });
  expect(preview.status).toBe(201);
  expect(preview.body.counts).toEqual({ new: 0, update: 1, same: 0, error: 1 });
  expect(preview.body.rows.map(({ email, outcome, reason }) => ({ email, outcome, reason }))).toEqual([
    { email: other.user.email, outcome: 'update', reason: undefined },
    { email: admin.user.email, outcome: 'error', reason: MSG.lastAdmin },
  ]);

  const run = await api<ImportBatchResult>(auth.url, 'POST', `/api/staff-import/${preview.body.id}/batch`, {
    token: admin.token,
    body: { from: 0 },
  });
  expect(run.status).toBe(200);
  expect(run.body.counts).toMatchObject({ update: 1 });
  const roles = await userModel(auth.ctx.store)
    .find({ email: op({ $in: [admin.user.email, other.user.email] }) }, { email: 1, role: 1 })
    .lean();
  expect(Object.fromEntries(roles.map((u) => [u.email, u.role]))).toEqual({
    [admin.user.email]: 'ADMIN',
    [other.user.email]: 'CURATOR',
  });
});

it('checks again when it writes: a row previewed while two administrators existed is refused once only one is left', async () => {
  // After the first run only «Админова Анна» is an administrator; a batch previewed before, by the other, would demote her.
  const users = userModel(auth.ctx.store);
  const row = {
    row: 2,
    fullName: 'Админова Анна',
    email: admin.user.email,
    department: '',
    position: '',
    role: 'CURATOR' as const,
  };
  const deps = { users, issueLinks: async () => [], mail: null, changed: async () => undefined };
  const result = await writeBatch(deps, [{ ...row, outcome: 'update' }], { id: other.user.id, role: 'ADMIN' });
  expect(result.counts).toMatchObject({ update: 0, error: 1 });
  expect(await users.findById(admin.user.id).lean()).toMatchObject({ role: 'ADMIN' });
});
