/**
 * A page's cost in CPU rather than in a host-dependent score: the CPU time of the page's main thread
 * (Chromium's renderer thread `CrRendererMain`, from /proc) while it loads, and the JavaScript it
 * transfers, for `/` (a visitor's first visit, cold cache) and a signed-in learner's study page
 * (`/student/{course}`, with the shell cached: the profile has visited `/` once, as after signing
 * in), each beside its target. Every thread of the machine is read before and after each load, so
 * the output also shows who else used the cores meanwhile (the browser's other threads, the
 * portal answering the page, the driver).
 *
 *   tsx --conditions=source --tsconfig bench/tsconfig.json bench/src/pagecpu.ts [study|landing]
 *       [name=folder ...] [--runs N] [--threads] [--files]
 *
 * Without a page it measures both. Each name=folder is a copy of the front ends' dists (`shell/dist`,
 * `mf-*\/dist`; a checkout, or a folder they were copied to); without one it measures this
 * checkout's build. Several builds are measured on one seeded portal, load by load interleaved
 * (A B A B …), so a busy moment of the shared machine falls on each alike: on a shared host only such
 * a side-by-side reading tells a change from noise. Medians of N loads (5 unless --runs says); the
 * spread (lowest–highest) is printed beside each median. --threads lists every thread group's CPU,
 * --files each load's scripts. A load that ended elsewhere than its page (/auth) is marked.
 * Unthrottled. A benchmark, never part of the test command.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureRedis, ensureStore } from '@portal/devstack/store';
import { ROOT } from '@portal/devstack/util';
import { buildsIn, servedBuilds, type Build } from './builds';
import { CHROMIUM } from './harness';

/** Linux's clock ticks per second for /proc's utime and stime (USER_HZ). */
const TICKS_PER_SECOND = 100;
const KiB = 1024;

/** The product's targets for a page's cost (bench/RESULTS.md «Targets»). */
const TARGETS = {
  landing: { mainMs: 200, firstVisitKiB: 150 },
  study: { mainMs: 300, cachedShellKiB: 50 },
} as const;

type PageName = keyof typeof TARGETS;

/** What each page shows once it is there (a load that shows something else is left out of the medians). */
const SHOWN: Record<PageName, string> = {
  // The landing's own render, over the first view the page came with.
  landing: '#app-mf_landing > :not([data-prerendered])',
  study: '[data-mf="mf_player"]',
};

/**
 * The page's main thread: the renderer's, whichever renderer process the navigation ended in. Linux
 * names a process's main thread by its command (`chromium`); some builds name it `CrRendererMain`.
 */
const MAIN_THREADS = ['chromium renderer: chromium', 'chromium renderer: CrRendererMain'];
const mainThreadOf = (load: Load) => MAIN_THREADS.reduce((sum, group) => sum + (load.cpu.get(group) ?? 0), 0);

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

/** One load's readings. */
interface Load {
  /** CPU ms by thread group, the page's main thread among them. */
  cpu: Map<string, number>;
  wall: number;
  /** JavaScript bytes over the wire (compressed, headers left out) and how many scripts came from the network. */
  jsBytes: number;
  jsFiles: number;
  /** Each script that came from the network, by path, with its bytes. */
  scripts: Map<string, number>;
  /** Where the load ended: a signed-in page that ended on /auth measured the sign-in form. */
  finalPath: string;
  shown: boolean;
  /** The renderer's own accounting of its main thread (Performance.getMetrics), ms. */
  script: number;
  layout: number;
  style: number;
}

/** A Chromium profile for the page: empty for a visitor; for a learner, signed in and with `/` visited. */
async function profileFor(page: PageName, gateway: string, token: string): Promise<string> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'pagecpu-profile-'));
  if (page === 'landing') return profile;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--no-sandbox'],
  });
  const tab = await context.newPage();
  await tab.goto(`${gateway}/`, { waitUntil: 'networkidle' });
  // Runs in the page; the bench's tsconfig has no DOM types, hence the text.
  await tab.evaluate(`localStorage.setItem('authToken', ${JSON.stringify(token)})`);
  await context.close();
  return profile;
}

async function measureLoad(page: PageName, profile: string, url: string): Promise<Load> {
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(path.join(tmpdir(), 'pagecpu-'));
  cpSync(profile, dir, { recursive: true });
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    args: ['--no-sandbox'],
  });
  try {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    // A script's bytes so far when its response starts are its headers: what it weighs is the rest.
    const pending = new Map<string, { url: string; headers: number }>();
    const scripts = new Map<string, number>();
    cdp.on(
      'Network.responseReceived',
      (e: { requestId: string; type: string; response: { url: string; encodedDataLength: number } }) => {
        if (e.type === 'Script') pending.set(e.requestId, { url: e.response.url, headers: e.response.encodedDataLength });
      },
    );
    cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
      const script = pending.get(e.requestId);
      if (!script) return;
      const body = Math.max(0, e.encodedDataLength - script.headers);
      if (body > 0) scripts.set(new URL(script.url).pathname, body);
    });
    // Let the browser's own start-up settle, so its work is not counted as the page's.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const before = threadTimes();
    const started = Date.now();
    await tab.goto(url, { waitUntil: 'networkidle' });
    const wall = Date.now() - started;
    const cpu = new Map<string, number>();
    for (const [id, { group, ms }] of threadTimes()) {
      const spent = ms - (before.get(id)?.ms ?? 0);
      if (spent > 0) cpu.set(group, (cpu.get(group) ?? 0) + spent);
    }
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    return {
      cpu,
      wall,
      jsBytes: [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0),
      jsFiles: scripts.size,
      scripts,
      finalPath: new URL(tab.url()).pathname,
      // The page's own screen was there: not the sign-in form, not a remote's fallback.
      shown: (await tab.evaluate(`!!document.querySelector(${JSON.stringify(SHOWN[page])})`)) as boolean,
      script: metric('ScriptDuration'),
      layout: metric('LayoutDuration'),
      style: metric('RecalcStyleDuration'),
    };
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const spread = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
const verdict = (value: number, limit: number) =>
  value <= limit ? 'met' : `missed by ${Math.round(((value - limit) / limit) * 100)}%`;

function printPage(page: PageName, url: string, build: Build, measured: Load[], threads: boolean) {
  const path = new URL(url).pathname;
  const loads = measured.filter((l) => l.shown && l.finalPath === path);
  const left = measured.length - loads.length;
  if (!loads.length) {
    console.log(`\n  ${build.name} — ${page} (${url}): no load showed the page (${measured.length} tried)`);
    return;
  }
  const main = loads.map(mainThreadOf);
  const kib = loads.map((l) => l.jsBytes / KiB);
  const target = TARGETS[page];
  console.log(
    `\n  ${build.name} — ${page} (${url}), ${loads.length} load(s)${left ? ` (${left} left out: they did not show the page)` : ''}, medians (lowest–highest)`,
  );
  console.log(
    `    main thread CPU   ${String(Math.round(median(main))).padStart(6)} ms  (${spread(main)})  target ≤ ${target.mainMs} ms: ${verdict(median(main), target.mainMs)}`,
  );
  const transferLabel = page === 'landing' ? 'first visit' : 'shell cached';
  const limit = 'firstVisitKiB' in target ? target.firstVisitKiB : target.cachedShellKiB;
  console.log(
    `    JS, ${transferLabel.padEnd(12)} ${median(kib).toFixed(1).padStart(6)} KiB in ${median(loads.map((l) => l.jsFiles))} files  target ≤ ${limit} KiB: ${verdict(median(kib), limit)}`,
  );
  console.log(
    `    of the renderer's own accounting: script ${Math.round(median(loads.map((l) => l.script)))} ms, style ${Math.round(median(loads.map((l) => l.style)))} ms, layout ${Math.round(median(loads.map((l) => l.layout)))} ms`,
  );
  const all = loads.map((l) => [...l.cpu.values()].reduce((s, ms) => s + ms, 0));
  console.log(
    `    whole machine     ${String(Math.round(median(all))).padStart(6)} ms of CPU in ${median(loads.map((l) => l.wall))} ms to network idle (its 500 ms quiet included)`,
  );
  if (!threads) return;
  const groups = new Set(loads.flatMap((l) => [...l.cpu.keys()]));
  const rows = [...groups]
    .map((group) => [group, median(loads.map((l) => l.cpu.get(group) ?? 0))] as const)
    .filter(([, ms]) => ms >= 10)
    .sort((a, b) => b[1] - a[1]);
  for (const [group, ms] of rows) console.log(`      ${String(Math.round(ms)).padStart(6)} ms  ${group}`);
}

async function main() {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of loads, 1 or more');
  const named = args.find((a, i) => !a.startsWith('--') && !a.includes('=') && args[i - 1] !== '--runs');
  const isPage = (name: string): name is PageName => name in TARGETS;
  if (named && !isPage(named)) throw new Error(`no page "${named}": study or landing`);
  const pages: PageName[] = named && isPage(named) ? [named] : ['landing', 'study'];
  // --files: each load's scripts from the network, with their bytes.
  const files = args.includes('--files');
  const given = buildsIn(args);
  const builds = given.length ? given : [{ name: 'this', root: ROOT }];
  // Before the portal starts: its gateway serves the front ends through this link.
  const served = servedBuilds(builds[0]);
  const { startPortal } = await import('./portal');
  const store = await ensureStore();
  const redis = await ensureRedis();
  const portal = await startPortal(store.url, redis.url);
  const urls: Record<PageName, string> = {
    landing: `${portal.gateway}/`,
    study: `${portal.gateway}/student/${portal.courses[0].id}`,
  };
  const profiles = new Map<string, string>();
  const loads = new Map<string, Load[]>();
  try {
    // Each build's own profile: the shell a learner has cached is that build's.
    for (const build of builds)
      for (const page of pages) {
        served.serve(build);
        profiles.set(`${build.name} ${page}`, await profileFor(page, portal.gateway, portal.learners[0]));
        loads.set(`${build.name} ${page}`, []);
      }
    for (let run = 1; run <= runs; run++)
      for (const page of pages)
        for (const build of builds) {
          served.serve(build);
          const load = await measureLoad(page, profiles.get(`${build.name} ${page}`)!, urls[page]);
          loads.get(`${build.name} ${page}`)!.push(load);
          console.log(
            `run ${run} ${build.name} ${page}: main thread ${Math.round(mainThreadOf(load))} ms, JS ${(load.jsBytes / KiB).toFixed(1)} KiB, ${load.wall} ms to idle${load.finalPath === new URL(urls[page]).pathname ? '' : `, ended on ${load.finalPath}`}${load.shown ? '' : ', the page not shown: left out'}`,
          );
          if (files)
            for (const [file, bytes] of load.scripts) console.log(`    ${(bytes / KiB).toFixed(1).padStart(6)} KiB  ${file}`);
        }
  } finally {
    for (const profile of profiles.values()) rmSync(profile, { recursive: true, force: true });
    // A store that went away meanwhile must not lose the figures measured.
    await portal.stop().catch((err: unknown) => console.error(`stopping the portal: ${String(err)}`));
    await Promise.all([store.process?.stop(), redis.process?.stop()]);
    served.remove();
  }
  console.log(`\nPage CPU (unthrottled Chromium, ${CHROMIUM})`);
  for (const page of pages)
    for (const build of builds)
      printPage(page, urls[page], build, loads.get(`${build.name} ${page}`)!, args.includes('--threads'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
