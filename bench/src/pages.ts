import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, type Figure } from './harness';
import type { BenchPortal } from './portal';

/** A page's cost in the browser: the JavaScript a first visit loads, and Lighthouse's reports. */
const ROOT = path.resolve(__dirname, '../..');
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const QUICK = process.env.BENCH_QUICK === '1';
/* ------------------------------------------------------------------ first-load JavaScript */

/** Loads the landing page in Chromium and sums the gzip size of every script it fetched, file by file. */
export async function firstLoad(portal: BenchPortal, figures: Figure[]) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox'],
  });
  const scripts = new Set<string>();
  try {
    const page = await browser.newPage();
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.add(new URL(res.url()).pathname);
    });
    await page.goto(`${portal.gateway}/`, { waitUntil: 'networkidle' });
  } finally {
    await browser.close();
  }
  let total = 0;
  const rows: Array<{ file: string; bytes: number }> = [];
  for (const urlPath of scripts) {
    const remote = /^\/mf\/([^/]+)\/(.+)$/.exec(urlPath);
    const file = remote ? path.join(ROOT, remote[1], 'dist', remote[2]) : path.join(ROOT, 'shell/dist', urlPath);
    if (!existsSync(file)) continue;
    const bytes = gzipSync(readFileSync(file), { level: 9 }).length;
    total += bytes;
    rows.push({ file: path.relative(ROOT, file), bytes });
  }
  rows.sort((a, b) => b.bytes - a.bytes);
  for (const row of rows)
    figures.push({
      name: `first load of /: ${row.file}`,
      value: round(row.bytes / 1024, 1),
      unit: 'KiB',
      ...(row.file.endsWith('remoteEntry.js') ? { budget: '≤ 8 KiB', limit: 8, met: row.bytes <= 8 * 1024 } : {}),
    });
  figures.push({
    name: `first load of /: shell + landing JavaScript (${rows.length} files)`,
    value: round(total / 1024, 1),
    unit: 'KiB',
    budget: '≤ 150 KiB gzip',
    limit: 150,
    met: total <= 150 * 1024 && rows.length > 0,
  });
}

/* ------------------------------------------------------------------------------- Lighthouse */

/** Lighthouse (desktop preset, the budget's) on the landing and, signed in as a learner, on /courses. */
/** A Chromium profile whose localStorage holds a learner's token, as after signing in. */
export async function learnerProfile(portal: BenchPortal): Promise<string> {
  const { chromium } = await import('playwright-core');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const profile = mkdtempSync(path.join(tmpdir(), 'bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--no-sandbox'],
  });
  const page = await context.newPage();
  await page.goto(`${portal.gateway}/`);
  // Runs in the page; the bench's tsconfig has no DOM types, hence the cast.
  await page.evaluate(
    (token) =>
      (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
        'authToken',
        token,
      ),
    portal.learners[0],
  );
  await context.close();
  return profile;
}

/** `runs` Lighthouse runs of one page: each figure's median, and the paths the runs ended on. */
async function lighthouseMedians(url: string, desktop: boolean, runs: number, profile?: string, cpuSlowdown?: number) {
  const { measure: lighthouseRun } = await import('./lighthouse');
  type Measurement = Awaited<ReturnType<typeof lighthouseRun>>['measurement'];
  const list: Measurement[] = [];
  // Lighthouse sometimes loses the page's trace (NO_NAVSTART); one more try before giving up.
  const once = () => lighthouseRun(url, desktop, undefined, profile, cpuSlowdown);
  for (let i = 0; i < runs; i++) list.push((await once().catch(once)).measurement);
  const med = (key: Exclude<keyof Measurement, 'finalUrl'>) => {
    const sorted = list.map((m) => m[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  return { med, finals: [...new Set(list.map((m) => new URL(m.finalUrl).pathname))] };
}

export async function lighthouse(portal: BenchPortal, figures: Figure[]) {
  const { rmSync } = await import('node:fs');
  const profile = await learnerProfile(portal);
  const runs = QUICK ? 1 : 3;
  try {
    for (const [label, url, prof] of [
      ['landing /', `${portal.gateway}/`, undefined],
      ['/courses, signed in', `${portal.gateway}/courses`, profile],
    ] as const) {
      const { med, finals } = await lighthouseMedians(url, true, runs, prof);
      // A signed-in page that sent Lighthouse to /auth measured the sign-in form, not the page.
      const note = `median of ${runs} run(s), desktop preset, measured ${finals.join(', ')}`;
      figures.push(
        {
          name: `Lighthouse ${label}: performance`,
          value: med('performance'),
          unit: '',
          budget: '≥ 95',
          limit: 95,
          atLeast: true,
          met: med('performance') >= 95 && finals.every((f) => f === new URL(url).pathname),
          note,
        },
        {
          name: `Lighthouse ${label}: LCP`,
          value: round(med('lcpMs'), 0),
          unit: 'ms',
          budget: '≤ 1,000 ms',
          limit: 1000,
          met: med('lcpMs') <= 1000,
        },
        {
          name: `Lighthouse ${label}: TBT`,
          value: round(med('tbtMs'), 0),
          unit: 'ms',
          budget: '≤ 100 ms',
          limit: 100,
          met: med('tbtMs') <= 100,
        },
        {
          name: `Lighthouse ${label}: CLS`,
          value: round(med('cls'), 3),
          unit: '',
          budget: '≤ 0.05',
          limit: 0.05,
          met: med('cls') <= 0.05,
        },
        {
          name: `Lighthouse ${label}: accessibility`,
          value: med('accessibility'),
          unit: '',
          budget: '≥ 95',
          limit: 95,
          atLeast: true,
          met: med('accessibility') >= 95,
        },
      );
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Lighthouse with its default mobile settings (a mid-range phone on slow 4G, the budget of bench/README.md) on the landing
 * and, signed in as a learner, on a study page: performance ≥ 90 and accessibility ≥ 95. The default
 * slows the CPU 4×, which makes a mid-tier phone of a high-end desktop (benchmarkIndex 1,500–2,000);
 * on a faster or slower host it emulates a faster or slower phone. So the performance is measured a
 * second time with the multiplier calibrated to this host (calibratedSlowdown: the same phone on any
 * host), with the same goal: the budget is met when both are.
 */
export async function lighthouseMobile(portal: BenchPortal, figures: Figure[]) {
  const { LIGHTHOUSE_GOALS, calibratedSlowdown } = await import('./lighthouse');
  const { rmSync } = await import('node:fs');
  const goals = LIGHTHOUSE_GOALS.mobile;
  const profile = await learnerProfile(portal);
  // Five: on this shared 2-core machine a single run's TBT varies by ±200 ms.
  const runs = QUICK ? 1 : 5;
  const pages = [
    ['landing /', `${portal.gateway}/`, undefined],
    ['study page, signed in', `${portal.gateway}/student/${portal.courses[0].id}`, profile],
  ] as const;
  // A signed-in page that sent Lighthouse to /auth measured the sign-in form, not the page.
  const performance = (name: string, value: number, url: string, finals: string[], note: string): Figure => ({
    name,
    value,
    unit: '',
    budget: `≥ ${goals.performance}`,
    limit: goals.performance,
    atLeast: true,
    met: value >= goals.performance && finals.every((f) => f === new URL(url).pathname),
    note,
  });
  try {
    const indexes: number[] = [];
    for (const [label, url, prof] of pages) {
      const { med, finals } = await lighthouseMedians(url, false, runs, prof);
      indexes.push(med('cpuIndex'));
      const note = `median of ${runs} run(s), mobile (slow 4G, CPU 4×), LCP ${Math.round(med('lcpMs'))} ms, TBT ${Math.round(med('tbtMs'))} ms, host CPU index ${Math.round(med('cpuIndex'))} (4× is calibrated for 1,500–2,000), measured ${finals.join(', ')}`;
      figures.push(performance(`Lighthouse mobile ${label}: performance`, med('performance'), url, finals, note), {
        name: `Lighthouse mobile ${label}: accessibility`,
        value: med('accessibility'),
        unit: '',
        budget: `≥ ${goals.accessibility}`,
        limit: goals.accessibility,
        atLeast: true,
        met: med('accessibility') >= goals.accessibility,
      });
    }
    // The same phone whatever the host: the multiplier from the host's CPU index in the runs above
    // (the mean of the two pages' medians).
    const hostIndex = indexes.reduce((a, b) => a + b, 0) / indexes.length;
    const slowdown = calibratedSlowdown(hostIndex);
    for (const [label, url, prof] of pages) {
      const { med, finals } = await lighthouseMedians(url, false, runs, prof, slowdown);
      const note = `median of ${runs} run(s), mobile (slow 4G), CPU ${slowdown}× for this host's index ${Math.round(hostIndex)} (4× × index ÷ 1,750), LCP ${Math.round(med('lcpMs'))} ms, TBT ${Math.round(med('tbtMs'))} ms`;
      figures.push(performance(`Lighthouse mobile ${label}, CPU calibrated: performance`, med('performance'), url, finals, note));
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
