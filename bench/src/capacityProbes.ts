import { measure, pct, type BenchPortal } from './portal';
import { Table, learnerHeaders, ms, seconds } from './capacityTable';
import { CHROMIUM, QUICK, round } from './harness';
import { sleep } from '@portal/devstack/util';

/* The capacity bench's burst of refusals and its signed-in browser beside the load. */

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
export async function burst(portal: BenchPortal, table: Table) {
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
export async function browser(portal: BenchPortal, table: Table) {
  const { chromium } = await import('playwright-core');
  const instance = await chromium.launch({
    executablePath: CHROMIUM,
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
