import { IMPORT_MSG, MSG, STAFF_IMPORT_COLUMNS, formatMessage, type ImportPreview } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { startPortal, type Portal } from './portal';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
}, 60_000);
afterAll(() => portal?.close());

const csv = (rows: string[][]) =>
  Buffer.from(`\uFEFF${[[...STAFF_IMPORT_COLUMNS], ...rows].map((r) => r.join(';')).join('\r\n')}`).toString('base64');

// the staff import is a second door to the accounts PATCH /api/users/{id} guards.
describe('ownership: a curator’s staff import changes no account the directory’s edit would refuse them', () => {
  it('refuses, row by row in Russian, another curator’s account, a learner’s department and a new curator; nothing changes', async () => {
    const gateway = portal.gateway.url;
    const token = portal.as.CURATOR.token;
    const peer = await userWithRole(portal.auth, 'CURATOR', 'Коллега Кураторова');
    const learner = portal.victim.user;
    const newCurator = `imported.${Date.now().toString(36)}@example.test`;
    const users = portal.auth.ctx.store.collection('users');
    const snapshot = () =>
      users
        .find({ email: { $in: [peer.user.email, learner.email, newCurator] } })
        .sort({ email: 1 })
        .toArray();
    const before = await snapshot();

    const shown = await api<ImportPreview>(gateway, 'POST', '/api/staff-import', {
      token,
      body: {
        fileName: 'взлом.csv',
        content: csv([
          ['Взломанный Куратор', peer.user.email, 'Отдел взлома', '', 'Куратор'],
          [learner.fullName, learner.email, 'Отдел взлома', '', 'Кандидат'],
          ['Новый Куратор', newCurator, '', '', 'Куратор'],
        ]),
      },
    });
    expect(shown.status).toBe(201);
    expect(shown.body.rows.map((r) => [r.outcome, r.reason])).toEqual([
      ['error', MSG.userEditPeer],
      ['error', MSG.userDepartmentAdminOnly],
      ['error', formatMessage(IMPORT_MSG.staffAccountAdminOnly, { role: 'Куратор' })],
    ]);
    const run = await api(gateway, 'POST', `/api/staff-import/${shown.body.id}/batch`, { token, body: { from: 0 } });
    expect(run.status).toBe(200);
    expect(run.body.counts).toMatchObject({ new: 0, update: 0 });
    expect(await snapshot()).toEqual(before);
  });
});
