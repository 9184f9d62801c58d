/**
 * The gateway's refusals alone (BUDGETS: «burst 503 p99 ≤ 100 ms»): one gateway process in front of an
 * upstream that holds every request it gets, so that all but one request per service are refused
 * by the in-flight bound; 1,000 connections for 10 s; the 503s' latency and rate, and where the
 * gateway's CPU goes (its own --cpu-prof, self time by function).
 *
 * A closed loop of N connections waits N / rate on average (Little's law), whatever the server does
 * per request: 1,000 connections answered within 100 ms need 10,000 refusals a second. The figure
 * says how many such processes that takes at the measured rate per process: the chart's gateway HPA
 * and replica count (docs/capacity.md).
 *
 *   npm run bench -- refusals
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Figure } from './harness';
import { QUICK } from './harness';
import { measure, pct } from './portal';

const ROOT = path.resolve(__dirname, '../..');
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const CONNECTIONS = 1000;
const TARGET_P99_MS = 100;

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds from the sample before (the first: from startTime). */
  timeDeltas: number[];
}

/**
 * Self time by function (ms) within a window of the profile (ms from its start), the heaviest
 * first, and the share of the window that was idle.
 */
export function selfTimes(
  profile: CpuProfile,
  window: { fromMs: number; toMs: number },
  top = 12,
): { rows: Array<{ what: string; ms: number }>; idleShare: number } {
  const msOf = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] / 1000;
    at += delta;
    if (at >= window.fromMs && at <= window.toMs) msOf.set(id, (msOf.get(id) ?? 0) + delta);
  });
  const byWhat = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const ms = msOf.get(node.id) ?? 0;
    if (!ms) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += ms;
    const file = url ? `${url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '')}:${lineNumber + 1}` : '';
    const what = `${functionName || '(anonymous)'}${file ? ` ${path.relative(ROOT, file).startsWith('..') ? file : path.relative(ROOT, file)}` : ''}`;
    byWhat.set(what, (byWhat.get(what) ?? 0) + ms);
  }
  const total = [...byWhat.values()].reduce((sum, ms) => sum + ms, 0);
  const rows = [...byWhat.entries()]
    .filter(([what]) => !what.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([what, ms]) => ({ what, ms: round(ms) }));
  return { rows, idleShare: total ? idle / total : 0 };
}

/** An upstream that answers nothing until it is closed: every request it takes stays in flight. */
async function holdingUpstream() {
  const held: ServerResponse[] = [];
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => void held.push(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | null = null;
  const close = () => (closed ??= closeOnce());
  const closeOnce = () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, close, held: () => held.length };
}

/** One gateway process (from its build) with every service at `upstream`, profiled into `profileDir` when given. */
export async function startGateway(
  upstream: string,
  port: number,
  { profileDir, env = {} }: { profileDir?: string; env?: Record<string, string> } = {},
) {
  const child = spawn(
    process.execPath,
    [...(profileDir ? [`--cpu-prof`, `--cpu-prof-dir=${profileDir}`] : []), path.join(ROOT, 'gateway/dist/index.js')],
    {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        METRICS_PORT: '0',
        ...Object.fromEntries(['AUTH', 'CONTENT', 'PROGRESS', 'CRM', 'AUDIT'].map((name) => [`${name}_URL`, upstream])),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the gateway did not answer /healthz within 10 s');
}

export async function refusalFigures(figures: Figure[]): Promise<void> {
  const profileDir = mkdtempSync(path.join(tmpdir(), 'refusals-'));
  const upstream = await holdingUpstream();
  const port = Number(process.env.BENCH_PORT_OFFSET ?? 600) + 8900;
  const spawned = performance.now();
  // One request per service in flight: all the rest is refused.
  const gateway = await startGateway(upstream.url, port, { profileDir, env: { UPSTREAM_MAX_IN_FLIGHT: '1' } });
  const duration = QUICK ? 5 : 10;
  let exited: Promise<unknown> | null = null;
  try {
    // The profile's clock starts with the process: its start-up is left out of the figures.
    const burst = { fromMs: performance.now() - spawned, toMs: 0 };
    const r = await measure({
      url: `${gateway.url}/api/courses?page=1&limit=20`,
      connections: CONNECTIONS,
      duration,
      timeout: 10,
    });
    burst.toMs = performance.now() - spawned;
    const refused = r.timesByStatus[503] ?? [];
    const rate = refused.length / duration;
    const p99 = pct(refused, 0.99);
    // The upstream never answers what it holds (one request per service): those few end in the
    // client's timeout by design, and are not refusals that went wrong.
    const unexplained = Math.max(0, r.errors - upstream.held());
    const needed = Math.ceil(CONNECTIONS / ((TARGET_P99_MS / 1000) * Math.max(rate, 1)));
    figures.push({
      name: `refusals: p99 of the 503s, one gateway process, ${CONNECTIONS} connections`,
      value: round(p99),
      unit: 'ms',
      budget: `≤ ${TARGET_P99_MS} ms`,
      limit: TARGET_P99_MS,
      met: p99 <= TARGET_P99_MS && unexplained === 0,
      note: `p50 ${round(pct(refused, 0.5))} ms; ${JSON.stringify(r.statuses)} in ${duration} s, errors ${r.errors} (${upstream.held()} held by the upstream by design); Little's law: ${CONNECTIONS} connections / ${round(rate)} refusals a second = ${round((CONNECTIONS / Math.max(rate, 1)) * 1000)} ms on average`,
    });
    figures.push({
      name: 'refusals: answered per second by one gateway process',
      value: round(rate),
      unit: 'req/s',
      note: `${CONNECTIONS} connections within ${TARGET_P99_MS} ms need ${round((CONNECTIONS * 1000) / TARGET_P99_MS)} a second: ${needed} gateway process(es) at this rate`,
    });
    await upstream.close();
    exited = new Promise((resolve) => gateway.child.once('exit', resolve));
    gateway.child.kill('SIGTERM');
    await exited;
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const { rows, idleShare } = selfTimes(JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile, burst);
      figures.push({
        name: 'refusals: the gateway busy (not idle) during the burst',
        value: round((1 - idleShare) * 100),
        unit: '%',
        note: `self time by function: ${rows.map((row) => `${row.what} ${row.ms} ms`).join('; ')}`,
      });
    }
  } finally {
    if (!exited) gateway.child.kill('SIGKILL');
    await upstream.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}
