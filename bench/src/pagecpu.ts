/**
 * Who uses the machine's cores while a page loads: the CPU time of every thread on the machine
 * (from /proc), taken just before a signed-in learner's study page (or `/`) starts loading in
 * Chromium and again once its network is idle, grouped by process and thread name, medians of N
 * loads. It shows how much of a page's load is the browser's main thread and how much is
 * everything else that needs a core at the same moment (the browser's other threads, the portal's
 * processes answering the page, the driver), which a Lighthouse figure on a 2-core host includes.
 *
 *   tsx --conditions=source --tsconfig bench/tsconfig.json bench/src/pagecpu.ts [study|landing] [--runs N]
 *
 * Unthrottled, cold HTTP cache but for the landing the profile visited (as Lighthouse's runs are).
 * A benchmark, never part of the test command.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureRedis, ensureStore } from '@portal/devstack/store';

/** Linux's clock ticks per second for /proc's utime and stime (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** A thread's group: the portal's process by its entry, Chromium's by its --type and thread name. */
function groupOf(command: string, threadName: string, processName: string): string {
  if (/chrom(e|ium)/.test(command)) return `chromium ${/--type=([\w-]+)/.exec(command)?.[1] ?? 'browser'}: ${threadName}`;
  const portal = /(services\/\w+|gateway)\//.exec(command)?.[1];
  return portal ?? processName;
}

/** CPU milliseconds so far of every thread on the machine, by process/thread id. */
function threadTimes(): Map<string, { group: string; ms: number }> {
  const times = new Map<string, { group: string; ms: number }>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let command: string;
    let processName: string;
    let threads: string[];
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      processName = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // the process ended meanwhile
    }
    for (const tid of threads)
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const threadName = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        // Fields after the name: state is the first, utime the 12th, stime the 13th.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
        times.set(`${pid}/${tid}`, { group: groupOf(command, threadName, processName), ms });
      } catch {
        /* the thread ended meanwhile */
      }
  }
  return times;
}

async function main() {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of loads, 1 or more');
  const which = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ?? 'study';
  if (which !== 'study' && which !== 'landing') throw new Error(`no page "${which}": study or landing`);
  const { chromium } = await import('playwright-core');
  const { startPortal } = await import('./portal');
  const { learnerProfile } = await import('./pages');
  const store = await ensureStore();
  const redis = await ensureRedis();
  const portal = await startPortal(store.url, redis.url);
  const profile = await learnerProfile(portal);
  const url = which === 'landing' ? `${portal.gateway}/` : `${portal.gateway}/student/${portal.courses[0].id}`;
  const perRun: Array<Map<string, number>> = [];
  const walls: number[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'pagecpu-'));
      cpSync(profile, dir, { recursive: true });
      const context = await chromium.launchPersistentContext(dir, {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox'],
      });
      try {
        const tab = await context.newPage();
        // Let the browser's own start-up settle, so its work is not counted as the page's.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const before = threadTimes();
        const started = Date.now();
        await tab.goto(url, { waitUntil: 'networkidle' });
        const wall = Date.now() - started;
        const used = new Map<string, number>();
        for (const [id, { group, ms }] of threadTimes()) {
          const spent = ms - (before.get(id)?.ms ?? 0);
          if (spent > 0) used.set(group, (used.get(group) ?? 0) + spent);
        }
        perRun.push(used);
        walls.push(wall);
        const total = [...used.values()].reduce((sum, ms) => sum + ms, 0);
        console.log(`run ${run}: ${total} ms of CPU in ${wall} ms`);
      } finally {
        await context.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await portal.stop();
    await Promise.all([store.process?.stop(), redis.process?.stop()]);
  }
  const groups = new Set(perRun.flatMap((m) => [...m.keys()]));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rows = [...groups]
    .map((group) => [group, median(perRun.map((m) => m.get(group) ?? 0))] as const)
    .filter(([, ms]) => ms >= 10)
    .sort((a, b) => b[1] - a[1]);
  console.log(`\n${which} (${url}): CPU time by process and thread while it loads, medians of ${runs} load(s)`);
  // Playwright's network idle is 500 ms without a request, so the load itself took about that much less.
  console.log(`  ${String(median(walls)).padStart(6)} ms  (wall clock to network idle, its 500 ms quiet included)`);
  for (const [group, ms] of rows) console.log(`  ${String(Math.round(ms)).padStart(6)} ms  ${group}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
