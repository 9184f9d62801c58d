import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue, type Worker } from 'bullmq';
import { AUDIT_QUEUE } from '@portal/contracts';
import { AuditPublisher, createLogger, createRedis, op } from '@portal/service-kit';
import { uniquePrefix } from '@portal/devstack/testing';
import { secretsEnv } from '@portal/devstack/secrets';
import { ensureRedis, ensureStore } from '@portal/devstack/store';
import { startAudit } from '@portal/svc-audit/testing';
import { recordModel } from '@portal/svc-audit/models/record';
import { interleaved, load, median, printFigures, QUICK, type Figure } from './harness';
import { capacity, capacitySelection, CAPACITY_FIGURES, printCapacity, STORE_KINDS } from './capacity';
import type { CapacityRow } from './capacityTable';
import { courseDetail, startPortal } from './portal';
import { mixedLoad } from './mixed';
import { firstLoad, lighthouse, lighthouseMobile } from './pages';
import { countDuplicates, DUPLICATES_GOAL } from './duplicates';
import { scormFigures } from './scorm';
import { directoryFigures } from './directory';
import { programFigures } from './programs';
import { versionFigures } from './versions';
import type { ExamStormResult } from './examStormTypes';
import { examStormPart } from './examStormPart';
import { measureSizes } from './sizes';
import { refusalFigures } from './refusals';
import { gatewayCostFigures } from './gatewayCost';
import { rewriteFigures } from './rewrite';

const ROOT = path.resolve(__dirname, '../..');
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

function startTargets(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; info: Record<string, string | number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        '--conditions=source',
        '--tsconfig',
        path.join(__dirname, '../tsconfig.json'),
        path.join(__dirname, 'targets.ts'),
        ...args,
      ],
      {
        env: { ...process.env, ...env, LOG_LEVEL: 'silent', TEST_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child.stdout!.once('data', (chunk: Buffer) => resolve({ child, info: JSON.parse(chunk.toString()) }));
    child.once('exit', (code) => reject(new Error(`targets exited with ${code}`)));
  });
}

/**
 * The mixed load against one and then two processes of every service, in one run on one store (issue
 * 17). On this 2-core machine a second replica adds processes, not cores: the figure shows what the
 * balancing costs, and the kill test in packages/system-tests shows what it buys.
 */
async function replicaLoad(mongoUrl: string, redisUrl: string, figures: Figure[]) {
  const duration = QUICK ? 10 : 30;
  for (const replicas of [1, 2]) {
    const portal = await startPortal(mongoUrl, redisUrl, { replicas });
    try {
      const result = await mixedLoad(portal, duration);
      const real = result.kinds.filter((k) => !k.expectBad);
      const total = real.reduce((sum, k) => sum + k.r.total, 0);
      const unexpected = real.reduce((sum, k) => sum + k.r.non2xx + k.r.errors, 0);
      figures.push({
        name: `mixed load with ${replicas} replica(s) of every service: real traffic`,
        value: round(total / result.seconds, 0),
        unit: 'req/s',
        note: `${duration} s at 50 connections; non-2xx and errors ${unexpected} (${real
          .filter((k) => k.r.non2xx + k.r.errors)
          .map((k) => `${k.name.split(' (')[0]}: ${JSON.stringify(k.r.statuses)}, errors ${k.r.errors}`)
          .join('; ')}); p95 ${real.map((k) => `${k.name.split(' (')[0]} ${round(k.r.p95, 0)} ms`).join(', ')}`,
      });
    } finally {
      await portal.stop();
    }
  }
}

async function throughput(figures: Figure[]) {
  const { child: targets, info } = await startTargets([]);
  const upstream = `http://127.0.0.1:${info.bare}`;
  const { child: gw, info: gwInfo } = await startTargets(['gateway'], { UPSTREAM: upstream });
  try {
    const auth = { authorization: `Bearer ${info.token}` };
    const results = await interleaved({
      bareHttp: () => load(`${upstream}/bench`),
      serviceRoute: () => load(`http://127.0.0.1:${info.service}/bench?q=hr&page=2`, { headers: auth }),
      bareExpress: () => load(`http://127.0.0.1:${info.bareExpress}/bench`),
      gateway: () => load(`http://127.0.0.1:${gwInfo.gateway}/api/courses`),
    });
    const paced = await interleaved({
      direct: () => load(`${upstream}/api/courses`, { overallRate: 1000, connections: 20, duration: 5 }),
      viaGateway: () =>
        load(`http://127.0.0.1:${gwInfo.gateway}/api/courses`, { overallRate: 1000, connections: 20, duration: QUICK ? 2 : 5 }),
    });
    const serviceRatio = results.serviceRoute.rps / results.bareHttp.rps;
    const gatewayRatio = results.gateway.rps / results.bareExpress.rps;
    const addedP50 = paced.viaGateway.p50 - paced.direct.p50;
    const addedP99 = paced.viaGateway.p99 - paced.direct.p99;
    figures.push(
      { name: 'bare node http (req/s, 50 connections)', value: round(results.bareHttp.rps, 0), unit: 'req/s' },
      {
        name: 'service route: auth + zod validation, no store (req/s)',
        value: round(results.serviceRoute.rps, 0),
        unit: 'req/s',
        note: `errors ${results.serviceRoute.errors}, non-2xx ${results.serviceRoute.non2xx}`,
      },
      {
        name: 'service route / bare http',
        value: round(serviceRatio),
        unit: '×',
        budget: '≥ 0.5×',
        limit: 0.5,
        atLeast: true,
        met: serviceRatio >= 0.5,
      },
      { name: 'bare Express route (req/s)', value: round(results.bareExpress.rps, 0), unit: 'req/s' },
      {
        name: 'gateway in front of a service (req/s)',
        value: round(results.gateway.rps, 0),
        unit: 'req/s',
        note: `errors ${results.gateway.errors}, non-2xx ${results.gateway.non2xx}`,
      },
      {
        name: 'gateway / bare Express',
        value: round(gatewayRatio),
        unit: '×',
        budget: '≥ 0.8×, 0 errors',
        limit: 0.8,
        atLeast: true,
        met: gatewayRatio >= 0.8 && results.gateway.errors === 0 && results.gateway.non2xx === 0,
      },
      {
        name: 'gateway added latency at 1,000 req/s, p50',
        value: round(addedP50),
        unit: 'ms',
        budget: '≤ 0.5 ms',
        limit: 0.5,
        met: addedP50 <= 0.5,
      },
      {
        name: 'gateway added latency at 1,000 req/s, p99',
        value: round(addedP99),
        unit: 'ms',
        budget: '≤ 3 ms',
        limit: 3,
        met: addedP99 <= 3,
      },
    );
  } finally {
    targets.kill('SIGTERM');
    gw.kill('SIGTERM');
  }
}

async function audit(figures: Figure[]) {
  const logger = createLogger('bench', 'silent');
  const redisUrl = process.env.REDIS_URL!;
  const prefix = uniquePrefix();
  // Enqueue cost as a request sees it: publish() only appends to the buffer.
  const { createServiceContext, closeServiceContext, baseConfigSchema } = await import('@portal/service-kit');
  const ctx = await createServiceContext(
    'progress',
    baseConfigSchema.parse({ ...process.env, DB_PREFIX: prefix, QUEUE_PREFIX: prefix.slice(0, -1), LOG_LEVEL: 'silent' }),
    { logger },
  );
  const publisher: AuditPublisher = ctx.audit;
  const publishTimes: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t = process.hrtime.bigint();
    publisher.publish({ code: 'audit.exported', data: { file: 'bench.csv' }, entityId: String(i), actor: null });
    publishTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (i % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  await publisher.flush();
  const queue = new Queue(AUDIT_QUEUE, { connection: createRedis(redisUrl, logger), prefix: `${prefix}raw` });
  const addTimes: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = process.hrtime.bigint();
    await queue.add('bench', { i }, { jobId: randomUUID(), removeOnComplete: true });
    addTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  await queue.obliterate({ force: true });
  await queue.close();
  await closeServiceContext(ctx);
  const p95 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length * 0.95)];
  figures.push(
    {
      name: 'audit publish() added to a request, p95',
      value: round(p95(publishTimes), 4),
      unit: 'ms',
      budget: '≤ 0.5 ms',
      limit: 0.5,
      met: p95(publishTimes) <= 0.5,
    },
    {
      name: 'BullMQ single add round trip (for reference), p50 / p95',
      value: round(median(addTimes), 3),
      unit: 'ms',
      note: `p95 ${round(p95(addTimes), 3)} ms`,
    },
  );

  for (const concurrency of [1, 4]) {
    const n = 5000;
    const qPrefix = uniquePrefix();
    const audit = await startAudit({ QUEUE_PREFIX: qPrefix.slice(0, -1) });
    await audit.worker.close(); // fill the queue first, then drain it with a fresh worker
    const feeder = new Queue(AUDIT_QUEUE, { connection: createRedis(redisUrl, logger), prefix: qPrefix.slice(0, -1) });
    const events = Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      service: 'bench',
      action: 'create' as const,
      entity: 'course' as const,
      entityId: String(i),
      details: 'bench',
      actor: { id: 'u', fullName: 'Bench', email: 'b@x.test' },
      timestamp: new Date().toISOString(),
    }));
    for (let i = 0; i < n; i += 1000) {
      await feeder.addBulk(
        events.slice(i, i + 1000).map((data) => ({ name: 'create', data, opts: { jobId: data.id, removeOnComplete: true } })),
      );
    }
    const { startAuditWorker, AUDIT_BATCH_SIZE } = await import('@portal/svc-audit/queues/worker');
    const records = recordModel(audit.ctx.store);
    const connection = createRedis(redisUrl, logger);
    const started = Date.now();
    // A job completes only once its event is in the store, so completions are stored events; counting
    // them costs the store nothing, where polling countDocuments would scan the collection on FerretDB.
    let completed = 0;
    let finished: () => void = () => undefined;
    const allDone = new Promise<void>((resolve) => (finished = resolve));
    const worker: Worker = startAuditWorker(connection, records, logger, { concurrency, prefix: qPrefix.slice(0, -1) });
    worker.on('completed', () => {
      if (++completed === n) finished();
    });
    await allDone;
    const rate = n / ((Date.now() - started) / 1000);
    await worker.close();
    const stored = await records.countDocuments({ service: op({ $eq: 'bench' }) });
    connection.disconnect();
    await feeder.obliterate({ force: true });
    await feeder.close();
    await audit.close();
    figures.push({
      name: `audit worker into the store, concurrency ${concurrency} (events/s)`,
      value: round(rate, 0),
      unit: 'ev/s',
      ...(concurrency === 4 ? { budget: '≥ 2,000 ev/s', limit: 2000, atLeast: true, met: rate >= 2000 && stored === n } : {}),
      note: `${n} events, ${stored} in the store after; ${concurrency} store write(s) in flight, up to ${AUDIT_BATCH_SIZE} events each`,
    });
  }
}

async function main() {
  const store = await ensureStore();
  const redis = await ensureRedis();
  process.env.MONGO_URL = store.url;
  process.env.REDIS_URL = redis.url;
  // The services the benchmarks start in this process and in targets.ts read the launcher's secrets.
  Object.assign(process.env, secretsEnv());
  const figures: Figure[] = [];
  let capacityRows: CapacityRow[] = [];
  let examStorm: ExamStormResult | null = null;
  const args = process.argv.slice(2);
  const only = args[0];
  // `capacity`, or one of its figures or stores alone (`npm run bench -- mixed`, `… -- capacity burst sqlite`).
  const capacityArgs = [...CAPACITY_FIGURES, ...STORE_KINDS] as readonly string[];
  const selection = capacitySelection(args);
  try {
    if (!only || only === 'http') await throughput(figures);
    if (!only || only === 'audit') await audit(figures);
    if (!only || only === 'sizes') {
      for (const row of measureSizes()) {
        figures.push({
          name: `gzip: ${row.what}`,
          value: round(row.bytes / 1024, 1),
          unit: 'KiB',
          ...(row.budget ? { budget: `≤ ${row.budget / 1024} KiB`, limit: row.budget / 1024, met: row.bytes <= row.budget } : {}),
        });
      }
    }
    if (!only || only === 'duplicates') {
      const { pairs, files } = countDuplicates();
      figures.push({
        name: 'duplicates: pairs in production code',
        value: pairs,
        unit: 'pairs',
        budget: `≤ ${DUPLICATES_GOAL}`,
        limit: DUPLICATES_GOAL,
        met: pairs <= DUPLICATES_GOAL,
        note: `${files} files read (tests, journeys, bench and launcher left out)`,
      });
    }
    if (!only || ['portal', 'detail', 'firstload', 'lighthouse', 'mobile', 'scorm'].includes(only)) {
      const portal = await startPortal(store.url, redis.url);
      const step = async (name: string, work: () => Promise<void>) => {
        if (only && only !== 'portal' && only !== name) return;
        try {
          await work();
        } catch (err) {
          // One part failing (no browser, no network for Lighthouse) must not lose the other figures.
          console.error(`  ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
          figures.push({ name: `${name}: not measured`, value: NaN, unit: '', met: false, note: String(err).slice(0, 200) });
        }
      };
      try {
        await step('detail', () => courseDetail(portal, figures));
        await step('firstload', () => firstLoad(portal, figures));
        await step('lighthouse', () => lighthouse(portal, figures));
        await step('mobile', () => lighthouseMobile(portal, figures));
        await step('scorm', () => scormFigures(portal, figures));
      } finally {
        await portal.stop();
      }
    }
    if (only === 'replicas') await replicaLoad(store.url, redis.url, figures);
    if (!only || only === 'refusals') await refusalFigures(figures);
    if (!only || only === 'gateway') await gatewayCostFigures(figures);
    if (!only || only === 'directory') await directoryFigures(figures);
    if (!only || only === 'programs') await programFigures(figures);
    if (!only || only === 'versions') await versionFigures(figures);
    if (!only || only === 'rewrite') await rewriteFigures({ url: store.url, pid: store.process?.child.pid }, figures);
    if (!only || only === 'examstorm') {
      try {
        examStorm = await examStormPart({ url: store.url, pid: store.process?.child.pid }, redis.url, figures);
      } catch (err) {
        console.error(`  examstorm failed: ${err instanceof Error ? err.message : String(err)}`);
        figures.push({ name: 'exam storm: not measured', value: NaN, unit: '', met: false, note: String(err).slice(0, 200) });
      }
    }
    if (!only || only === 'capacity' || capacityArgs.includes(only)) capacityRows = await capacity(redis.url, selection, figures);
  } finally {
    await Promise.all([store.process?.stop(), redis.process?.stop()]);
  }
  console.log('');
  if (figures.length) printFigures(figures);
  if (capacityRows.length) {
    console.log('\nCapacity: each figure beside its target, FerretDB on PostgreSQL and on SQLite\n');
    printCapacity(capacityRows, selection.stores);
  }
  const dir = path.join(ROOT, '.data/reports');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'bench.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        quick: QUICK,
        only: args.join(' ') || null,
        figures,
        capacity: capacityRows,
        ...(examStorm ? { examStorm } : {}),
      },
      null,
      2,
    ),
  );
  console.log(`\nwritten to ${path.relative(process.cwd(), path.join(dir, 'bench.json'))}`);
  process.exit(0);
}

void main();
