import { DIRECTORY_MSG, formatMessage, type AuthResponse, type DirectoryRun } from '@portal/contracts';
import {
  ldapRelay,
  ldifLine,
  seedDirectory,
  seededPerson,
  startLdap,
  UAC_DISABLED,
  type LdapServer,
} from '@portal/devstack/ldap';
import { api, startTestService, uniquePrefix, type TestService } from '@portal/devstack/testing';
import { op } from '@portal/service-kit';
import { authRouters, localLookup } from '../../app';
import { authConfigSchema, type AuthConfig } from '../../config';
import { directoryRunModel, directoryOutcomeModel } from '../../directory/models';
import { startDirectorySync } from '../../directory/runs';
import { userModel } from '../../models/user';
import { ADMIN_PASSWORD, ldapEnv, runSync, startAuth, userWithRole, waitForRun } from '../../testing';

/** The sync when things go wrong (the LDAP server stops mid-run), and with two replicas. */
const PEOPLE = 1200;
// A run reads and writes 1,200 people: seconds alone, more beside other test files on two cores.
jest.setTimeout(120_000);

describe('directory sync: the LDAP server stopped mid-run', () => {
  let ldap: LdapServer;
  let relay: Awaited<ReturnType<typeof ldapRelay>>;
  let auth: TestService<AuthConfig>;
  let stopSync: () => Promise<void>;
  let admin: AuthResponse;
  let stopAt = 0;

  beforeAll(async () => {
    ldap = await startLdap();
    await seedDirectory(ldap, PEOPLE);
    // Request 3 of a run's connection asks for the second page: the first one has been read.
    relay = await ldapRelay(ldap, (n) => {
      if (n === stopAt) ldap.kill();
    });
    auth = await startAuth(ldapEnv(ldap, relay.url));
    stopSync = await startDirectorySync(auth.ctx);
    admin = await userWithRole(auth, 'ADMIN');
  }, 60_000);
  afterAll(async () => {
    await stopSync?.();
    await auth?.close();
    await relay?.close();
    await ldap?.stop();
  });

  it('fails with a clear message and changes nobody', async () => {
    expect((await runSync(auth, admin.token, 'apply')).counts.create).toBe(PEOPLE);
    // The directory changes: fifty people move, five are disabled.
    const changes: string[] = [];
    for (let i = 0; i < 50; i += 1)
      changes.push(
        `dn: ${seededPerson(i).dn}`,
        'changetype: modify',
        'replace: department',
        ldifLine('department', 'Новый отдел'),
        '',
      );
    for (let i = 100; i < 105; i += 1)
      changes.push(
        `dn: ${seededPerson(i).dn}`,
        'changetype: modify',
        'replace: userAccountControl',
        `userAccountControl: ${UAC_DISABLED}`,
        '',
      );
    await ldap.modify(changes.join('\n'));
    const users = userModel(auth.ctx.store);
    const before = await users.find({}).sort({ _id: 1 }).lean();

    stopAt = 3;
    const run = await runSync(auth, admin.token, 'apply');
    expect(run.status).toBe('failed');
    expect(run.error).toBe(formatMessage(DIRECTORY_MSG.searchFailed, { reason: 'соединение разорвано сервером' }));
    expect(run.error).toMatch(/^Чтение каталога прервано: .+\. Никто не изменён$/);
    expect(await users.find({}).sort({ _id: 1 }).lean()).toEqual(before);
    expect(await users.countDocuments({ department: 'Новый отдел' })).toBe(0);
    expect(await directoryOutcomeModel(auth.ctx.store).countDocuments({ runId: op({ $eq: run.id }) })).toBe(0);

    // With the server gone, the next run cannot even bind: it says so, and changes nobody either.
    const next = await runSync(auth, admin.token, 'preview');
    expect(next.status).toBe('failed');
    expect(next.error).toMatch(/^Сервер каталога LDAP недоступен: .+\. Никто не изменён$/);
  });
});

describe('directory sync: two replicas', () => {
  let ldap: LdapServer;
  const replicas: TestService<AuthConfig>[] = [];
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    ldap = await startLdap();
    await seedDirectory(ldap, PEOPLE);
    const prefix = uniquePrefix();
    for (let i = 0; i < 2; i += 1)
      replicas.push(
        await startTestService<AuthConfig>('auth', authRouters, {
          prefix,
          schema: authConfigSchema,
          lookup: localLookup,
          env: { ADMIN_REGISTRATION_PASSWORD: ADMIN_PASSWORD, SEED_PRESETS: 'false', ...ldapEnv(ldap), LDAP_SYNC_EVERY: '1h' },
        }),
      );
    for (const replica of replicas) stops.push(await startDirectorySync(replica.ctx));
  }, 60_000);
  afterAll(async () => {
    for (const stop of stops) await stop();
    for (const replica of replicas) await replica.close();
    await ldap?.stop();
  });

  it('the scheduler runs one sync, and two runs asked of both at once go one after the other', async () => {
    const runs = directoryRunModel(replicas[0].ctx.store);
    const deadline = Date.now() + 60_000;
    while (!(await runs.exists({ trigger: 'schedule', status: op({ $in: ['done', 'failed'] as Array<'done' | 'failed'> }) }))) {
      if (Date.now() > deadline) throw new Error('no scheduled run');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const scheduled = await runs.find({ trigger: 'schedule' }).lean();
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({ status: 'done', mode: 'apply', by: null });
    expect(scheduled[0].counts.create).toBe(PEOPLE);
    expect(await userModel(replicas[0].ctx.store).countDocuments({ 'directory.id': op({ $exists: true }) })).toBe(PEOPLE);

    const admin = await userWithRole(replicas[0], 'ADMIN');
    const started = await Promise.all(
      replicas.map((r) =>
        api<DirectoryRun>(r.url, 'POST', '/api/directory/runs', { token: admin.token, body: { mode: 'apply' } }),
      ),
    );
    expect(started.map((s) => s.status)).toEqual([202, 202]);
    const done = await Promise.all(started.map((s, i) => waitForRun(replicas[i], admin.token, s.body.id)));
    for (const run of done)
      expect(run).toMatchObject({ status: 'done', counts: expect.objectContaining({ same: PEOPLE, create: 0 }) });
    const [first, second] = done.sort((a, b) => a.startedAt!.localeCompare(b.startedAt!));
    expect(second.startedAt! >= first.finishedAt!).toBe(true);
    expect(await runs.countDocuments({ trigger: 'schedule' })).toBe(1);
  });
});
