import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Stack } from '@portal/devstack/stack';
import type { StoreKind } from './capacity';
import { cpuOfPid, stackCpuParts } from './cpuSplit';
import { measure, startPortal } from './portal';
import { mixedLoad, type MixedResult } from './mixed';
import { redisCommands, storeCounts } from './storeOps';
import { measureSizes } from './sizes';
import type { CapacityCosts, CostsRun, StoreFloor } from './capacityModel';

/**
 * The capacity part's measured costs as data (`.data/reports/capacity-costs.json`), the input of the
 * capacity model (`capacityModel.ts`, docs/capacity.md): for each mixed-load run, the CPU each
 * process spent per answered request, the answers per second and the store operations per request
 * by route; the store floor (a bare Node server, one `findOne` by `_id` per request) on the same store;
 * the front ends' sizes.
 */
const ROOT = path.resolve(__dirname, '../..');
export const COSTS_FILE = path.join(ROOT, '.data/reports/capacity-costs.json');
const QUICK = process.env.BENCH_QUICK === '1';

/** The replica counts the mixed load runs with (`BENCH_CAPACITY_REPLICAS=1,2`: again with two of every service). */
export const CAPACITY_REPLICAS = (process.env.BENCH_CAPACITY_REPLICAS ?? '1')
  .split(',')
  .map(Number)
  .filter((n) => n >= 1);

const runs: CostsRun[] = [];
const floors: StoreFloor[] = [];
const startedAt = new Date().toISOString();

/** The private store as the CPU split needs it: FerretDB's process and, on PostgreSQL, the run's database. */
export interface CostsStore {
  url: string;
  pid?: number;
  database?: string;
}

/** The CPU (s) of the PostgreSQL backends serving one database (their title names it), so other users of the server are left out. */
function cpuOfDatabase(database: string | undefined): number {
  if (!database) return 0;
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres:') && title.split(' ').includes(database)) sum += cpuOfPid(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** The whole machine's busy CPU (s) so far, every process together: shows what others took in the window. */
function machineBusy(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return (fields.reduce((a, b) => a + b, 0) - fields[3] - (fields[4] ?? 0)) / 100;
}

const perRequest = (before: Record<string, number>, after: Record<string, number>, requests: number) =>
  Object.fromEntries(
    Object.keys(after).map((name) => [name, round3(((after[name] - (before[name] ?? 0)) * 1000) / Math.max(requests, 1))]),
  );
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Measures one mixed load on a stack and records its costs. */
export async function recordMixed(
  stack: Stack,
  store: CostsStore,
  kind: StoreKind,
  replicas: number,
  work: () => Promise<MixedResult>,
): Promise<MixedResult> {
  const parts = stackCpuParts(stack, store.pid);
  const read = () => ({ ...parts(), 'postgresql (this run’s database)': cpuOfDatabase(store.database), machine: machineBusy() });
  const [countsBefore, redisBefore] = await Promise.all([storeCounts(stack), redisCommands(stack)]);
  const load1 = os.loadavg()[0];
  const before = read();
  const result = await work();
  const after = read();
  const [countsAfter, redisAfter] = await Promise.all([storeCounts(stack), redisCommands(stack)]);
  const answered = result.kinds.reduce((sum, k) => sum + k.r.total, 0);
  const real = result.kinds.filter((k) => !k.expectBad).reduce((sum, k) => sum + k.r.total, 0);
  const routes = [...countsAfter]
    .map(([route, now]) => {
      const then = countsBefore.get(route) ?? { requests: 0, operations: 0 };
      return { route, requests: now.requests - then.requests, operations: now.operations - then.operations };
    })
    .filter((r) => r.requests > 0)
    .sort((a, b) => b.operations - a.operations);
  runs.push({
    store: kind,
    replicas,
    seconds: round3(result.seconds),
    answered,
    answeredPerSecond: round3(answered / result.seconds),
    realPerSecond: round3(real / result.seconds),
    loadAverageBefore: round3(load1),
    kinds: result.kinds.map((k) => ({
      name: k.name,
      expectBad: k.expectBad,
      perSecond: round3(k.r.total / result.seconds),
      p95: round3(k.r.p95),
      non2xx: k.r.non2xx,
      errors: k.r.errors,
    })),
    cpuMsPerRequest: perRequest(before, after, answered),
    storeOperations: routes.reduce((sum, r) => sum + r.operations, 0),
    redisCommands: redisAfter - redisBefore,
    routes,
  });
  console.log(
    `  costs recorded: ${kind}, ${replicas} replica(s), ${Math.round(answered / result.seconds)} answers/s, ` +
      `${(routes.reduce((s, r) => s + r.operations, 0) / Math.max(answered, 1)).toFixed(2)} store operations per answer`,
  );
  return result;
}

/** The mixed load again on a fresh portal with `replicas` processes of every service (the model's check). */
export async function mixedWithReplicas(store: CostsStore, kind: StoreKind, redisUrl: string, replicas: number, seconds: number) {
  const portal = await startPortal(store.url, redisUrl, { replicas });
  try {
    await recordMixed(portal.stack, store, kind, replicas, () => mixedLoad(portal, seconds));
  } finally {
    await portal.stop();
  }
}

/** The floor server: bare `http`, one `findOne` by `_id` of 100 small documents per request, in its own process. */
const FLOOR_SERVER = `
const http = require('node:http');
const { MongoClient, ObjectId } = require('mongodb');
(async () => {
  const client = await new MongoClient(process.env.FLOOR_URL).connect();
  const db = client.db(process.env.FLOOR_DB);
  const people = db.collection('people');
  const ids = Array.from({ length: 100 }, () => new ObjectId());
  await people.insertMany(ids.map((_id, i) => ({ _id, fullName: 'Сотрудник ' + i, email: 'p' + i + '@floor.test', role: 'STUDENT' })));
  const server = http.createServer((req, res) => {
    people.findOne({ _id: ids[Math.floor(Math.random() * ids.length)] }).then(
      (doc) => { res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' }); res.end(JSON.stringify(doc)); },
      () => { res.writeHead(500); res.end(); },
    );
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
  process.on('SIGTERM', () => db.dropDatabase().finally(() => client.close()).finally(() => process.exit(0)));
})().catch((err) => { console.error(err); process.exit(1); });
`;

/** The store floor on this store: the most a Node process doing one look-up per request gets from it. */
export async function measureFloor(store: CostsStore, kind: StoreKind, seconds: number): Promise<void> {
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], {
    cwd: ROOT,
    env: { ...process.env, FLOOR_URL: store.url, FLOOR_DB: `floor_${Date.now().toString(36)}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as { port: number }));
      child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
    });
    const read = () => ({
      'floor server': cpuOfPid(child.pid),
      ferretdb: cpuOfPid(store.pid),
      'postgresql (this run’s database)': cpuOfDatabase(store.database),
      'load generator': process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
      machine: machineBusy(),
    });
    const load1 = os.loadavg()[0];
    const before = read();
    const r = await measure({ url: `http://127.0.0.1:${port}/`, connections: 50, duration: seconds });
    const after = read();
    floors.push({
      store: kind,
      seconds,
      answeredPerSecond: round3(r.rps),
      p95: round3(r.p95),
      non2xx: r.non2xx,
      errors: r.errors,
      loadAverageBefore: round3(load1),
      cpuMsPerRequest: perRequest(before, after, r.total),
    });
    console.log(`  store floor on ${kind}: ${Math.round(r.rps)} req/s, p95 ${r.p95.toFixed(1)} ms`);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
}

/** Writes what was recorded (nothing when no mixed load ran). */
export function writeCapacityCosts(): void {
  if (!runs.length && !floors.length) return;
  let frontEnd: CapacityCosts['frontEnd'] = [];
  try {
    frontEnd = measureSizes().map(({ what, bytes }) => ({ what, bytes }));
  } catch {
    // the front ends are not built: the model says so
  }
  const cpus = os.cpus();
  const costs: CapacityCosts = {
    measuredAt: startedAt,
    quick: QUICK,
    host: {
      cores: cpus.length,
      cpu: cpus[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverageAtEnd: round3(os.loadavg()[0]),
      note: process.env.BENCH_HOST_NOTE ?? '',
    },
    runs,
    floors,
    frontEnd,
  };
  mkdirSync(path.dirname(COSTS_FILE), { recursive: true });
  writeFileSync(COSTS_FILE, `${JSON.stringify(costs, null, 2)}\n`);
  console.log(`  capacity costs written to ${path.relative(process.cwd(), COSTS_FILE)}`);
}
