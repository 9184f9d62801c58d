import {
  DIRECTORY_MSG,
  type AuthResponse,
  type DirectoryConfig,
  type DirectoryPersonOutcome,
  type DirectoryRun,
  type Page,
} from '@portal/contracts';
import {
  LDAP_DEPARTMENTS,
  LDAP_MAX_PAGE,
  LDAP_SUFFIX,
  ldifLine,
  seedDirectory,
  seededPerson,
  startLdap,
  type LdapServer,
} from '@portal/devstack/ldap';
import { api, publishedAuditEvents } from '@portal/devstack/testing';
import { DAY_MS, clock, op } from '@portal/service-kit';
import { userModel } from '../../models/user';
import { hashPassword } from '../../passwords';
import { startDirectorySync } from '../../directory/runs';
import { ldapEnv, runSync, startAuth, userWithRole } from '../../testing';

/**
 * The directory sync against a real OpenLDAP (Debian's slapd) seeded with 1,200 people in 6
 * departments, whose server pages at most 1,000 entries as AD does.
 */
const PEOPLE = 1200;
// A run reads and writes 1,200 people: seconds alone, more beside other test files on two cores.
jest.setTimeout(120_000);
let ldap: LdapServer;
let auth: Awaited<ReturnType<typeof startAuth>>;
let stopSync: () => Promise<void>;
let admin: AuthResponse;

beforeAll(async () => {
  ldap = await startLdap();
  await seedDirectory(ldap, PEOPLE);
  auth = await startAuth(ldapEnv(ldap));
  stopSync = await startDirectorySync(auth.ctx);
  admin = await userWithRole(auth, 'ADMIN', 'Локальный Администратор');
}, 60_000);
afterAll(async () => {
  clock.reset();
  await stopSync?.();
  await auth?.close();
  await ldap?.stop();
});

const users = () => userModel(auth.ctx.store);
const person = (i: number) =>
  users()
    .findOne({ email: seededPerson(i).mail })
    .lean();
const outcomesOf = async (run: DirectoryRun, outcome?: string) =>
  (
    await api<Page<DirectoryPersonOutcome>>(
      auth.url,
      'GET',
      `/api/directory/runs/${run.id}/people?limit=100${outcome ? `&outcome=${outcome}` : ''}`,
      { token: admin.token },
    )
  ).body;
const noChange = { create: 0, update: 0, suspend: 0, deactivate: 0, reactivate: 0, error: 0 };

/** A person signed in with a password (the directory made them without one): their token. */
async function signedIn(i: number): Promise<string> {
  const password = 'Kursy-Portal-42';
  await users().updateOne({ email: seededPerson(i).mail }, { $set: { passwordHash: await hashPassword(password) } });
  const login = await api<AuthResponse>(auth.url, 'POST', '/api/auth/login', { body: { email: seededPerson(i).mail, password } });
  expect(login.status).toBe(200);
  return login.body.token;
}

describe('directory sync (LDAP)', () => {
  it('previews 1,200 people read in two pages, and writes nothing but the run', async () => {
    const run = await runSync(auth, admin.token, 'preview');
    expect(run).toMatchObject({ status: 'done', mode: 'preview', read: PEOPLE, pages: 2, error: null });
    expect(PEOPLE).toBeGreaterThan(LDAP_MAX_PAGE);
    expect(run.counts).toEqual({ ...noChange, create: PEOPLE, same: 0 });
    expect(await users().countDocuments({ 'directory.id': op({ $exists: true }) })).toBe(0);

    const page = await outcomesOf(run, 'create');
    expect(page.total).toBe(PEOPLE);
    expect(page.data).toHaveLength(100);
    expect(page.data[0]).toMatchObject({
      outcome: 'create',
      email: seededPerson(0).mail,
      fullName: 'Иванов Иван Иванович',
      department: 'Бухгалтерия',
      role: 'ADMIN',
    });
    expect(page.data[1]).toMatchObject({ email: seededPerson(1).mail, role: 'CURATOR', department: 'Склад' });
    // Reading people's data is audited once per page (152-FZ).
    const reads = (await publishedAuditEvents(auth)).filter((e) => e.action === 'read' && e.entity === 'profile');
    expect(reads).toEqual([
      expect.objectContaining({
        entityId: run.id,
        actor: expect.objectContaining({ id: admin.user.id }),
        details: 'Просмотр сотрудников запуска синхронизации с каталогом: страница 1, записей 100',
      }),
    ]);
  });

  it('applies: 1,200 accounts in their departments and roles, audited with the counts', async () => {
    const [preview] = (await api<Page<DirectoryRun>>(auth.url, 'GET', '/api/directory/runs', { token: admin.token })).body.data;
    const run = await runSync(auth, admin.token, 'apply', preview.id);
    expect(run).toMatchObject({ status: 'done', mode: 'apply', previewId: preview.id, pages: 2 });
    expect(run.counts).toEqual({ ...noChange, create: PEOPLE, same: 0 });

    const linked = { 'directory.id': op({ $exists: true }) };
    expect(await users().countDocuments(linked)).toBe(PEOPLE);
    for (const department of LDAP_DEPARTMENTS) expect(await users().countDocuments({ ...linked, department })).toBe(PEOPLE / 6);
    const roles = Object.fromEntries(
      await Promise.all(
        (['ADMIN', 'CURATOR', 'MANAGER', 'CLIENT'] as const).map(async (role) => [
          role,
          await users().countDocuments({ ...linked, role }),
        ]),
      ),
    );
    // p00000 is in portal-admins; every hundredth person from 1 a curator, from 2 a manager.
    expect(roles).toEqual({ ADMIN: 1, CURATOR: 12, MANAGER: 12, CLIENT: PEOPLE - 25 });
    expect(await person(7)).toMatchObject({
      lastName: seededPerson(7).sn,
      firstName: seededPerson(7).givenName,
      middleName: seededPerson(7).middleName,
      position: seededPerson(7).title,
      department: seededPerson(7).department,
    });

    const audited = (await publishedAuditEvents(auth)).filter((e) =>
      e.details.startsWith('Синхронизация с корпоративным каталогом'),
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ action: 'update', entity: 'user', entityId: run.id, actor: { id: admin.user.id } });
    expect(audited[0].details).toContain(`прочитано ${PEOPLE}, новых ${PEOPLE}, изменено 0`);
  });

  it('a second run changes nobody', async () => {
    const before = await users().find({}, { version: 1, updatedAt: 1 }).sort({ _id: 1 }).lean();
    const run = await runSync(auth, admin.token, 'apply');
    expect(run.counts).toEqual({ ...noChange, same: PEOPLE });
    expect((await outcomesOf(run)).total).toBe(0);
    expect(await users().find({}, { version: 1, updatedAt: 1 }).sort({ _id: 1 }).lean()).toEqual(before);
  });

  it('updates a moved person, suspends a disabled one and one out of scope, and ends their sessions', async () => {
    const [moved, disabled, left] = [10, 11, 12].map((i) => seededPerson(i));
    const [disabledToken, leftToken] = [await signedIn(11), await signedIn(12)];
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: disabledToken })).status).toBe(200);
    await ldap.modify(
      [
        `dn: ${moved.dn}`,
        'changetype: modify',
        'replace: department',
        ldifLine('department', 'ИТ'),
        '',
        `dn: ${disabled.dn}`,
        'changetype: modify',
        'replace: userAccountControl',
        'userAccountControl: 514',
        '',
        `dn: ou=former,${LDAP_SUFFIX}`,
        'changetype: add',
        'objectClass: organizationalUnit',
        'ou: former',
        '',
        `dn: ${left.dn}`,
        'changetype: modrdn',
        `newrdn: uid=${left.uid}`,
        'deleteoldrdn: 1',
        `newsuperior: ou=former,${LDAP_SUFFIX}`,
        '',
      ].join('\n'),
    );

    const preview = await runSync(auth, admin.token, 'preview');
    expect(preview.counts).toEqual({ ...noChange, update: 1, suspend: 2, same: PEOPLE - 3 });
    expect(preview.read).toBe(PEOPLE - 1);
    expect((await person(10))!.department).toBe(moved.department);

    const run = await runSync(auth, admin.token, 'apply');
    expect(run.counts).toEqual(preview.counts);
    expect((await outcomesOf(run)).data).toEqual([
      expect.objectContaining({
        outcome: 'update',
        email: moved.mail,
        department: 'ИТ',
        reason: `подразделение: ${moved.department} → ИТ`,
      }),
      expect.objectContaining({ outcome: 'suspend', email: disabled.mail, reason: DIRECTORY_MSG.disabled }),
      expect.objectContaining({ outcome: 'suspend', email: left.mail, reason: DIRECTORY_MSG.leftScope }),
    ]);
    expect(await person(10)).toMatchObject({ department: 'ИТ' });
    expect((await person(11))!.directory!.suspendedAt).toBeInstanceOf(Date);
    expect((await person(12))!.directory!.suspendedAt).toBeInstanceOf(Date);
    // Their sessions end, and the password does not open a new one.
    for (const token of [disabledToken, leftToken])
      expect((await api(auth.url, 'GET', '/api/auth/profile', { token })).status).toBe(401);
    const login = await api(auth.url, 'POST', '/api/auth/login', { body: { email: disabled.mail, password: 'Kursy-Portal-42' } });
    expect(login).toMatchObject({ status: 403, body: { message: DIRECTORY_MSG.suspendedLogin } });
  });

  it('deactivates the suspended after the grace, and deletes nobody', async () => {
    const within = await runSync(auth, admin.token, 'apply');
    expect(within.counts).toEqual({ ...noChange, same: PEOPLE });

    clock.advance(31 * DAY_MS);
    const run = await runSync(auth, admin.token, 'apply');
    expect(run.counts).toEqual({ ...noChange, deactivate: 2, same: PEOPLE - 2 });
    for (const i of [11, 12]) {
      const account = await person(i);
      expect(account!.directory!.deactivatedAt).toBeInstanceOf(Date);
      expect(account!.email).toBe(seededPerson(i).mail);
    }
    expect(await users().countDocuments({ 'directory.id': op({ $exists: true }) })).toBe(PEOPLE);
    const again = await runSync(auth, admin.token, 'apply');
    expect(again.counts).toEqual({ ...noChange, same: PEOPLE });
  });

  it('reactivates people back in scope, who sign in again', async () => {
    const [disabled, left] = [11, 12].map((i) => seededPerson(i));
    await ldap.modify(
      [
        `dn: ${disabled.dn}`,
        'changetype: modify',
        'replace: userAccountControl',
        'userAccountControl: 512',
        '',
        `dn: uid=${left.uid},ou=former,${LDAP_SUFFIX}`,
        'changetype: modrdn',
        `newrdn: uid=${left.uid}`,
        'deleteoldrdn: 1',
        `newsuperior: ${left.dn.split(',').slice(1).join(',')}`,
        '',
      ].join('\n'),
    );
    const run = await runSync(auth, admin.token, 'apply');
    expect(run.counts).toEqual({ ...noChange, reactivate: 2, same: PEOPLE - 2 });
    for (const i of [11, 12]) expect((await person(i))!.directory).toMatchObject({ suspendedAt: null, deactivatedAt: null });
    await signedIn(11);
    expect((await runSync(auth, admin.token, 'apply')).counts).toEqual({ ...noChange, same: PEOPLE });
  });

  it('follows a department renamed for 300 people in one run, and the next run changes nobody', async () => {
    // Every person i with i % 6 === 3 is in «Логистика»: 200 of the first 1,200, and as many again
    // moved there, so one run updates 300 accounts (what a reorganisation looks like from the sync).
    const renamed = Array.from({ length: PEOPLE }, (_, i) => i).filter((i) => i % 6 === 3 || (i % 6 === 4 && i < 600));
    expect(renamed).toHaveLength(300);
    await ldap.modify(
      renamed
        .map((i) =>
          [
            `dn: ${seededPerson(i).dn}`,
            'changetype: modify',
            'replace: department',
            ldifLine('department', 'Цепи поставок'),
            '',
          ].join('\n'),
        )
        .join('\n'),
    );
    const run = await runSync(auth, admin.token, 'apply');
    expect(run).toMatchObject({ status: 'done', error: null });
    expect(run.counts).toEqual({ ...noChange, update: 300, same: PEOPLE - 300 });
    expect(await users().countDocuments({ department: 'Цепи поставок' })).toBe(300);
    expect((await runSync(auth, admin.token, 'apply')).counts).toEqual({ ...noChange, same: PEOPLE });
  });

  it('never shows the bind password: not in the configuration, the runs or the audit', async () => {
    const config = await api<DirectoryConfig>(auth.url, 'GET', '/api/directory/config', { token: admin.token });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      enabled: true,
      bindDn: ldap.syncDn,
      bindPasswordSet: true,
      pageSize: 1000,
      graceDays: 30,
    });
    const runs = await api(auth.url, 'GET', '/api/directory/runs?limit=100', { token: admin.token });
    const audit = await publishedAuditEvents(auth);
    for (const text of [JSON.stringify(config.body), JSON.stringify(runs.body), JSON.stringify(audit)])
      expect(text).not.toContain(ldap.syncPassword);
  });

  it('is the ADMIN’s alone', async () => {
    const curator = await userWithRole(auth, 'CURATOR');
    for (const [method, path] of [
      ['GET', '/api/directory/config'],
      ['GET', '/api/directory/runs'],
      ['POST', '/api/directory/runs'],
    ] as const)
      expect(
        (await api(auth.url, method, path, { token: curator.token, body: method === 'POST' ? { mode: 'preview' } : undefined }))
          .status,
      ).toBe(403);
    const bad = await api(auth.url, 'POST', '/api/directory/runs', { token: admin.token, body: { mode: 'everything' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/Режим запуска/);
    const [run] = (await api<Page<DirectoryRun>>(auth.url, 'GET', '/api/directory/runs', { token: admin.token })).body.data;
    const previewOfPreview = await api(auth.url, 'POST', '/api/directory/runs', {
      token: admin.token,
      body: { mode: 'preview', previewId: run.id },
    });
    expect(previewOfPreview).toMatchObject({ status: 400, body: { message: DIRECTORY_MSG.previewIdForApply } });
    const unknownPreview = await api(auth.url, 'POST', '/api/directory/runs', {
      token: admin.token,
      body: { mode: 'apply', previewId: '64b7f0c2a1b2c3d4e5f60718' },
    });
    expect(unknownPreview).toMatchObject({ status: 404, body: { message: DIRECTORY_MSG.previewNotFound } });
    expect((await api(auth.url, 'GET', '/api/directory/runs/nope', { token: admin.token })).body).toMatchObject({
      message: DIRECTORY_MSG.runNotFound,
    });
  });
});
