import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '@portal/contracts';
import {
  DEFAULT_POSTGRESQL_URL,
  dropPostgresDatabase,
  installFerretDB,
  preparePostgresDatabase,
  startFerretDB,
} from '@portal/devstack/store';
import { installGinTwins } from '@portal/devstack/ginTwins';
import { freePort } from '@portal/devstack/util';
import type { Stack } from '@portal/devstack/stack';
import { storeCounts, storeOpsSplit } from './storeOps';
import type { Figure } from './harness';
import { BROWSER, measure, pct, startPortal, type BenchPortal, type Measured } from './portal';
import { mixedFigures, mixedLoad, type MixedResult } from './mixed';
import { CAPACITY_REPLICAS, measureFloor, mixedWithReplicas, recordMixed, writeCapacityCosts } from './capacityCosts';

/**
 * The capacity targets (bench/README.md), side by side for FerretDB on PostgreSQL and on SQLite: each
 * store a private FerretDB of its own (on free ports; on PostgreSQL a private database, dropped at
 * the end), each with the whole portal on it, one store after the other so neither measures the
 * other's leftover work. `npm run bench -- capacity [figure ...] [postgresql|sqlite]` runs a subset.
 */
const QUICK = process.env.BENCH_QUICK === '1';
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const CAPACITY_FIGURES = ['mixed', 'outline', 'lesson', 'courses', 'browser', 'burst', 'audit'] as const;
export type CapacityFigure = (typeof CAPACITY_FIGURES)[number];
export const STORE_KINDS = ['postgresql', 'sqlite'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];
const STORE_LABEL: Record<StoreKind, string> = { postgresql: 'FerretDB/PostgreSQL', sqlite: 'FerretDB/SQLite' };

/** Seconds per figure: the full run's, or a few seconds with BENCH_QUICK=1 (it works; not a measurement). */
const seconds = (full: number) => (QUICK ? Math.min(full, 5) : full);

interface Cell {
  value: string;
  met?: boolean;
  note?: string;
}
export interface CapacityRow {
  figure: string;
  target: string;
  cells: Partial<Record<StoreKind, Cell>>;
}

class Table {
  readonly rows: CapacityRow[] = [];
  constructor(private readonly store: StoreKind) {}
  add(figure: string, target: string, cell: Cell) {
    let row = this.rows.find((r) => r.figure === figure);
    if (!row) this.rows.push((row = { figure, target, cells: {} }));
    row.cells[this.store] = cell;
  }
}

const ms = (n: number) => (Number.isFinite(n) ? `${round(n)} ms` : 'no answer');
const answered = (r: Measured) =>
  `${r.total} answers, ${round(r.rps, 0)} req/s, statuses ${JSON.stringify(r.statuses)}, errors/timeouts ${r.errors}`;

/* ------------------------------------------------------------------------------ where the CPU goes */

/** The fields of /proc/<pid>/stat after the command's name (field 3 is the first), or null when it is gone. */
function statOf(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). */
export function cpuOfPid(pid: number | undefined): number {
  const fields = pid ? statOf(pid) : null;
  return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : 0; // utime and stime, fields 14 and 15
}

/**
 * Every PostgreSQL process on this machine (the server FerretDB runs on): their CPU together, and
 * the backends that ended meanwhile, which their server has reaped into its children's time (cutime
 * and cstime): a sum of the living alone drops when a connection closes.
 */
function cpuOfPostgres(): number {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = statOf(Number(entry));
      if (!fields) continue;
      sum += (Number(fields[11]) + Number(fields[12])) / 100;
      const parent = Number(fields[1]);
      const parentIsPostgres = readFileSync(`/proc/${parent}/comm`, 'utf8').trim() === 'postgres';
      if (!parentIsPostgres) sum += (Number(fields[13]) + Number(fields[14])) / 100; // the server: its reaped backends
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** The process listening on a TCP port of this machine (the launcher's store when someone else started it), from /proc. */
export function pidListeningOn(port: number): number | undefined {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cells = line.trim().split(/\s+/);
      // local address, state 0A (LISTEN), the socket's inode
      if (cells[1]?.endsWith(`:${hexPort}`) && cells[3] === '0A') inodes.add(cells[9]);
    }
  }
  if (!inodes.size) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`));
        if (target && inodes.has(target[1])) return Number(entry);
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

/**
 * What the CPU split reads: the store's FerretDB and every PostgreSQL process, each process of the
 * stack, and this process (the load generator).
 */
export function stackCpuParts(stack: Stack, storePid?: number): () => Record<string, number> {
  return () => {
    const parts: Record<string, number> = { ferretdb: cpuOfPid(storePid), postgresql: cpuOfPostgres() };
    for (const [name, proc] of stack.processes) parts[name] = cpuOfPid(proc.child.pid);
    parts['load generator'] = process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
    return parts;
  };
}

/** CPU milliseconds per answered request in each process between two readings, largest first. */
export function cpuSplitNote(before: Record<string, number>, after: Record<string, number>, requests: number): string {
  const per = Object.keys(after)
    .map((name) => [name, ((after[name] - (before[name] ?? 0)) * 1000) / Math.max(requests, 1)] as const)
    .filter(([, msPer]) => msPer >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  return `CPU ms per request: ${per.map(([name, msPer]) => `${name} ${round(msPer, 2)}`).join(', ')}`;
}

/** The parts measured for the CPU split of the figure being measured; set for each store's run. */
let cpuParts: () => Record<string, number> = () => ({});
/** The services' requests and store commands by route, read from their /metrics; set for each store's run. */
let routeCounts: () => Promise<Awaited<ReturnType<typeof storeCounts>>> = () => Promise.resolve(new Map());
/** Records a mixed load's costs for the capacity model (capacityCosts.ts); set for each store's run. */
let recordCosts: (work: () => Promise<MixedResult>) => Promise<MixedResult> = (work) => work();

/**
 * A coarse profile of one figure: CPU milliseconds per answered request in each process, largest
 * first, so a missed figure names where its time goes.
 */
async function withCpuSplit<T extends { total: number }>(work: () => Promise<T>): Promise<{ result: T; split: string }> {
  const countsBefore = await routeCounts();
  const before = cpuParts();
  const result = await work();
  const after = cpuParts();
  const countsAfter = await routeCounts();
  return { result, split: `${cpuSplitNote(before, after, result.total)}; ${storeOpsSplit(countsBefore, countsAfter)}` };
}

/* ------------------------------------------------------------------------------ the stores */

interface BenchStore {
  url: string;
  /** The FerretDB process, for the CPU split. */
  pid?: number;
  /** On PostgreSQL, the run's database (its backends' CPU, apart from the server's other users). */
  database?: string;
  stop(): Promise<void>;
}

/** A FerretDB of our own for the run, on the given backend; stopping it drops everything it held. */
async function startPrivateStore(kind: StoreKind): Promise<BenchStore> {
  const binary = installFerretDB();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${kind}-`));
  if (kind === 'sqlite') {
    const proc = await startFerretDB(binary, port, dir, 'bench-ferretdb-sqlite');
    return {
      url: `mongodb://127.0.0.1:${port}`,
      pid: proc.child.pid,
      async stop() {
        await proc.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const postgresqlUrl = new URL(process.env.FERRETDB_POSTGRESQL_URL || DEFAULT_POSTGRESQL_URL);
  postgresqlUrl.pathname = `/bench_${Date.now().toString(36)}`;
  const refused = await preparePostgresDatabase(postgresqlUrl.toString());
  if (refused) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`no PostgreSQL for the bench (${refused}); set FERRETDB_POSTGRESQL_URL`);
  }
  // As the launcher does: FerretDB's own btree indexes cannot answer its pushed-down equalities (ginTwins.ts).
  await installGinTwins(postgresqlUrl.toString());
  const proc = await startFerretDB(binary, port, dir, 'bench-ferretdb-postgresql', { postgresqlUrl: postgresqlUrl.toString() });
  return {
    url: `mongodb://127.0.0.1:${port}`,
    pid: proc.child.pid,
    database: postgresqlUrl.pathname.slice(1),
    async stop() {
      await proc.stop();
      await dropPostgresDatabase(postgresqlUrl.toString());
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/* ------------------------------------------------------------------------------ the seeds */

/** 1,000 published courses with their counts, and the learner's marks on 60 of them (straight into the store). */
async function seedCourses(portal: BenchPortal, mongoUrl: string, learnerId: string): Promise<void> {
  const { createConnection, Types } = await import('mongoose');
  const { courseModel } = await import('@portal/svc-content/models/course');
  const { courseMarkModel } = await import('@portal/svc-content/models/courseMark');
  const store = await createConnection(mongoUrl, { dbName: `${portal.prefix}content` }).asPromise();
  try {
    const now = Date.now();
    const courses = Array.from({ length: 1000 }, (_, i) => ({
      _id: new Types.ObjectId(),
      title: `Курс компании ${i + 1}`,
      description: 'Обязательное обучение сотрудников',
      isPublished: true,
      status: 'published',
      publishedAt: new Date(now - i * 60_000),
      counts: { modules: 5, lessons: 20, visibleModules: 5, visibleLessons: 20 },
      createdAt: new Date(now - i * 60_000),
      updatedAt: new Date(now - i * 60_000),
    }));
    const model = courseModel(store);
    for (let i = 0; i < courses.length; i += 250) await model.insertMany(courses.slice(i, i + 250), { timestamps: false });
    const marks = courses
      .slice(0, 60)
      .map((c, i) => ({ userId: learnerId, courseId: c._id, kind: i % 2 ? 'started' : 'favorite' }));
    await courseMarkModel(store).insertMany(marks);
  } finally {
    await store.close();
  }
}

/** Audit records spread over the last year, by 20 people, straight into the audit service's database. */
async function seedAudit(portal: BenchPortal, mongoUrl: string, count: number): Promise<void> {
  const { createConnection } = await import('mongoose');
  const store = await createConnection(mongoUrl, { dbName: `${portal.prefix}audit` }).asPromise();
  try {
    const people = Array.from({ length: 20 }, (_, i) => ({
      id: randomUUID(),
      fullName: `Сотрудник Аудитов ${i + 1}`,
      email: `staff${i}@bench.test`,
    }));
    const now = Date.now();
    const year = 365 * 24 * 3600_000;
    // The event id is the record's _id (see the audit service's record model).
    const records = store.collection<{ _id: string }>('audit_records');
    for (let i = 0; i < count; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - i) }, (_, j) => {
        const id = randomUUID();
        const n = i + j;
        return {
          _id: id,
          eventId: id,
          service: 'content',
          action: AUDIT_ACTIONS[n % AUDIT_ACTIONS.length],
          entity: AUDIT_ENTITIES[(n * 7) % AUDIT_ENTITIES.length],
          entityId: String(n),
          details: `Запись журнала ${n}`,
          actor: people[n % people.length],
          actorId: people[n % people.length].id,
          timestamp: new Date(now - Math.floor((n / count) * year)),
          day: new Date(now - Math.floor((n / count) * year)).toISOString().slice(0, 10),
        };
      });
      await records.insertMany(batch, { ordered: false });
    }
    // The audit service summarised the days that are over when it started, before these records
    // were there (so as empty days). Stored here behind the worker's back, they are late records to
    // it: their days' summaries are made stale as the worker does for a late event, and the same
    // warm-up as at start counts them again, timed apart from the page figure.
    const { recordModel, TRAIL_VERSION } = await import('@portal/svc-audit/models/record');
    const { bumpVersion } = await import('@portal/service-kit');
    const { daySummaryModel, invalidateLateDays, warmDaySummaries } = await import('@portal/svc-audit/queries/daySummaries');
    const seededDays = Array.from({ length: 367 }, (_, d) => new Date(now - d * 24 * 3600_000).toISOString().slice(0, 10));
    await invalidateLateDays(daySummaryModel(store), seededDays, now);
    // And, as the worker does after a write, the history pages kept before are stale.
    await bumpVersion(store, TRAIL_VERSION);
    const t = Date.now();
    const days = await warmDaySummaries(recordModel(store), 1095);
    console.log(`  summarised ${days} days of the trail in ${round((Date.now() - t) / 1000)} s (the service does it at start)`);
  } finally {
    await store.close();
  }
}

/* ------------------------------------------------------------------------------ the figures */

const learnerHeaders = (portal: BenchPortal) => ({ authorization: `Bearer ${portal.learners[0]}`, ...BROWSER });

async function mixed(portal: BenchPortal, table: Table, figures: Figure[] | null) {
  const { result, split } = await withCpuSplit(async () => {
    const loaded = await recordCosts(() => mixedLoad(portal, seconds(60)));
    return Object.assign(loaded, { total: loaded.kinds.reduce((sum, k) => sum + k.r.total, 0) });
  });
  if (figures) mixedFigures(result, figures);
  const real = result.kinds.filter((k) => !k.expectBad);
  const rps = real.reduce((sum, k) => sum + k.r.total, 0) / result.seconds;
  const unexpected = real.reduce((sum, k) => sum + k.r.non2xx + k.r.errors, 0);
  table.add(`mixed (50 connections, ${result.duration} s): real traffic`, '≥ 500 req/s', {
    value: `${round(rps, 0)} req/s`,
    met: rps >= 500,
    note: `bad requests ${round(result.kinds.find((k) => k.expectBad)!.r.rps, 0)} req/s (paced at 50); ${split}`,
  });
  for (const { name, r } of real)
    table.add(`mixed p95: ${name}`, '≤ 250 ms', { value: ms(r.p95), met: r.p95 <= 250, note: `${round(r.rps, 0)} req/s` });
  table.add('mixed: non-2xx and errors of real traffic', '0', {
    value: String(unexpected),
    met: unexpected === 0,
    note: real
      .filter((k) => k.r.non2xx + k.r.errors)
      .map((k) => `${k.name}: ${JSON.stringify(k.r.statuses)}, errors ${k.r.errors}`)
      .join('; '),
  });
}

/** One route at 50 connections for a while: p95 against `limit`; 0 non-2xx and 0 errors required. */
async function route(
  table: Table,
  figure: string,
  limit: number,
  options: { url: string; headers?: Record<string, string>; paths?: string[] },
): Promise<Measured> {
  let refused = ''; // the first answer that was not a 2xx, so the note says what it was
  const { result: r, split } = await withCpuSplit(() =>
    measure({
      url: options.url,
      connections: 50,
      duration: seconds(15),
      headers: options.headers,
      requests: [
        {
          ...(options.paths ? { setupRequest: (req) => ({ ...req, path: pick(options.paths!) }) } : {}),
          onResponse: (status, body) => {
            if (status >= 300 && !refused) refused = `; first refusal ${status} ${body.slice(0, 120)}`;
          },
        },
      ],
    }),
  );
  const ok = r.non2xx === 0 && r.errors === 0 && r.total > 0;
  table.add(figure, `≤ ${limit} ms`, { value: ms(r.p95), met: r.p95 <= limit && ok, note: `${answered(r)}${refused}; ${split}` });
  return r;
}

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

async function outline(portal: BenchPortal, table: Table) {
  const figure = 'outline of a 50 × 20 × 10 course, p95 at 50 connections';
  const url = `${portal.gateway}/api/courses/${portal.bigCourseId}/outline`;
  const sample = await fetch(url, { headers: { authorization: `Bearer ${portal.learners[0]}`, 'accept-encoding': 'identity' } });
  const bytes = (await sample.arrayBuffer()).byteLength;
  if (sample.status === 404) {
    table.add(figure, '≤ 100 ms', { value: 'not available', note: 'the outline route answers 404 (not built yet)' });
    table.add('outline answer before compression', '≤ 300 KB', { value: 'not available' });
    return;
  }
  table.add('outline answer before compression', '≤ 300 KB', {
    value: `${round(bytes / 1000)} KB`,
    met: sample.status === 200 && bytes <= 300_000,
    note: `status ${sample.status}`,
  });
  await route(table, figure, 100, { url, headers: learnerHeaders(portal) });
}

async function lesson(portal: BenchPortal, table: Table) {
  await route(table, 'one lesson of 10 blocks (GET /api/blocks/{id}), p95 at 50 connections', 30, {
    url: portal.gateway,
    headers: learnerHeaders(portal),
    paths: portal.bigLessonIds.map((id) => `/api/blocks/${id}`),
  });
}

async function coursesPage(portal: BenchPortal, table: Table) {
  await route(table, 'a page of 20 of 1,000 courses, learner with marks, p95 at 50 connections', 100, {
    url: `${portal.gateway}/api/courses?page=1&limit=20`,
    headers: learnerHeaders(portal),
  });
}

async function auditPage(portal: BenchPortal, table: Table, count: number) {
  // The history screen's filters (entity, action, a period, newest first) in the reader's time zone.
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const base = '/api/audit?page=1&limit=20&sort=newest&tz=Europe%2FMoscow';
  await route(
    table,
    `an audit history page with filters over ${count.toLocaleString('en')} records, p95 at 50 connections`,
    300,
    {
      url: portal.gateway,
      headers: { authorization: `Bearer ${portal.admin}`, ...BROWSER },
      paths: [
        `${base}&entity=course`,
        `${base}&entity=course&action=update`,
        `${base}&startDate=${day(30)}&endDate=${day(0)}`,
        `${base}&entity=user&action=login&startDate=${day(180)}&endDate=${day(90)}`,
      ],
    },
  );
}

/** One request's latency, as a person clicking would see it. */
async function once(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number; error?: string }> {
  const started = performance.now();
  try {
    const answer = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    await answer.arrayBuffer();
    return { status: answer.status, ms: performance.now() - started };
  } catch (err) {
    // fetch's own message is «fetch failed»; the socket's code (ECONNREFUSED, EADDRNOTAVAIL…) is in its cause.
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, ms: performance.now() - started, error: cause?.code ?? cause?.message ?? (err as Error).name };
  }
}

/**
 * About 1,000 requests in flight for 20 s on the course list through the gateway; then a normal
 * request every 250 ms until its latency is back to what it was before the burst.
 */
async function burst(portal: BenchPortal, table: Table) {
  const url = `${portal.gateway}/api/courses?page=1&limit=20`;
  const headers = learnerHeaders(portal);
  const before: number[] = [];
  for (let i = 0; i < 20; i++) before.push((await once(url, headers)).ms);
  before.sort((a, b) => a - b);
  const normal = pct(before, 0.5);
  // "Back to normal": answered 200 within twice the quiet median (and never asked below 20 ms more).
  const normalLimit = Math.max(2 * normal, normal + 20);
  let withRetryAfter = 0;
  const duration = seconds(20);
  const r = await measure({
    url,
    connections: 1000,
    duration,
    timeout: 10,
    headers,
    requests: [
      {
        onResponse: (status, _body, _context, answerHeaders) => {
          if (status === 503 && Object.keys(answerHeaders ?? {}).some((k) => k.toLowerCase() === 'retry-after')) withRetryAfter++;
        },
      },
    ],
  });
  const ended = Date.now();
  let recovered = NaN;
  const probes: string[] = [];
  while (Date.now() - ended < 30_000) {
    const probe = await once(url, headers);
    probes.push(`${probe.status || probe.error}:${round(probe.ms, 0)}`);
    if (probe.status === 200 && probe.ms <= normalLimit) {
      recovered = Date.now() - ended;
      break;
    }
    await sleep(250);
  }
  const s503 = r.timesByStatus[503] ?? [];
  const others = Object.entries(r.statuses).filter(([status]) => status !== '200' && status !== '503');
  table.add(`burst (1,000 connections, ${duration} s): timeouts and errors`, '0', {
    value: String(r.errors),
    met: r.errors === 0,
    note: `answers ${JSON.stringify(r.statuses)}, ${round(r.rps, 0)} req/s`,
  });
  table.add('burst: answers other than 200 and 503', '0', {
    value: String(others.reduce((sum, [, n]) => sum + n, 0)),
    met: others.length === 0,
    note: `200: ${r.statuses[200] ?? 0}, 503: ${s503.length} (${withRetryAfter} with Retry-After)`,
  });
  table.add('burst: p99 of the 503s', '≤ 100 ms', {
    value: s503.length ? ms(pct(s503, 0.99)) : 'no 503',
    met: s503.length ? pct(s503, 0.99) <= 100 && withRetryAfter === s503.length : undefined,
    note: `${withRetryAfter} of ${s503.length} with Retry-After`,
  });
  table.add('burst: a normal request back to normal latency after', '≤ 2 s', {
    value: Number.isFinite(recovered) ? `${round(recovered / 1000, 2)} s` : 'not within 30 s',
    met: recovered <= 2000,
    note: `normal = 200 within ${round(normalLimit, 0)} ms (quiet median ${round(normal, 0)} ms); probes ${probes.slice(0, 12).join(' ')}`,
  });
}

/** The editor and study mode opening the big course in Chromium, until its first lesson shows. */
async function browser(portal: BenchPortal, table: Table) {
  const { chromium } = await import('playwright-core');
  const instance = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  try {
    const runs = QUICK ? 1 : 3;
    for (const [label, pathname, token] of [
      ['the editor', `/editor/${portal.bigCourseId}`, portal.admin],
      ['study mode', `/student/${portal.bigCourseId}`, portal.learners[0]],
    ] as const) {
      const times: number[] = [];
      let failure = '';
      for (let i = 0; i < runs; i++) {
        // A fresh context each time: nothing cached, signed in as after a login.
        const context = await instance.newContext();
        await context.addInitScript((t) => {
          // Runs in the page; the bench's tsconfig has no DOM types, hence the cast.
          (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
            'authToken',
            t,
          );
        }, token);
        const page = await context.newPage();
        try {
          const started = performance.now();
          await page.goto(`${portal.gateway}${pathname}`, { waitUntil: 'commit' });
          await page.getByText('Урок 1', { exact: true }).first().waitFor({ state: 'visible', timeout: 15_000 });
          times.push(performance.now() - started);
        } catch (err) {
          failure = `${(err as Error).message.split('\n')[0]} (at ${new URL(page.url()).pathname})`;
        } finally {
          await context.close();
        }
      }
      times.sort((a, b) => a - b);
      table.add(`${label} opens that course in Chromium, first lesson visible`, '≤ 1.5 s', {
        value: times.length ? `${round(pct(times, 0.5) / 1000, 2)} s` : 'not measured',
        met: times.length === runs && pct(times, 0.5) <= 1500,
        note: `median of ${times.length} of ${runs} run(s)${failure ? `; ${failure}` : ''}`,
      });
    }
  } finally {
    await instance.close();
  }
}

/* ------------------------------------------------------------------------------ the run */

/** Reads `capacity [figure ...] [store ...]` (or a figure's name alone) from the command's arguments. */
export function capacitySelection(args: string[]): { figures: CapacityFigure[]; stores: StoreKind[] } {
  const figures = args.filter((a): a is CapacityFigure => (CAPACITY_FIGURES as readonly string[]).includes(a));
  const stores = args.filter((a): a is StoreKind => (STORE_KINDS as readonly string[]).includes(a));
  return { figures: figures.length ? figures : [...CAPACITY_FIGURES], stores: stores.length ? stores : [...STORE_KINDS] };
}

/** Every selected figure on every selected store; the mixed load's own figures go to `figures` (first store). */
export async function capacity(
  redisUrl: string,
  selection: { figures: CapacityFigure[]; stores: StoreKind[] },
  figures: Figure[],
): Promise<CapacityRow[]> {
  const tables: Table[] = [];
  for (const kind of selection.stores) {
    const table = new Table(kind);
    tables.push(table);
    console.log(`\n  capacity on ${STORE_LABEL[kind]}`);
    const fail = (what: string, err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`  ${what} on ${STORE_LABEL[kind]} failed: ${message}`);
      table.add(`${what}: not measured`, '', { value: 'failed', met: false, note: message.slice(0, 200) });
    };
    let store: BenchStore;
    try {
      store = await startPrivateStore(kind);
    } catch (err) {
      fail('store', err);
      continue;
    }
    try {
      const started = Date.now();
      const portal = await startPortal(store.url, redisUrl);
      cpuParts = stackCpuParts(portal.stack, store.pid);
      routeCounts = () => storeCounts(portal.stack);
      recordCosts = (work) => recordMixed(portal.stack, store, kind, 1, work);
      console.log(`  portal up and seeded in ${round((Date.now() - started) / 1000)} s`);
      try {
        const profile = await fetch(`${portal.gateway}/api/auth/profile`, { headers: learnerHeaders(portal) });
        const learnerId = ((await profile.json()) as { user: { id: string } }).user.id;
        let coursesSeeded = false;
        const withCourses = async () => {
          if (coursesSeeded) return;
          const t = Date.now();
          await seedCourses(portal, store.url, learnerId);
          coursesSeeded = true;
          console.log(`  seeded 1,000 courses in ${round((Date.now() - t) / 1000)} s`);
        };
        for (const figure of selection.figures) {
          console.log(`  ${figure}...`);
          try {
            if (figure === 'mixed') await mixed(portal, table, kind === selection.stores[0] ? figures : null);
            if (figure === 'outline') await outline(portal, table);
            if (figure === 'lesson') await lesson(portal, table);
            if (figure === 'courses') await withCourses().then(() => coursesPage(portal, table));
            if (figure === 'browser') await browser(portal, table);
            if (figure === 'burst') await withCourses().then(() => burst(portal, table));
            if (figure === 'audit') {
              const count = QUICK ? 10_000 : 100_000;
              const t = Date.now();
              await seedAudit(portal, store.url, count);
              console.log(`  seeded ${count.toLocaleString('en')} audit records in ${round((Date.now() - t) / 1000)} s`);
              await auditPage(portal, table, count);
            }
          } catch (err) {
            fail(figure, err);
          }
        }
      } finally {
        await portal.stop();
      }
      // For the capacity model: the mixed load with more replicas, and the store floor, on this store.
      if (selection.figures.includes('mixed')) {
        for (const replicas of CAPACITY_REPLICAS.filter((n) => n > 1))
          await mixedWithReplicas(store, kind, redisUrl, replicas, seconds(60)).catch((err) =>
            fail(`mixed, ${replicas} replicas`, err),
          );
        await measureFloor(store, kind, seconds(15)).catch((err) => fail('store floor', err));
      }
    } catch (err) {
      fail('portal', err);
    } finally {
      await store.stop();
    }
  }
  writeCapacityCosts();
  // One row per figure, each store's value beside the others'.
  const rows: CapacityRow[] = [];
  for (const table of tables)
    for (const row of table.rows) {
      const found = rows.find((r) => r.figure === row.figure);
      if (found) Object.assign(found.cells, row.cells);
      else rows.push({ ...row, cells: { ...row.cells } });
    }
  return rows;
}

export function printCapacity(rows: CapacityRow[], stores: StoreKind[] = [...STORE_KINDS]): void {
  const verdict = (c?: Cell) => (c?.met === undefined ? '' : c.met ? 'met' : 'MISSED');
  const head = ['figure', 'target', ...stores.flatMap((s) => [STORE_LABEL[s], '']), 'note'];
  const lines = rows.map((r) => [
    r.figure,
    r.target,
    ...stores.flatMap((s) => [r.cells[s]?.value ?? '', verdict(r.cells[s])]),
    stores
      .map((s) => r.cells[s]?.note && `${stores.length > 1 ? `${s}: ` : ''}${r.cells[s]!.note}`)
      .filter(Boolean)
      .join(' | '),
  ]);
  const widths = head.map((h, i) => Math.min(i === 0 ? 78 : 40, Math.max(h.length, ...lines.map((l) => l[i].length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
  for (const s of stores) {
    const judged = rows.filter((r) => r.cells[s]?.met !== undefined);
    const missed = judged.filter((r) => r.cells[s]!.met === false);
    console.log(
      `${STORE_LABEL[s]}: ${judged.length - missed.length} of ${judged.length} targets met` +
        (missed.length ? `; missed: ${missed.map((r) => r.figure).join('; ')}` : ''),
    );
  }
}
