/**
 * Lighthouse on the landing page: performance and accessibility scores with LCP, TBT and CLS, in
 * headless Debian Chromium against the production build served by the gateway.
 *
 *   tsx --conditions=source --tsconfig bench/tsconfig.json bench/src/lighthouse.ts [url] [--runs N] [--desktop] [--save report.json]
 *
 * With a URL it measures that running portal. Without one it starts the stack from the built
 * output on offset ports (LIGHTHOUSE_PORT_OFFSET, default 500, beside a developer's portal and the
 * e2e stack), measures `/`, and stops it again. Build first (`npm run build`) so the numbers are
 * those of the current code.
 *
 * Lighthouse is the bench's dependency, pinned at 12.8.2, the newest release whose engines admit
 * Node 20 (13.x needs Node 22.19); its CLI starts Chromium through chrome-launcher, which takes the
 * browser from CHROME_PATH (Debian's /usr/bin/chromium by default), so nothing is downloaded. Scores
 * vary from run to run, so each figure printed is the median of the runs. A benchmark, never part of
 * the test command.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_PORTS } from '@portal/contracts';
import { startStack, type Stack } from '@portal/devstack/stack';
import { ensureRedis, ensureStore } from '@portal/devstack/store';
import { portAnswers, ROOT } from '@portal/devstack/util';

const LIGHTHOUSE = 'lighthouse 12.8.2';
/** The CLI of the installed package (an ES module, so it runs in a node of its own rather than imported here). */
const LIGHTHOUSE_CLI = path.join(ROOT, 'node_modules/lighthouse/cli/index.js');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The budgets (BUDGETS.md): desktop on / and /courses, mobile on / and a study page. */
export const LIGHTHOUSE_GOALS = {
  desktop: { performance: 95, accessibility: 95 },
  mobile: { performance: 90, accessibility: 95 },
} as const;

export interface Measurement {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Where the page ended up (a guarded page without a token ends on /auth). */
  finalUrl: string;
}

interface LighthouseReport {
  finalDisplayedUrl?: string;
  finalUrl?: string;
  categories: Record<'performance' | 'accessibility', { score: number | null }>;
  audits: Record<string, { numericValue?: number; score?: number | null; title?: string; details?: { items?: unknown[] } }>;
  runWarnings?: string[];
}

const run = promisify(execFile);

function parseArgs(argv: string[]) {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of runs, 1 or more');
  const valueOf = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const url = argv.find((a, i) => !a.startsWith('--') && !['--runs', '--save'].includes(argv[i - 1]));
  // --save keeps the last run's full report, to see which requests and scripts the figures come from.
  return { url, runs, desktop: argv.includes('--desktop'), save: valueOf('--save') };
}

/**
 * One Lighthouse run with its default (mobile, simulated slow 4G) or desktop settings. With
 * `profile`, Chromium runs on that prepared profile and Lighthouse keeps its storage (a signed-in
 * page needs the token the profile's localStorage holds).
 */
export async function measure(
  url: string,
  desktop: boolean,
  save?: string,
  profile?: string,
): Promise<{ measurement: Measurement; failed: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    await run(
      process.execPath,
      [
        LIGHTHOUSE_CLI,
        url,
        '--output=json',
        `--output-path=${output}`,
        '--only-categories=performance,accessibility',
        `--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking${profile ? ` --user-data-dir=${profile}` : ''}`,
        ...(profile ? ['--disable-storage-reset'] : []),
        '--quiet',
        ...(desktop ? ['--preset=desktop'] : []),
      ],
      { env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024 },
    );
    const text = readFileSync(output, 'utf8');
    if (save) writeFileSync(save, text);
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
        finalUrl: report.finalDisplayedUrl ?? report.finalUrl ?? url,
      },
      failed,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

async function main() {
  const { url: given, runs, desktop, save } = parseArgs(process.argv.slice(2));
  const own = given ? null : await startOwnStack();
  const url = given ?? own!.url;
  try {
    console.log(
      `Lighthouse (${LIGHTHOUSE}, ${desktop ? 'desktop' : 'mobile, simulated slow 4G'}) on ${url}, ${runs} run(s), Chromium at ${CHROME_PATH}`,
    );
    const results: Measurement[] = [];
    const failed = new Set<string>();
    for (let i = 1; i <= runs; i++) {
      const { measurement: m, failed: f } = await measure(url, desktop, save);
      f.forEach((id) => failed.add(id));
      results.push(m);
      console.log(
        `  run ${i}: performance ${m.performance}, accessibility ${m.accessibility}, LCP ${Math.round(m.lcpMs)} ms, TBT ${Math.round(m.tbtMs)} ms, CLS ${m.cls.toFixed(3)}`,
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
