import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installGinTwins } from './ginTwins';
import { keepStatistics } from './pgStatistics';
import { goProgramPath, installGoProgram } from './goModules';
import { startProcess, type ManagedProcess } from './processes';
import { DATA_DIR, freePort, portAnswers, run, say, waitFor, which } from './util';

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';

export interface Store {
  url: string;
  kind: 'MONGO_URL' | 'running' | 'mongod' | 'ferretdb-postgresql' | 'ferretdb-sqlite';
  /** What the launcher started for it (stopping it stops FerretDB first and its PostgreSQL last). */
  process?: ManagedProcess;
  /** FerretDB's PostgreSQL, when the launcher started FerretDB on one. */
  postgresqlUrl?: string;
}

/** Where FerretDB keeps its data on PostgreSQL unless FERRETDB_POSTGRESQL_URL says otherwise. */
export const DEFAULT_POSTGRESQL_URL = 'postgres://postgres@127.0.0.1:5432/ferretdb';

export interface StoreOptions {
  port?: number;
  dataDir?: string;
  /** The PostgreSQL to put FerretDB on; a database missing there is created. */
  postgresqlUrl?: string;
  /** When no PostgreSQL answers: may we install Debian's package and run a cluster of our own? (root only) */
  ownPostgres?: boolean;
}

export const ferretdbPath = (): string | null => goProgramPath('ferretdb');

/**
 * Installs FerretDB from the Go module proxy when it is missing. `go install` of this release
 * fails here (the proxy refuses the deprecation lookup, and the module zip lacks the generated
 * version file), so we download the module, add the version file and build it ourselves.
 */
export const installFerretDB = (): string =>
  installGoProgram({
    binary: 'ferretdb',
    name: 'FerretDB',
    module: FERRETDB_MODULE,
    version: FERRETDB_VERSION,
    pkg: './cmd/ferretdb',
    prepare: (dir) => writeFileSync(path.join(dir, 'build/version/version.txt'), `${FERRETDB_VERSION}\n`),
  });

const hostPort = (url: string): { host: string; port: number } => {
  const parsed = new URL(url.replace(/^mongodb(\+srv)?:/, 'http:'));
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 27017) };
};

/**
 * Picks the store in the architecture's order and says which and why: MONGO_URL; a server already
 * answering on the port; a `mongod` on the PATH; FerretDB on PostgreSQL (one answering at
 * FERRETDB_POSTGRESQL_URL, or a cluster of our own under .data when we run as root); FerretDB on
 * SQLite; otherwise a clear error naming the options.
 */
export async function ensureStore({
  port = 27017,
  dataDir = path.join(DATA_DIR, 'store'),
  postgresqlUrl = process.env.FERRETDB_POSTGRESQL_URL || DEFAULT_POSTGRESQL_URL,
  ownPostgres = process.getuid?.() === 0,
}: StoreOptions = {}): Promise<Store> {
  if (process.env.MONGO_URL) {
    const { host, port: p } = hostPort(process.env.MONGO_URL);
    if (!(await portAnswers(p, host, 2000))) throw new Error(`MONGO_URL is set but nothing answers at ${host}:${p}`);
    say(`store: MONGO_URL (${host}:${p})`);
    return { url: process.env.MONGO_URL, kind: 'MONGO_URL' };
  }
  const url = `mongodb://127.0.0.1:${port}`;
  if (await portAnswers(port)) {
    say(`store: the MongoDB-compatible server already answering on 127.0.0.1:${port}`);
    return { url, kind: 'running' };
  }
  const mongod = which('mongod');
  if (mongod) {
    const dir = path.join(dataDir, 'mongod');
    mkdirSync(dir, { recursive: true });
    say(`store: mongod from the PATH, data in ${path.relative(process.cwd(), dir) || dir}`);
    const proc = startProcess('mongod', mongod, ['--dbpath', dir, '--bind_ip', '127.0.0.1', '--port', String(port)]);
    await waitFor(() => portAnswers(port), 'mongod');
    return { url, kind: 'mongod', process: proc };
  }
  let ferretdb: string;
  try {
    ferretdb = installFerretDB();
  } catch (err) {
    throw new Error(
      [
        'No MongoDB-compatible store is available. Choose one of:',
        '  1. set MONGO_URL to a running MongoDB (for example mongodb://127.0.0.1:27017);',
        '  2. install MongoDB so that `mongod` is on the PATH;',
        `  3. install Go, so that FerretDB ${FERRETDB_VERSION} can be built automatically (on PostgreSQL or SQLite);`,
        '  4. or run the production-like stack with `docker compose up`.',
        `(${(err as Error).message})`,
      ].join('\n'),
    );
  }

  const postgres = await ensurePostgres(postgresqlUrl, path.join(dataDir, 'postgres'), ownPostgres);
  if (postgres.url) {
    say(`store: FerretDB ${FERRETDB_VERSION} on PostgreSQL (${postgres.why})`);
    // FerretDB's own indexes cannot serve its equality filters there; see ginTwins.ts.
    await installGinTwins(postgres.url).catch(async (err: Error) => {
      await postgres.process?.stop();
      throw new Error(`could not prepare the PostgreSQL indexes for FerretDB: ${err.message}`);
    });
    const state = path.join(dataDir, 'ferretdb-postgresql');
    const ferret = await startFerretDB(ferretdb, port, state, 'ferretdb', { postgresqlUrl: postgres.url }).catch(
      async (err: Error) => {
        await postgres.process?.stop();
        throw err;
      },
    );
    // A server without autovacuum plans every query as if each table were empty; see pgStatistics.ts.
    const stopKeeping = await keepStatistics(postgres.url).catch(() => null);
    if (stopKeeping) say('store: PostgreSQL runs without autovacuum: the launcher vacuums and analyzes FerretDB’s tables');
    return {
      url,
      kind: 'ferretdb-postgresql',
      process: inOrder('store', [ferret, postgres.process], stopKeeping),
      postgresqlUrl: postgres.url,
    };
  }
  const dir = path.join(dataDir, 'ferretdb');
  say(
    `store: FerretDB ${FERRETDB_VERSION} on SQLite, data in ${path.relative(process.cwd(), dir) || dir} (no PostgreSQL: ${postgres.why})`,
  );
  return { url, kind: 'ferretdb-sqlite', process: await startFerretDB(ferretdb, port, dir) };
}

/** Processes that stop one after the other, in the order given (FerretDB before its PostgreSQL), after `before`. */
function inOrder(
  name: string,
  processes: Array<ManagedProcess | undefined>,
  before: (() => Promise<void>) | null = null,
): ManagedProcess {
  const [first] = processes.filter((p): p is ManagedProcess => !!p);
  return {
    name,
    child: first.child,
    async stop(signal, deadlineMs) {
      await before?.();
      for (const p of processes) await p?.stop(signal, deadlineMs);
    },
    kill() {
      for (const p of processes) p?.kill();
    },
  };
}

interface PostgresChoice {
  url: string | null;
  /** Said to the person starting the portal: which PostgreSQL, or why none. */
  why: string;
  process?: ManagedProcess;
}

const describe = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}, database ${u.pathname.slice(1) || 'postgres'}`;
};

/**
 * Connects to the server of `url` and creates its database when it is missing. Gives back null
 * when the database is there, or why it cannot be used.
 */
export async function preparePostgresDatabase(url: string): Promise<string | null> {
  const { Client } = await import('pg');
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1)) || 'ferretdb';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!found.rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
    return null;
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    return code === 'ECONNREFUSED' ? `nothing answers at ${describe(url)}` : `${describe(url)}: ${message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops the database of `url` (a private one a bench or a test made), closing whatever still uses it. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const { Client } = await import('pg');
  const admin = new URL(url);
  const database = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A PostgreSQL for FerretDB: the one at `url`, or (as root) a cluster of our own under `dir`. */
async function ensurePostgres(url: string, dir: string, ownPostgres: boolean): Promise<PostgresChoice> {
  const refused = await preparePostgresDatabase(url);
  if (!refused) return { url, why: `the PostgreSQL answering at ${describe(url)}` };
  if (!ownPostgres) return { url: null, why: `${refused}, and a cluster of our own needs root` };
  try {
    return await startOwnPostgres(dir, refused);
  } catch (err) {
    return { url: null, why: `${refused}; a cluster of our own could not be started: ${(err as Error).message}` };
  }
}

/** Debian's PostgreSQL server programs (the newest installed version), or null. */
export function postgresBinaries(): { initdb: string; postgres: string } | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions.length) return null;
  const bin = path.join(root, versions[0], 'bin');
  return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
}

/** Installs Debian's `postgresql` package when its programs are missing (root only; idempotent). */
export function installPostgres(): { initdb: string; postgres: string } {
  const found = postgresBinaries();
  if (found) return found;
  if (process.getuid?.() !== 0 || !which('apt-get')) throw new Error('postgresql is not installed and cannot be without root');
  say('installing postgresql (Debian package)...');
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'postgresql'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = postgresBinaries();
  if (!installed) throw new Error('postgresql was installed but initdb was not found under /usr/lib/postgresql');
  return installed;
}

const systemUser = (name: string): { uid: number; gid: number } | null => {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : null;
};

/** Initialises (once) and starts a PostgreSQL cluster under `dir`, run as the `postgres` user. */
async function startOwnPostgres(dir: string, refused: string): Promise<PostgresChoice> {
  const { initdb, postgres } = installPostgres();
  const user = systemUser('postgres');
  if (!user) throw new Error('the postgres system user does not exist');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, user.uid, user.gid);
    const init = spawnSync(initdb, ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'], {
      encoding: 'utf8',
      ...user,
    });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  const proc = startProcess(
    'postgres',
    postgres,
    ['-D', dir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    { user },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/ferretdb`;
  try {
    await waitFor(async () => (await preparePostgresDatabase(url)) === null, 'PostgreSQL', 30_000);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  const where = path.relative(process.cwd(), dir) || dir;
  return { url, why: `${refused}, so a cluster of our own under ${where} on port ${port}`, process: proc };
}

/**
 * The Go collector's target for FerretDB (GOGC): FERRETDB_GOGC, else 400. At Go's default of 100 a
 * quarter of FerretDB's CPU under the bench's mixed load was its collector (marking, assists and
 * sweeping: it converts every document it reads to JSON and back, and drops it); at 400 it collects
 * a quarter as often for about twice the memory, 60–130 MB instead of 40–65 (docs/decisions/102).
 */
export const ferretdbGogc = (): string => {
  const asked = process.env.FERRETDB_GOGC;
  return asked && /^(\d+|off)$/.test(asked) ? asked : '400';
};

/**
 * Starts a FerretDB server on a port and waits until it is ready: on SQLite with its files in `dir`,
 * or on PostgreSQL at `postgresqlUrl` (then `dir` holds only its state).
 */
export async function startFerretDB(
  binary: string,
  port: number,
  dir: string,
  name = 'ferretdb',
  { postgresqlUrl }: { postgresqlUrl?: string } = {},
): Promise<ManagedProcess> {
  mkdirSync(path.join(dir, 'state'), { recursive: true });
  const debugPort = await freePort();
  const backend = postgresqlUrl
    ? ['--handler=postgresql', `--postgresql-url=${postgresqlUrl}`]
    : ['--handler=sqlite', `--sqlite-url=file:${dir}/`];
  const proc = startProcess(
    name,
    binary,
    [
      ...backend,
      `--state-dir=${path.join(dir, 'state')}`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      `--debug-addr=127.0.0.1:${debugPort}`,
      '--log-level=warn',
    ],
    { env: { ...process.env, GOGC: ferretdbGogc() } },
  );
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${debugPort}/debug/readyz`)).ok, 'FerretDB', 30_000);
  } catch (err) {
    await proc.stop('SIGKILL');
    throw err;
  }
  return proc;
}

export interface RedisServer {
  url: string;
  process?: ManagedProcess;
}

export const redisAnswers = async (port: number, host = '127.0.0.1'): Promise<boolean> => {
  const { Redis } = await import('ioredis');
  const client = new Redis({
    port,
    host,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
};

export function redisServerPath(): string | null {
  return which('redis-server', ['/usr/bin/redis-server', '/usr/local/bin/redis-server']);
}

/**
 * Starts a private redis-server on the given port. Nothing is kept on disk unless `persistDir` is
 * given: then every write is appended and fsynced there (as production's `--appendonly yes`), so a
 * server killed and started again on the same folder has lost nothing it acknowledged.
 */
export async function startRedisServer(
  port: number,
  name = 'redis',
  { persistDir }: { persistDir?: string } = {},
): Promise<ManagedProcess> {
  let binary = redisServerPath();
  if (!binary && process.getuid?.() === 0 && which('apt-get')) {
    say('installing redis-server (Debian package)...');
    run('apt-get', ['install', '-y', '-q', 'redis-server'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    binary = redisServerPath();
  }
  if (!binary)
    throw new Error(
      'Redis is not answering on 127.0.0.1:6379 and redis-server is not installed (apt-get install redis-server, or set REDIS_URL)',
    );
  const persistence = persistDir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', persistDir]
    : ['--appendonly', 'no'];
  const proc = startProcess(name, binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence]);
  await waitFor(() => redisAnswers(port), 'redis-server', 10_000);
  return proc;
}

/** REDIS_URL; the Redis answering on 127.0.0.1:6379; or one we start. */
export async function ensureRedis({ port = 6379 } = {}): Promise<RedisServer> {
  if (process.env.REDIS_URL) {
    say(`redis: REDIS_URL`);
    return { url: process.env.REDIS_URL };
  }
  const url = `redis://127.0.0.1:${port}`;
  if (await redisAnswers(port)) {
    say(`redis: the server already answering on 127.0.0.1:${port}`);
    return { url };
  }
  say(`redis: starting redis-server on 127.0.0.1:${port}`);
  return { url, process: await startRedisServer(port) };
}
