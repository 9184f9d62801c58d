import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { DATA_DIR, freePort, portAnswers, run, say, waitFor, which } from './util';

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';

export interface Store {
  url: string;
  kind: 'MONGO_URL' | 'running' | 'mongod' | 'ferretdb';
  process?: ManagedProcess;
}

const goBin = (): string | null => {
  const go = which('go', ['/usr/local/go/bin/go']);
  if (!go) return null;
  const gopath = spawnSync(go, ['env', 'GOPATH'], { encoding: 'utf8' }).stdout.trim();
  return gopath ? path.join(gopath, 'bin') : null;
};

export function ferretdbPath(): string | null {
  const bin = goBin();
  const candidate = bin ? path.join(bin, 'ferretdb') : null;
  if (candidate && existsSync(candidate)) return candidate;
  return which('ferretdb');
}

/**
 * Installs FerretDB from the Go module proxy when it is missing. `go install` of this release
 * fails here (the proxy refuses the deprecation lookup, and the module zip lacks the generated
 * version file), so we download the module, add the version file and build it ourselves.
 */
export function installFerretDB(): string {
  const existing = ferretdbPath();
  if (existing) return existing;
  const go = which('go', ['/usr/local/go/bin/go']);
  const bin = goBin();
  if (!go || !bin) throw new Error('FerretDB is not installed and Go is not available to build it');
  say(`installing FerretDB ${FERRETDB_VERSION} (go build, about a minute)...`);
  const env = { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' };
  const download = spawnSync(go, ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`], {
    encoding: 'utf8',
    env,
  });
  if (download.status !== 0) throw new Error(`go mod download failed: ${download.stderr || download.stdout}`);
  const { Dir } = JSON.parse(download.stdout) as { Dir: string };
  const work = mkdtempSync(path.join(tmpdir(), 'ferretdb-src-'));
  try {
    cpSync(Dir, work, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', work]);
    writeFileSync(path.join(work, 'build/version/version.txt'), `${FERRETDB_VERSION}\n`);
    mkdirSync(bin, { recursive: true });
    const target = path.join(bin, 'ferretdb');
    run(go, ['build', '-o', target, './cmd/ferretdb'], { cwd: work, env });
    chmodSync(target, 0o755);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const hostPort = (url: string): { host: string; port: number } => {
  const parsed = new URL(url.replace(/^mongodb(\+srv)?:/, 'http:'));
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 27017) };
};

/**
 * Picks the store in the architecture's order: MONGO_URL; a server already answering on the
 * port; a `mongod` on the PATH; FerretDB (installed when Go is present); otherwise a clear error.
 */
export async function ensureStore({ port = 27017, dataDir = path.join(DATA_DIR, 'store') } = {}): Promise<Store> {
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
        `  3. install Go, so that FerretDB ${FERRETDB_VERSION} can be built automatically;`,
        '  4. or run the production-like stack with `docker compose up`.',
        `(${(err as Error).message})`,
      ].join('\n'),
    );
  }
  const dir = path.join(dataDir, 'ferretdb');
  say(`store: FerretDB ${FERRETDB_VERSION} (SQLite), data in ${path.relative(process.cwd(), dir) || dir}`);
  return { url, kind: 'ferretdb', process: await startFerretDB(ferretdb, port, dir) };
}

/** Starts a FerretDB server on a port with its SQLite files in `dir`, and waits until it is ready. */
export async function startFerretDB(binary: string, port: number, dir: string, name = 'ferretdb'): Promise<ManagedProcess> {
  mkdirSync(path.join(dir, 'state'), { recursive: true });
  const debugPort = await freePort();
  const proc = startProcess(name, binary, [
    '--handler=sqlite',
    `--sqlite-url=file:${dir}/`,
    `--state-dir=${path.join(dir, 'state')}`,
    `--listen-addr=127.0.0.1:${port}`,
    '--telemetry=disable',
    `--debug-addr=127.0.0.1:${debugPort}`,
    '--log-level=warn',
  ]);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${debugPort}/debug/readyz`)).ok, 'FerretDB', 30_000);
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
