import { cpuSplitNote, stackCpuParts, storePidOf } from './cpuSplit';
import { QUICK, round, type Figure } from './harness';
import { startBenchStack } from './portal';
import { storeCounts, storeOpsSplit } from './storeOps';
import { CLASS_ATTEMPT_SECONDS, percentiles, runExamStorm } from './examstorm';
import { EXAM_STORM_TARGETS, type ExamStormResult, type Timing } from './examStormTypes';

/* ------------------------------------------------------------------------------ the figures */

/** A time figure is met when its p95 is within the target and some of its requests were answered at all. */
const timeMet = (t: Timing, limit: number) => t.p95 <= limit && t.count > t.failed;

/** The storm's rows of the bench's table, each against BUDGETS.md's target. */
export function examStormFigures(r: ExamStormResult, figures: Figure[]): void {
  const T = EXAM_STORM_TARGETS;
  const name = `exam storm (${r.learners.toLocaleString('en')} learners, ${r.questions} questions)`;
  figures.push(
    {
      name: `${name}: quiz start (POST /api/attempts), p95`,
      value: r.start.p95,
      unit: 'ms',
      budget: `≤ ${T.startP95.toLocaleString('en')} ms`,
      limit: T.startP95,
      met: timeMet(r.start, T.startP95),
      note: `${percentiles(r.start)}; starts over ${r.windows.startSpread} s; the quiz card just before (GET /api/attempts/quiz/{id}): ${percentiles(r.card)}`,
    },
    r.save
      ? {
          name: `${name}: answer save (${r.saveRoute}), p95`,
          value: r.save.p95,
          unit: 'ms',
          budget: `≤ ${T.saveP95} ms`,
          limit: T.saveP95,
          met: timeMet(r.save, T.saveP95),
          note: percentiles(r.save),
        }
      : {
          name: `${name}: answer save, p95`,
          value: NaN,
          unit: 'ms',
          budget: `≤ ${T.saveP95} ms`,
          note: 'not measured: BENCH_EXAM_SAVE=none gives the answers without a request',
        },
    {
      name: `${name}: submit (POST /api/attempts/{id}/submit), p95`,
      value: r.submit.p95,
      unit: 'ms',
      budget: `≤ ${T.submitP95.toLocaleString('en')} ms`,
      limit: T.submitP95,
      met: timeMet(r.submit, T.submitP95),
      note: `${percentiles(r.submit)}; submits over ${r.windows.submitSpread} s after attempts of ${r.windows.attempt} s on average${r.windows.attempt < CLASS_ATTEMPT_SECONDS ? ` (the quiz's minutes compressed: answers and saves ${round(CLASS_ATTEMPT_SECONDS / r.windows.attempt, 1)}× as often as a class gives them)` : ''}`,
    },
    {
      name: `${name}: errors`,
      value: r.errorCount,
      unit: 'requests',
      budget: '0',
      limit: T.errors,
      met: r.errorCount === T.errors,
      note: `${r.requests} requests in ${r.stormSeconds} s; ${r.notStarted} learners never started, ${r.notGraded} never graded (after 3 tries each, as a person retries); ${
        Object.entries(r.errors)
          .sort((a, b) => b[1] - a[1])
          .map(([key, n]) => `${key}: ${n}`)
          .join('; ') || 'none'
      }`,
    },
    {
      name: `${name}: answers lost`,
      value: r.lost.answers,
      unit: 'answers',
      budget: '0',
      limit: T.lost,
      met: r.lost.answers === T.lost && r.lost.sent > 0,
      note: `${r.lost.sent} answers sent, each compared with the attempt read back (graded: the engine's words and verdict; still open: its saved answers, ${r.lost.heldSaved} held so); lost: ${r.lost.inUngraded} in attempts whose submit was refused every time, ${r.lost.answers - r.lost.inUngraded} in graded attempts${r.lost.examples.length ? `; e.g. ${r.lost.examples.join('; ')}` : ''}`,
    },
    ...Object.entries(r.probes).map(([probe, line]) => ({
      name: `${name}: ${probe}`,
      value: r.requests,
      unit: 'requests',
      note: line,
    })),
  );
}

/** Learners in the bench's storm: BENCH_EXAM_LEARNERS, else 1,000 (100 with BENCH_QUICK=1). */
export const examLearners = (): number => Number(process.env.BENCH_EXAM_LEARNERS ?? (QUICK ? 100 : 1000));

/**
 * `npm run bench -- examstorm`: the portal on the launcher's store with nothing else running in it,
 * the storm through its gateway, the CPU split by process and the store operations per request of
 * the storm's window beside the figures. The whole result also goes to the JSON.
 */
export async function examStormPart(
  store: { url: string; pid?: number },
  redisUrl: string,
  figures: Figure[],
): Promise<ExamStormResult> {
  const bench = await startBenchStack(store.url, redisUrl);
  try {
    const storePid = storePidOf(store);
    const cpu = stackCpuParts(bench.stack, storePid);
    const result = await runExamStorm({
      gatewayUrl: bench.gateway,
      learners: examLearners(),
      probes: {
        'CPU split by process': async () => {
          const before = cpu();
          return async (requests) =>
            `${cpuSplitNote(before, cpu(), requests)}${storePid ? '' : ' (the store’s FerretDB not found)'}; the store serves whatever else runs on this machine too`;
        },
        'store operations per request': async () => {
          const before = await storeCounts(bench.stack);
          return async () => storeOpsSplit(before, await storeCounts(bench.stack), 1);
        },
      },
      log: (line) => console.log(line),
    });
    examStormFigures(result, figures);
    return result;
  } finally {
    await bench.stop();
  }
}
