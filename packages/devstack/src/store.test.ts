import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import {
  DEFAULT_POSTGRESQL_URL,
  dropPostgresDatabase,
  ensureStore,
  ferretdbPath,
  preparePostgresDatabase,
  type Store,
} from './store';
import { freePort } from './util';

// The launcher's choice of store, branch by branch, each on its own port and folder (the store the
// other tests use is never touched). What it says is part of the behaviour: a person reads it.
jest.setTimeout(90_000);

let said: string[] = [];
let dataDir: string;
let started: Store | null = null;
const saved = {
  MONGO_URL: process.env.MONGO_URL,
  PATH: process.env.PATH,
  FERRETDB_POSTGRESQL_URL: process.env.FERRETDB_POSTGRESQL_URL,
};
const sharedStore = process.env.MONGO_URL;

beforeEach(() => {
  said = [];
  jest.spyOn(console, 'log').mockImplementation((line: string) => void said.push(String(line)));
  dataDir = mkdtempSync(path.join(tmpdir(), 'store-choice-'));
  chmodSync(dataDir, 0o755); // as a repository's .data is: the postgres user must reach its cluster
  delete process.env.MONGO_URL;
  delete process.env.FERRETDB_POSTGRESQL_URL;
});
afterEach(async () => {
  jest.restoreAllMocks();
  await started?.process?.stop();
  started = null;
  Object.assign(process.env, saved);
  rmSync(dataDir, { recursive: true, force: true });
});

const storeLine = () => said.find((line) => line.includes('store:')) ?? '';

/** Writes and reads one document, as a service would. */
async function roundTrip(url: string): Promise<unknown> {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
  try {
    const things = client.db(`store_choice_${Date.now().toString(36)}`).collection('things');
    await things.insertOne({ name: 'Пробная запись' });
    const found = await things.findOne({}, { projection: { _id: 0 } });
    await client.db(things.dbName).dropDatabase();
    return found;
  } finally {
    await client.close();
  }
}

/** PostgreSQL's plan for an equality lookup on a field the collection has an index on (FerretDB's explain). */
async function planOfIndexedLookup(url: string): Promise<string> {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
  try {
    const people = client.db(`store_plan_${Date.now().toString(36)}`).collection('people');
    await people.createIndex({ email: 1 });
    await people.insertMany(Array.from({ length: 2000 }, (_, i) => ({ email: `p${i}@example.com` })));
    const explained = await people.find({ email: 'p7@example.com' }).explain();
    await client.db(people.dbName).dropDatabase();
    return (explained.queryPlanner as { Plan?: { 'Node Type'?: string } }).Plan?.['Node Type'] ?? 'no plan';
  } finally {
    await client.close();
  }
}

/** A PostgreSQL URL on the machine's server for a database of this test's own. */
const ownDatabaseUrl = () => {
  const url = new URL(DEFAULT_POSTGRESQL_URL);
  url.pathname = `/ferretdb_choice_${Date.now().toString(36)}`;
  return url.toString();
};

it('MONGO_URL wins over everything, and is refused clearly when nothing answers there', async () => {
  process.env.MONGO_URL = sharedStore;
  expect((await ensureStore({ port: await freePort(), dataDir })).kind).toBe('MONGO_URL');
  const dead = await freePort();
  process.env.MONGO_URL = `mongodb://127.0.0.1:${dead}`;
  await expect(ensureStore({ port: await freePort(), dataDir })).rejects.toThrow(
    `MONGO_URL is set but nothing answers at 127.0.0.1:${dead}`,
  );
});

it('a server already answering on the port is used as it is', async () => {
  const port = Number(new URL(sharedStore!.replace(/^mongodb:/, 'http:')).port || 27017);
  const store = await ensureStore({ port, dataDir });
  expect(store).toEqual({ url: `mongodb://127.0.0.1:${port}`, kind: 'running' });
  expect(storeLine()).toContain('already answering');
});

it('a mongod on the PATH is preferred to FerretDB', async () => {
  // A stand-in mongod: FerretDB on SQLite listening where the launcher tells mongod to listen.
  const bin = path.join(dataDir, 'bin');
  mkdirSync(bin);
  const fake = path.join(bin, 'mongod');
  writeFileSync(
    fake,
    `#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in --port) PORT=$2;; --dbpath) DIR=$2;; esac; shift; done\n` +
      `exec "${ferretdbPath()}" --handler=sqlite --sqlite-url=file:$DIR/ --state-dir=$DIR --listen-addr=127.0.0.1:$PORT --telemetry=disable --debug-addr=127.0.0.1:0 --log-level=warn\n`,
  );
  chmodSync(fake, 0o755);
  process.env.PATH = `${bin}:${saved.PATH}`;
  started = await ensureStore({ port: await freePort(), dataDir, postgresqlUrl: ownDatabaseUrl() });
  expect(started.kind).toBe('mongod');
  expect(storeLine()).toContain('mongod from the PATH');
  expect(await roundTrip(started.url)).toEqual({ name: 'Пробная запись' });
});

it('with a PostgreSQL answering, FerretDB runs on it (the database is created) and serves reads and writes', async () => {
  const postgresqlUrl = ownDatabaseUrl();
  if ((await preparePostgresDatabase(postgresqlUrl)) !== null && process.getuid?.() !== 0)
    throw new Error('this machine has no PostgreSQL answering and no root to start one; see docs/store.md');
  started = await ensureStore({ port: await freePort(), dataDir, postgresqlUrl });
  try {
    expect(started.kind).toBe('ferretdb-postgresql');
    expect(storeLine()).toMatch(/^\[portal\] store: FerretDB v1\.24\.2 on PostgreSQL \(/);
    expect(await roundTrip(started.url)).toEqual({ name: 'Пробная запись' });
    // An equality filter on an indexed field is answered from an index, not by reading the table.
    expect(await planOfIndexedLookup(started.url)).toBe('Bitmap Heap Scan');
    // Its collector runs at the launcher's target, a quarter as often as Go's default (decision 102).
    const environment = readFileSync(`/proc/${started.process!.child.pid}/environ`, 'utf8').split('\0');
    expect(environment).toContain(`GOGC=${process.env.FERRETDB_GOGC ?? '400'}`);
  } finally {
    await started.process?.stop();
    started = null;
    await dropPostgresDatabase(postgresqlUrl);
  }
});

it('with no PostgreSQL and no right to start one, it falls back to SQLite and says why', async () => {
  const dead = await freePort();
  started = await ensureStore({
    port: await freePort(),
    dataDir,
    postgresqlUrl: `postgres://postgres@127.0.0.1:${dead}/ferretdb`,
    ownPostgres: false,
  });
  expect(started.kind).toBe('ferretdb-sqlite');
  expect(storeLine()).toContain(
    `on SQLite, data in ${path.relative(process.cwd(), path.join(dataDir, 'ferretdb'))} (no PostgreSQL: nothing answers at 127.0.0.1:${dead}, database ferretdb, and a cluster of our own needs root)`,
  );
  expect(await roundTrip(started.url)).toEqual({ name: 'Пробная запись' });
});

it('with no PostgreSQL answering, root starts a cluster of its own under the data folder, and stops it last', async () => {
  const dead = await freePort();
  const options = { port: await freePort(), dataDir, postgresqlUrl: `postgres://postgres@127.0.0.1:${dead}/ferretdb` };
  started = await ensureStore(options);
  if (process.getuid?.() !== 0) {
    // Without root the same choice is the SQLite fallback, said as such.
    expect(started.kind).toBe('ferretdb-sqlite');
    expect(storeLine()).toContain('a cluster of our own needs root');
    return;
  }
  expect(started.kind).toBe('ferretdb-postgresql');
  expect(storeLine()).toContain(`nothing answers at 127.0.0.1:${dead}, database ferretdb, so a cluster of our own under`);
  expect(await roundTrip(started.url)).toEqual({ name: 'Пробная запись' });
  const ownPort = Number(/on port (\d+)/.exec(storeLine())?.[1]);
  await started.process!.stop();
  started = null;
  // Both are gone: FerretDB's port and the cluster's.
  const { portAnswers } = await import('./util');
  expect(await portAnswers(options.port)).toBe(false);
  expect(await portAnswers(ownPort)).toBe(false);
});
