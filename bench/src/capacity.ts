import { storeCounts, storeOpsSplit } from './storeOps';
import { QUICK, round, type Figure } from './harness';
import { BROWSER, measure, startPortal, type BenchPortal, type Measured } from './portal';
import { mixedFigures, mixedLoad, type MixedResult } from './mixed';
import { CAPACITY_REPLICAS, measureFloor, mixedWithReplicas, recordMixed, writeCapacityCosts } from './capacityCosts';
import { stackCpuParts, cpuSplitNote } from './cpuSplit';
import { Table, answered, learnerHeaders, ms, seconds, type CapacityRow, type Cell } from './capacityTable';
import { browser, burst } from './capacityProbes';
import { type BenchStore, startPrivateStore, seedCourses, seedAudit } from './capacityStores';

/**
 * The capacity targets (bench/README.md), side by side for FerretDB on PostgreSQL and on SQLite: each
 * store a private FerretDB of its own (on free ports; on PostgreSQL a private database, dropped at
 * the end), each with the whole portal on it, one store after the other so neither measures the
 * other's leftover work. `npm run bench -- capacity [figure ...] [postgresql|sqlite]` runs a subset.
 */

export const CAPACITY_FIGURES = ['mixed', 'outline', 'lesson', 'courses', 'browser', 'burst', 'audit'] as const;
export type CapacityFigure = (typeof CAPACITY_FIGURES)[number];
export const STORE_KINDS = ['postgresql', 'sqlite'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];
const STORE_LABEL: Record<StoreKind, string> = { postgresql: 'FerretDB/PostgreSQL', sqlite: 'FerretDB/SQLite' };

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

/* ------------------------------------------------------------------------------ the figures */

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
