/**
 * Lighthouse on the landing page: performance and accessibility scores with LCP, TBT and CLS, in
 * headless Debian Chromium against the production build served by the gateway.
 *
 *   tsx --conditions=source --tsconfig bench/tsconfig.json bench/src/lighthouse.ts [url] [--runs N] [--desktop] [--save report.json]
 *   tsx … bench/src/lighthouse.ts --compare before=/tmp/before after=. [--runs N] [--desktop] [--save dir]
 *
 * --cpu-slowdown N replaces the preset's CPU multiplier (the mobile bench uses calibratedSlowdown).
 *
 * With a URL it measures that running portal. Without one it starts the stack from the built
 * output on offset ports (LIGHTHOUSE_PORT_OFFSET, default 500, beside a developer's portal and the
 * e2e stack), measures `/`, and stops it again. Build first (`npm run build`) so the numbers are
 * those of the current code.
 *
 * Lighthouse is the bench's dependency, pinned at 12.8.2, the newest release whose engines admit
 * Node 20 (13.x needs Node 22.19); its CLI starts Chromium through chrome-launcher, which takes the
 * browser the bench names (CHROMIUM, harness.ts), so nothing is downloaded. Scores
 * vary from run to run, so each figure printed is the median of the runs. A benchmark, never part of
 * the test command.
 *
 * --compare measures several builds of the front ends side by side in one run: each name=folder holds
 * a copy of `shell/dist` and `mf-*\/dist` (a checkout, or a folder the dists were copied to). One
 * portal (the bench's, seeded, on BENCH_PORT_OFFSET) serves them through a link its STATIC_ROOT names,
 * switched between the builds; the landing and the study page are measured in interleaved rounds
 * (A B, A B, …), so a busy moment of the shared machine falls on every build alike, and each figure
 * is the median of its runs. --save keeps every report in that folder.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_PORTS } from '@portal/contracts';
import { startStack, type Stack } from '@portal/devstack/stack';
import { ensureRedis, ensureStore } from '@portal/devstack/store';
import { portAnswers, ROOT } from '@portal/devstack/util';
import { buildsIn, servedBuilds, type Build } from './builds';
import { CHROMIUM } from './harness';

const LIGHTHOUSE = 'lighthouse 12.8.2';
/** The CLI of the installed package (an ES module, so it runs in a node of its own rather than imported here). */
const LIGHTHOUSE_CLI = path.join(ROOT, 'node_modules/lighthouse/cli/index.js');
/** The budgets (BUDGETS.md): desktop on / and /courses, mobile on / and a study page. */
export const LIGHTHOUSE_GOALS = {
  desktop: { performance: 95, accessibility: 95 },
  mobile: { performance: 90, accessibility: 95 },
} as const;

/**
 * The host Lighthouse's default 4× CPU slowdown assumes: the middle of the high-end desktop bracket
 * (benchmarkIndex 1,500–2,000, docs/throttling.md), which 4× turns into a mid-tier phone.
 */
const CALIBRATED_FOR_INDEX = 1750;
const DEFAULT_SLOWDOWN = 4;

/**
 * The slowdown that emulates the same phone on this host: 4× scaled by how much faster or slower its
 * CPU is than the host 4× assumes (Lighthouse's own advice, "Calibrating the CPU slowdown": a higher
 * multiplier at the high end of a bracket, a lower one at the low end), to one decimal, never below 1.
 */
export function calibratedSlowdown(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) return DEFAULT_SLOWDOWN;
  return Math.max(1, Math.round((DEFAULT_SLOWDOWN * benchmarkIndex * 10) / CALIBRATED_FOR_INDEX) / 10);
}

export interface Measurement {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /**
   * Lighthouse's benchmarkIndex of the host's CPU in this run. Its 4× slowdown is calibrated for a
   * high-end desktop (1,500–2,000); on a slower host the same page blocks longer, so TBT and the
   * score are read beside it.
   */
  cpuIndex: number;
  /** Where the page ended up (a guarded page without a token ends on /auth). */
  finalUrl: string;
}

interface LighthouseReport {
  finalDisplayedUrl?: string;
  finalUrl?: string;
  categories: Record<'performance' | 'accessibility', { score: number | null }>;
  audits: Record<string, { numericValue?: number; score?: number | null; title?: string; details?: { items?: unknown[] } }>;
  runWarnings?: string[];
  environment?: { benchmarkIndex?: number };
}

const run = promisify(execFile);

function parseArgs(argv: string[]) {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of runs, 1 or more');
  const valueOf = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const compare = argv.includes('--compare') ? buildsIn(argv) : null;
  const url = argv.find(
    (a, i) => !a.startsWith('--') && !a.includes('=') && !['--runs', '--save', '--cpu-slowdown'].includes(argv[i - 1]),
  );
  const slowdown = valueOf('--cpu-slowdown');
  const cpuSlowdown = slowdown === undefined ? undefined : Number(slowdown);
  if (cpuSlowdown !== undefined && !(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown takes a multiplier of 1 or more');
  // --save keeps the last run's full report, to see which requests and scripts the figures come from.
  return { url, runs, desktop: argv.includes('--desktop'), save: valueOf('--save'), compare, cpuSlowdown };
}

/**
 * One Lighthouse run with its default (mobile, simulated slow 4G) or desktop settings. With
 * `profile`, Chromium runs on that prepared profile and Lighthouse keeps its storage (a signed-in
 * page needs the token the profile's localStorage holds). `cpuSlowdown` replaces the preset's CPU
 * multiplier (see calibratedSlowdown).
 */
export async function measure(
  url: string,
  desktop: boolean,
  save?: string,
  profile?: string,
  cpuSlowdown?: number,
): Promise<{ measurement: Measurement; failed: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
  const output = path.join(dir, 'report.json');
  // Every run starts from a copy of the prepared profile: otherwise the first run fills the cache
  // the next ones load from, and the runs measure different things.
  if (profile) cpSync(profile, path.join(dir, 'profile'), { recursive: true });
  try {
    await run(
      process.execPath,
      [
        LIGHTHOUSE_CLI,
        url,
        '--output=json',
        `--output-path=${output}`,
        '--only-categories=performance,accessibility',
        `--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking${profile ? ` --user-data-dir=${path.join(dir, 'profile')}` : ''}`,
        ...(profile ? ['--disable-storage-reset'] : []),
        '--quiet',
        ...(desktop ? ['--preset=desktop'] : []),
        ...(cpuSlowdown ? [`--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`] : []),
        ...(save ? ['--save-assets'] : []),
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
    );
    const text = readFileSync(output, 'utf8');
    if (save) {
      writeFileSync(save, text);
      // The page's trace beside it (--save-assets), to see what each of the main thread's tasks did.
      const trace = path.join(dir, 'report-0.trace.json');
      if (existsSync(trace)) cpSync(trace, save.replace(/\.json$/, '') + '.trace.json');
    }
    const report = JSON.parse(text) as LighthouseReport;
    const score = (name: 'performance' | 'accessibility') => Math.round((report.categories[name].score ?? 0) * 100);
    const value = (audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;
    // Accessibility audits that failed, so a low score says what to fix.
    const failed = Object.entries(report.audits)
      .filter(([, a]) => a.score === 0 && (a.details?.items?.length ?? 0) > 0)
      .map(([id, a]) => `${id}: ${a.title ?? ''}`);
    return {
      measurement: {
        performance: score('performance'),
        accessibility: score('accessibility'),
        lcpMs: value('largest-contentful-paint'),
        tbtMs: value('total-blocking-time'),
        cls: value('cumulative-layout-shift'),
        cpuIndex: report.environment?.benchmarkIndex ?? Number.NaN,
        finalUrl: report.finalDisplayedUrl ?? report.finalUrl ?? url,
      },
      failed,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The machine's one-minute load average: the machine is shared, and TBT follows it. */
const loadAverage = () => loadavg()[0].toFixed(1);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The portal from its built output on offset ports with throwaway databases. */
async function startOwnStack(): Promise<{ url: string; stop: () => Promise<void> }> {
  const offset = Number(process.env.LIGHTHOUSE_PORT_OFFSET ?? 500);
  // Something else on the gateway's port would answer the readiness probe and be measured instead.
  const gatewayPort = DEFAULT_PORTS.gateway + offset;
  if (await portAnswers(gatewayPort))
    throw new Error(`port ${gatewayPort} is taken: set LIGHTHOUSE_PORT_OFFSET to a free offset`);
  const store = await ensureStore();
  const redis = await ensureRedis();
  const prefix = `lh${Date.now().toString(36)}_`;
  const stack: Stack = await startStack({
    mongoUrl: store.url,
    redisUrl: redis.url,
    portOffset: offset,
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
    logDir: path.join(ROOT, '.data/logs/lighthouse'),
    // The front end is the production build either way; 'test' keeps the development secrets accepted.
    env: { LOG_LEVEL: 'warn', NODE_ENV: 'test' },
  });
  return {
    url: `${stack.gatewayUrl.replace(/\/$/, '')}/`,
    stop: async () => {
      await stack.stop();
      await Promise.all([store.process?.stop(), redis.process?.stop()]);
    },
  };
}

const settings = (desktop: boolean, cpuSlowdown?: number) =>
  `${desktop ? 'desktop' : 'mobile, simulated slow 4G'}${cpuSlowdown ? `, CPU slowed ${cpuSlowdown}×` : ''}`;

/** --compare: every build's landing and study page, interleaved run by run, on one seeded portal. */
async function compare(builds: Build[], runs: number, desktop: boolean, save?: string, cpuSlowdown?: number) {
  const { startPortal } = await import('./portal');
  const { learnerProfile } = await import('./pages');
  const served = servedBuilds(builds[0]);
  if (save) mkdirSync(save, { recursive: true });
  const store = await ensureStore();
  const redis = await ensureRedis();
  const portal = await startPortal(store.url, redis.url);
  // A learner's profile per build: the token, and the cache of the landing that build served.
  const profiles = new Map<string, string>();
  try {
    for (const build of builds) {
      served.serve(build);
      profiles.set(build.name, await learnerProfile(portal));
    }
    const pages = [
      { label: 'landing /', slug: 'landing', url: `${portal.gateway}/`, signedIn: false },
      { label: 'study page', slug: 'study', url: `${portal.gateway}/student/${portal.courses[0].id}`, signedIn: true },
    ];
    console.log(
      `Lighthouse (${LIGHTHOUSE}, ${settings(desktop, cpuSlowdown)}): ${builds.map((b) => `${b.name} = ${b.root}`).join(', ')}; ${runs} interleaved run(s)`,
    );
    const results = new Map<string, Measurement[]>();
    for (let i = 1; i <= runs; i++)
      for (const page of pages)
        for (const build of builds) {
          const { name } = build;
          served.serve(build);
          const file = save ? path.join(save, `${name}-${page.slug}-${i}.json`) : undefined;
          // Lighthouse sometimes loses the page's trace (NO_NAVSTART); one more try before giving up.
          const once = () => measure(page.url, desktop, file, page.signedIn ? profiles.get(name) : undefined, cpuSlowdown);
          const { measurement: m } = await once().catch(once);
          const key = `${page.label}|${name}`;
          results.set(key, [...(results.get(key) ?? []), m]);
          console.log(
            `  run ${i} ${page.slug} ${name}: performance ${m.performance}, LCP ${Math.round(m.lcpMs)} ms, TBT ${Math.round(m.tbtMs)} ms, CLS ${m.cls.toFixed(3)}, accessibility ${m.accessibility}, load ${loadAverage()}, CPU index ${Math.round(m.cpuIndex)}${new URL(m.finalUrl).pathname === new URL(page.url).pathname ? '' : `, ended on ${m.finalUrl}`}`,
          );
        }
    console.log(`\n  medians of ${runs} run(s)`);
    for (const page of pages)
      for (const { name } of builds) {
        const list = results.get(`${page.label}|${name}`)!;
        const pick = (key: 'performance' | 'accessibility' | 'lcpMs' | 'tbtMs' | 'cls') => median(list.map((m) => m[key]));
        console.log(
          `  ${page.label.padEnd(10)} ${name.padEnd(10)} performance ${String(pick('performance')).padStart(3)}, accessibility ${pick('accessibility')}, LCP ${Math.round(pick('lcpMs'))} ms, TBT ${Math.round(pick('tbtMs'))} ms, CLS ${pick('cls').toFixed(3)}`,
        );
      }
  } finally {
    await portal.stop();
    await Promise.all([store.process?.stop(), redis.process?.stop()]);
    for (const dir of profiles.values()) rmSync(dir, { recursive: true, force: true });
    served.remove();
  }
}

async function main() {
  const { url: given, runs, desktop, save, compare: builds, cpuSlowdown } = parseArgs(process.argv.slice(2));
  if (builds) return compare(builds, runs, desktop, save, cpuSlowdown);
  const own = given ? null : await startOwnStack();
  const url = given ?? own!.url;
  try {
    console.log(
      `Lighthouse (${LIGHTHOUSE}, ${settings(desktop, cpuSlowdown)}) on ${url}, ${runs} run(s), Chromium at ${CHROMIUM}`,
    );
    const results: Measurement[] = [];
    const failed = new Set<string>();
    for (let i = 1; i <= runs; i++) {
      const { measurement: m, failed: f } = await measure(url, desktop, save, undefined, cpuSlowdown);
      f.forEach((id) => failed.add(id));
      results.push(m);
      console.log(
        `  run ${i}: performance ${m.performance}, accessibility ${m.accessibility}, LCP ${Math.round(m.lcpMs)} ms, TBT ${Math.round(m.tbtMs)} ms, CLS ${m.cls.toFixed(3)}, CPU index ${Math.round(m.cpuIndex)}`,
      );
    }
    const GOALS = LIGHTHOUSE_GOALS[desktop ? 'desktop' : 'mobile'];
    const pick = (key: Exclude<keyof Measurement, 'finalUrl'>) => median(results.map((r) => r[key]));
    const mark = (value: number, goal: number) => (value >= goal ? `✔ goal ≥ ${goal}` : `✘ goal ≥ ${goal}`);
    console.log('');
    console.log(`  performance    ${String(pick('performance')).padStart(6)}   ${mark(pick('performance'), GOALS.performance)}`);
    console.log(
      `  accessibility  ${String(pick('accessibility')).padStart(6)}   ${mark(pick('accessibility'), GOALS.accessibility)}`,
    );
    console.log(`  LCP            ${Math.round(pick('lcpMs')).toString().padStart(6)} ms`);
    console.log(`  TBT            ${Math.round(pick('tbtMs')).toString().padStart(6)} ms`);
    console.log(`  CLS            ${pick('cls').toFixed(3).padStart(6)}`);
    if (failed.size) console.log(`\n  failed audits:\n    ${[...failed].join('\n    ')}`);
  } finally {
    await own?.stop();
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
