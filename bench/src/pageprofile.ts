/**
 * A CPU profile of a page's first load as Lighthouse's mobile preset sees it: Chromium's CPU slowed
 * 4×, a phone's viewport, signed in as a learner who has consented, a cold cache. Prints the main
 * thread's busy time and the long tasks' blocking time (what TBT counts), and where the time went,
 * by package or source file and by function (through the builds' source maps).
 *
 *   tsx --conditions=source --tsconfig bench/tsconfig.json bench/src/pageprofile.ts [study|landing|courses]
 *       [name=folder ...] [--runs N] [--shot file.png] [--focus package] [--tasks] [--task-ms N] [--dump folder] [--cpu-slowdown N]
 *
 * Each name=folder is a copy of the front ends' dists (`shell/dist`, `mf-*\/dist`; a checkout, or a
 * folder they were copied to); without one it profiles this checkout's build. Several builds are
 * profiled side by side on one seeded portal, run by run interleaved, so a busy moment of the shared
 * machine falls on each alike. Busy time is steadier than Lighthouse's scores, which is why this
 * exists: it finds what to change, and shows a change's effect. Never part of the test command.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { ensureRedis, ensureStore } from '@portal/devstack/store';
import { ROOT } from '@portal/devstack/util';
import { buildsIn, servedBuilds } from './builds';
import { CHROMIUM } from './harness';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A built script's source map: /x.js is the shell's, /mf/<remote>/x.js a remote's. */
function mapOf(maps: Map<string, TraceMap | null>, root: string, script: string): TraceMap | null {
  if (!maps.has(script)) {
    const remote = /^\/mf\/([\w-]+)\/(.+)$/.exec(script);
    const file = remote ? path.join(root, remote[1], 'dist', remote[2]) : path.join(root, 'shell/dist', script.slice(1));
    maps.set(script, existsSync(`${file}.map`) ? new TraceMap(readFileSync(`${file}.map`, 'utf8')) : null);
  }
  return maps.get(script)!;
}

const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string } };
}
interface Trace {
  traceEvents: TraceEvent[];
}

/**
 * The main thread's tasks over `overMs` (50 unless --task-ms says), and inside each the time by kind
 * of event (script, style, layout…) and, from the run's CPU profile, the functions that ran in it.
 */
function printLongTasks(build: string, trace: Trace, overMs: number, functionsIn: (from: number, to: number) => string) {
  const events = trace.traceEvents.filter((e) => e.ph === 'X' && e.dur !== undefined);
  const isTask = (e: TraceEvent) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask';
  const tasks = events.filter((e) => isTask(e) && e.dur! > overMs * 1000);
  // The renderer's main thread is the one with the most long tasks.
  const counts = new Map<number, number>();
  tasks.forEach((t) => counts.set(t.tid, (counts.get(t.tid) ?? 0) + 1));
  const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const start = Math.min(...events.filter((e) => e.tid === main).map((e) => e.ts));
  console.log(`  ${build}: main-thread tasks over ${overMs} ms (start and duration in ms; inner events by kind; functions)`);
  for (const task of tasks.filter((t) => t.tid === main)) {
    const inner = new Map<string, number>();
    for (const e of events)
      if (e.tid === main && !isTask(e) && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!) {
        const key = e.args?.data?.url ? `${e.name} ${e.args.data.url.replace(/^https?:\/\/[^/]+/, '')}` : e.name;
        inner.set(key, (inner.get(key) ?? 0) + e.dur! / 1000);
      }
    const parts = [...inner.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
    console.log(
      `    ${((task.ts - start) / 1000).toFixed(0).padStart(6)} +${(task.dur! / 1000).toFixed(0).padStart(4)}  ${parts}`,
    );
    const functions = functionsIn(task.ts, task.ts + task.dur!);
    if (functions) console.log(`             ${functions}`);
  }
}

/** A sample this far after the one before says the sampler was starved, not where the time went. */
const STARVED_SAMPLE_MS = 2;

interface Tally {
  busy: number[];
  blocking: number[];
  byPlace: Map<string, number>;
  byFunction: Map<string, number>;
  maps: Map<string, TraceMap | null>;
}

async function main() {
  const args = process.argv.slice(2);
  const valueOf = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const page = args.find((a, i) => !a.startsWith('--') && !a.includes('=') && !args[i - 1]?.startsWith('--')) ?? 'study';
  const runs = Number(valueOf('--runs') ?? 3);
  const shot = valueOf('--shot');
  // --focus <package or file>: that place's functions only, to see inside one cost.
  const focus = valueOf('--focus');
  // --tasks: the first run's long tasks, each with the trace events inside it by kind.
  const tasks = args.includes('--tasks');
  // --task-ms N: list the tasks over N ms instead (at --cpu-slowdown 1, what Lighthouse's simulation multiplies).
  const taskMs = Number(valueOf('--task-ms') ?? 50);
  // --dump <folder>: keep each run's CPU profile (.cpuprofile, for DevTools or a script).
  const dump = valueOf('--dump');
  // --cpu-slowdown N: another multiplier than the preset's 4× (Lighthouse's calibratedSlowdown for this host).
  const rate = Number(valueOf('--cpu-slowdown') ?? 4);
  if (!(rate >= 1)) throw new Error('--cpu-slowdown takes a multiplier of 1 or more');
  if (dump) mkdirSync(dump, { recursive: true });
  const given = buildsIn(args);
  const builds = given.length ? given : [{ name: 'this', root: ROOT }];
  const served = servedBuilds(builds[0]);

  const { startPortal } = await import('./portal');
  const { chromium } = await import('playwright-core');
  const store = await ensureStore();
  const redis = await ensureRedis();
  const portal = await startPortal(store.url, redis.url);
  const url = {
    study: `${portal.gateway}/student/${portal.courses[0].id}`,
    landing: `${portal.gateway}/`,
    courses: `${portal.gateway}/courses`,
  }[page];
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox'],
  });
  const tallies = new Map<string, Tally>(
    builds.map((b) => [b.name, { busy: [], blocking: [], byPlace: new Map(), byFunction: new Map(), maps: new Map() }]),
  );
  try {
    if (!url) throw new Error(`unknown page ${page}: study, landing or courses`);
    for (let run = 1; run <= runs; run++)
      for (const build of builds) {
        const { name, root } = build;
        served.serve(build);
        const tally = tallies.get(name)!;
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
        // Scripts for the page, as text: the bench compiles without the DOM's types.
        if (page !== 'landing')
          await context.addInitScript(`localStorage.setItem('authToken', ${JSON.stringify(portal.learners[0])})`);
        await context.addInitScript(
          `window.__long = []; new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask', buffered: true });`,
        );
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate });
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        if (tasks && run === 1)
          await browser.startTracing(tab, {
            categories: ['toplevel', 'devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline'],
          });
        await tab.goto(url, { waitUntil: 'load' });
        await tab.waitForLoadState('networkidle');
        await tab.waitForTimeout(1000);
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
        if (dump) writeFileSync(path.join(dump, `${name}-${page}-${run}.cpuprofile`), JSON.stringify(profile));
        const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
        /** A sample's function and place, through the build's source maps. */
        const named = (id: number) => {
          const { functionName, url: script, lineNumber, columnNumber } = nodes.get(id)!.callFrame;
          const map = script.endsWith('.js') ? mapOf(tally.maps, root, short(script)) : null;
          const at = map ? originalPositionFor(map, { line: lineNumber + 1, column: columnNumber }) : null;
          const source = at?.source?.replace(/^webpack:\/\/[\w-]*\/?/, '') ?? (script ? short(script) : '(native)');
          const place = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ?? source;
          const fn = `${at?.name ?? (functionName || '(anonymous)')}  ${place}${at?.line && !place.includes('/') ? '' : `:${at?.line ?? 0}`}`;
          return { functionName, place, fn };
        };
        if (tasks && run === 1) {
          // The profile's clock is the trace's: the samples within a task are what ran in it.
          const times: number[] = [];
          profile.samples.reduce(
            (at, _, i) => (times.push(at + profile.timeDeltas[i]), at + profile.timeDeltas[i]),
            profile.startTime,
          );
          const functionsIn = (from: number, to: number) => {
            const within = new Map<string, number>();
            profile.samples.forEach((id, i) => {
              if (times[i] < from || times[i] > to) return;
              const { functionName, fn } = named(id);
              if (functionName === '(idle)' || functionName === '(program)') return;
              const ms = profile.timeDeltas[i] / 1000;
              // As in the tally below: a sample after a starved gap is busy time no function is named for.
              const key = ms > STARVED_SAMPLE_MS ? '(sampler starved)' : fn;
              within.set(key, (within.get(key) ?? 0) + ms);
            });
            return [...within.entries()]
              .sort((a, b) => b[1] - a[1])
              .slice(0, 6)
              .map(([k, v]) => `${k.replace(/\s+/g, ' ')} ${v.toFixed(1)}`)
              .join(' | ');
          };
          printLongTasks(name, JSON.parse((await browser.stopTracing()).toString('utf8')) as Trace, taskMs, functionsIn);
        }
        if (shot && run === 1) await tab.screenshot({ path: shot.replace(/(\.png)?$/, `-${name}.png`), fullPage: true });
        const long = (await tab.evaluate('window.__long')) as number[];
        await context.close();

        let busy = 0;
        profile.samples.forEach((id, i) => {
          if (['(idle)', '(program)'].includes(nodes.get(id)!.callFrame.functionName)) return;
          const ms = profile.timeDeltas[i] / 1000;
          busy += ms;
          // A sample after a gap far over the 0.2 ms interval (the sampler starved on this shared
          // machine) would put the whole gap on whatever function it caught: counted busy, not named.
          if (ms > STARVED_SAMPLE_MS) return;
          const { place, fn } = named(id);
          tally.byPlace.set(place, (tally.byPlace.get(place) ?? 0) + ms);
          tally.byFunction.set(fn, (tally.byFunction.get(fn) ?? 0) + ms);
        });
        const blocking = long.reduce((sum, d) => sum + Math.max(0, d - 50), 0);
        tally.busy.push(busy);
        tally.blocking.push(blocking);
        console.log(
          `run ${run} ${name}: main thread busy ${Math.round(busy)} ms, long tasks ${long.length}, blocking ${Math.round(blocking)} ms`,
        );
      }

    const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    const top = (map: Map<string, number>, n: number, only = '') =>
      [...map.entries()]
        .filter(([k]) => k.includes(only))
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `    ${(v / runs).toFixed(0).padStart(5)} ms  ${k}`)
        .join('\n');
    console.log(`\n${page} (${url}), CPU ${rate}× slower, ${runs} run(s) each`);
    for (const { name } of builds) {
      const t = tallies.get(name)!;
      console.log(`\n  ${name}: busy ${Math.round(median(t.busy))} ms, blocking ${Math.round(median(t.blocking))} ms (medians)`);
      console.log(`  by package or source, mean per run:\n${top(t.byPlace, 16)}`);
      console.log(`  by function${focus ? ` in ${focus}` : ''}, mean per run:\n${top(t.byFunction, 16, focus)}`);
    }
  } finally {
    await browser.close();
    await portal.stop();
    await Promise.all([store.process?.stop(), redis.process?.stop()]);
    served.remove();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
