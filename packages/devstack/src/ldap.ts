/**
 * A real OpenLDAP (Debian's `slapd`) for the directory-sync tests and the bench: a child process on a
 * free loopback port, with its own slapd.conf and mdb database in a temporary folder (the system's
 * slapd service and its configuration are never used). The server limits a search to 1,000 entries a
 * page, as Active Directory's MaxPageSize does, so 1,200 people take two pages. The `memberof` overlay
 * keeps `memberOf` on the people, as AD does, and a tiny schema adds AD's `userAccountControl`,
 * `department` and `middleName` to inetOrgPerson entries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, portAnswers, sleep, which } from './util';

export const LDAP_SUFFIX = 'dc=example,dc=ru';
export const LDAP_PEOPLE_DN = `ou=people,${LDAP_SUFFIX}`;
export const LDAP_GROUPS_DN = `ou=groups,${LDAP_SUFFIX}`;
/** The server's page limit (AD's MaxPageSize). */
export const LDAP_MAX_PAGE = 1000;
/** AD's userAccountControl: a normal account, and one with bit 2 (ACCOUNTDISABLE) set. */
export const UAC_ENABLED = 512;
export const UAC_DISABLED = 514;

/** The departments of the seeded company, in order: person i works in DEPARTMENTS[i % 6]. */
export const LDAP_DEPARTMENTS = ['Бухгалтерия', 'Склад', 'Продажи', 'Логистика', 'Юридический отдел', 'ИТ'] as const;
/** The seeded groups: `cn=<key>,ou=groups,…`. */
export const LDAP_GROUPS = {
  admins: 'portal-admins',
  curators: 'portal-curators',
  managers: 'portal-managers',
  staff: 'all-staff',
};

export const groupDn = (cn: string) => `cn=${cn},${LDAP_GROUPS_DN}`;
export const personDn = (uid: string) => `uid=${uid},${LDAP_PEOPLE_DN}`;

export interface LdapServer {
  url: string;
  port: number;
  /** The directory's administrator (rootdn): not limited, used to seed and change the directory. */
  adminDn: string;
  adminPassword: string;
  /** An ordinary account that may read the directory: what the portal binds as (the 1,000 page limit applies to it). */
  syncDn: string;
  syncPassword: string;
  /** Applies LDIF with changetypes (ldapmodify), as the administrator. */
  modify(ldif: string): Promise<void>;
  /** Adds the entries of an LDIF without changetypes (ldapadd), as the administrator. */
  add(ldif: string): Promise<void>;
  /** SIGKILL, at once: the fault tests stop the server mid-run. */
  kill(): void;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const SCHEMA = `# AD's account flags and department with AD's OIDs; a middle name and the auxiliary class under RFC 5612's example enterprise number
# (AD's own middleName OID is core.schema's \`ref\` on OpenLDAP).
attributetype ( 1.2.840.113556.1.4.8 NAME 'userAccountControl'
  DESC 'AD: account flags; bit 2 (ACCOUNTDISABLE) is a disabled account'
  EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.2.141 NAME 'department'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.32473.1.2.1 NAME 'middleName'
  EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.32473.1.1 NAME 'portalAdUser' AUXILIARY
  MAY ( userAccountControl $ department $ middleName ) )
`;

const run = (tool: string, args: string[], input: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(tool)}: ${code} ${err.trim()}`))));
    child.stdin.end(input);
  });

/** A value for LDIF: base64 (`attr:: …`) when it is not plain ASCII. */
export const ldifLine = (attr: string, value: string | number): string => {
  const text = String(value);
  return /^[\x20-\x7e]*$/.test(text) && !/^[ :<]/.test(text)
    ? `${attr}: ${text}`
    : `${attr}:: ${Buffer.from(text).toString('base64')}`;
};

/** Starts a fresh, empty directory (the base entries, the sync account and the groups only). */
export async function startLdap(): Promise<LdapServer> {
  const slapd = which('slapd', ['/usr/sbin/slapd']);
  const ldapadd = which('ldapadd');
  const ldapmodify = which('ldapmodify');
  if (!slapd || !ldapadd || !ldapmodify)
    throw new Error('OpenLDAP is missing: install the Debian packages slapd and ldap-utils (.ci/run does)');
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-ldap-'));
  mkdirSync(path.join(dir, 'db'));
  const port = await freePort();
  const adminDn = `cn=admin,${LDAP_SUFFIX}`;
  const adminPassword = 'ldap-admin-test-password';
  const syncDn = `cn=portal-sync,ou=service,${LDAP_SUFFIX}`;
  const syncPassword = 'ldap-sync-test-password';
  writeFileSync(path.join(dir, 'portal-ad.schema'), SCHEMA);
  writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `include ${path.join(dir, 'portal-ad.schema')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'moduleload memberof',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      `argsfile ${path.join(dir, 'slapd.args')}`,
      // AD's MaxPageSize: a page is at most 1,000 entries, a search without paging stops at 1,000.
      `sizelimit size.soft=${LDAP_MAX_PAGE} size.hard=${LDAP_MAX_PAGE} size.pr=${LDAP_MAX_PAGE} size.prtotal=unlimited`,
      'database mdb',
      'maxsize 268435456',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${path.join(dir, 'db')}`,
      'index objectClass eq',
      'index entryUUID eq',
      'index uid eq',
      'overlay memberof',
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(slapd, ['-d', '0', '-f', path.join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${port}/`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 10_000;
  while (!(await portAnswers(port))) {
    if (gone || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`slapd did not start: ${log.trim()}`);
    }
    await sleep(50);
  }
  const url = `ldap://127.0.0.1:${port}`;
  const auth = ['-x', '-H', url, '-D', adminDn, '-w', adminPassword];
  const server: LdapServer = {
    url,
    port,
    adminDn,
    adminPassword,
    syncDn,
    syncPassword,
    modify: (ldif) => run(ldapmodify, auth, ldif),
    add: (ldif) => run(ldapadd, auth, ldif),
    kill: () => {
      if (!gone) child.kill('SIGKILL');
    },
    async stop() {
      if (!gone) {
        child.kill('SIGTERM');
        const deadline = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(deadline);
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const entry = (dn: string, ...lines: string[]) => [`dn: ${dn}`, ...lines, ''].join('\n');
  await server.add(
    [
      entry(LDAP_SUFFIX, 'objectClass: dcObject', 'objectClass: organization', 'o: Example', 'dc: example'),
      entry(LDAP_PEOPLE_DN, 'objectClass: organizationalUnit', 'ou: people'),
      entry(LDAP_GROUPS_DN, 'objectClass: organizationalUnit', 'ou: groups'),
      entry(`ou=service,${LDAP_SUFFIX}`, 'objectClass: organizationalUnit', 'ou: service'),
      entry(syncDn, 'objectClass: person', 'cn: portal-sync', 'sn: sync', `userPassword: ${syncPassword}`),
    ].join('\n'),
  );
  return server;
}

/**
 * The auth service's settings for this directory's sync (`url`: a relay in front of it, if any):
 * its people, the seeded groups mapped to roles, and runs on demand only (no scheduler).
 */
export const directorySyncEnv = (server: LdapServer, url = server.url): Record<string, string> => ({
  LDAP_URL: url,
  LDAP_BIND_DN: server.syncDn,
  LDAP_BIND_PASSWORD: server.syncPassword,
  LDAP_BASE_DN: LDAP_PEOPLE_DN,
  LDAP_FILTER: '(objectClass=inetOrgPerson)',
  LDAP_GROUP_ROLES: JSON.stringify({
    [groupDn(LDAP_GROUPS.admins)]: 'ADMIN',
    [groupDn(LDAP_GROUPS.curators)]: 'CURATOR',
    [groupDn(LDAP_GROUPS.managers)]: 'MANAGER',
  }),
  LDAP_SYNC_EVERY: '0',
  LDAP_TIMEOUT_MS: '5000',
});

export interface SeededPerson {
  uid: string;
  dn: string;
  mail: string;
  sn: string;
  givenName: string;
  middleName: string;
  department: string;
  title: string;
  groups: string[];
}

const LAST = ['Иванов', 'Петров', 'Сидоров', 'Смирнов', 'Кузнецов', 'Попов', 'Соколов', 'Лебедев', 'Козлов', 'Новиков'];
const FIRST = ['Иван', 'Пётр', 'Сергей', 'Алексей', 'Дмитрий', 'Андрей', 'Михаил', 'Николай'];
const MIDDLE = ['Иванович', 'Петрович', 'Сергеевич', 'Алексеевич', 'Дмитриевич', 'Андреевич'];
const TITLES = ['Специалист', 'Ведущий специалист', 'Руководитель группы', 'Начальник отдела'];

/** Person i of the seeded company: a fixed name, department, position and groups. */
export function seededPerson(i: number, departments: readonly string[] = LDAP_DEPARTMENTS): SeededPerson {
  const uid = `p${String(i).padStart(5, '0')}`;
  const groups = [LDAP_GROUPS.staff];
  if (i === 0) groups.push(LDAP_GROUPS.admins);
  else if (i % 100 === 1) groups.push(LDAP_GROUPS.curators);
  else if (i % 100 === 2) groups.push(LDAP_GROUPS.managers);
  return {
    uid,
    dn: personDn(uid),
    mail: `${uid}@example.ru`,
    sn: LAST[i % LAST.length],
    givenName: FIRST[i % FIRST.length],
    middleName: MIDDLE[i % MIDDLE.length],
    department: departments[i % departments.length],
    title: TITLES[i % TITLES.length],
    groups,
  };
}

/** The LDIF of a person entry (enabled unless `disabled`). */
export const personLdif = (p: SeededPerson, { disabled = false }: { disabled?: boolean } = {}): string =>
  [
    `dn: ${p.dn}`,
    'objectClass: inetOrgPerson',
    'objectClass: portalAdUser',
    `uid: ${p.uid}`,
    ldifLine('cn', `${p.sn} ${p.givenName} ${p.middleName}`),
    ldifLine('sn', p.sn),
    ldifLine('givenName', p.givenName),
    ldifLine('middleName', p.middleName),
    `mail: ${p.mail}`,
    ldifLine('department', p.department),
    ldifLine('title', p.title),
    `userAccountControl: ${disabled ? UAC_DISABLED : UAC_ENABLED}`,
    '',
  ].join('\n');

/**
 * Seeds `count` people (person i as seededPerson(i), in `departments` in turn) and the groups, whose members the memberof
 * overlay writes back on the people as `memberOf`. Returns the people.
 */
export async function seedDirectory(
  server: LdapServer,
  count: number,
  departments: readonly string[] = LDAP_DEPARTMENTS,
): Promise<SeededPerson[]> {
  const people = Array.from({ length: count }, (_, i) => seededPerson(i, departments));
  await server.add(people.map((p) => personLdif(p)).join('\n'));
  const groups = Object.values(LDAP_GROUPS).map((cn) => {
    const members = people.filter((p) => p.groups.includes(cn)).map((p) => `member: ${p.dn}`);
    // groupOfNames needs a member: an empty group names its own DN, as OpenLDAP's examples do.
    return [
      `dn: ${groupDn(cn)}`,
      'objectClass: groupOfNames',
      `cn: ${cn}`,
      ...(members.length ? members : [`member: ${groupDn(cn)}`]),
      '',
    ].join('\n');
  });
  await server.add(groups.join('\n'));
  return people;
}

/**
 * A TCP relay in front of the LDAP server that calls `onRequest(n)` before passing on the client's
 * n-th chunk (1: the bind, 2: the first page's search, 3: the second page's …): the fault test stops
 * the server there, after the first page was read.
 */
export async function ldapRelay(
  target: Pick<LdapServer, 'port'>,
  onRequest: (n: number) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: target.port });
    sockets.add(client).add(upstream);
    let n = 0;
    client.on('data', (chunk) => {
      onRequest(++n);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `ldap://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
