import { readFileSync } from 'node:fs';
import type { Options } from 'autocannon';
import { completeInn } from '@portal/contracts';
import type { Figure } from './harness';
import { BROWSER, measure, measureArrivals, type BenchPortal, type Measured } from './portal';

/**
 * The mixed load: real traffic through the gateway, one autocannon per kind of request, and the
 * figures it gives.
 */
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const QUICK = process.env.BENCH_QUICK === '1';
/* ------------------------------------------------------------------------------- mixed load */

type Ctx = Record<string, unknown>;
interface Req {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

function memoryOf(portal: BenchPortal): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, proc] of portal.stack.processes) {
    try {
      const status = readFileSync(`/proc/${proc.child.pid}/status`, 'utf8');
      out[name] = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
    } catch {
      out[name] = NaN;
    }
  }
  out['bench (load generator)'] = process.memoryUsage().rss / 1024 / 1024;
  return out;
}

export interface MixedKind {
  name: string;
  /** The deliberately bad requests: every answer should be a 4xx. */
  expectBad: boolean;
  r: Measured;
}

export interface MixedResult {
  duration: number;
  seconds: number;
  kinds: MixedKind[];
  memoryBefore: Record<string, number>;
  memoryAfter: Record<string, number>;
}

/**
 * A kind's requests a second in a paced load: its share of the 50 connections, and never above its own
 * cap. (Kinds with a cap of their own once kept it when paced: the quiz at 40 a second in a load
 * meant to be 50 in all, so «paced» measured a storm of quizzes.)
 */
const pacedShare = (pacedTotal: number, connections: number, cap = Infinity): number =>
  Math.max(1, Math.min(cap, Math.round((pacedTotal * connections) / 50)));

/**
 * Real traffic through the gateway at 50 connections in all, one autocannon per kind so each is
 * counted apart; the deliberately bad requests are paced at 50 req/s, so that they do not take the
 * capacity being measured. Every request says what a browser says: it accepts gzip.
 */
export async function mixedLoad(
  portal: BenchPortal,
  duration = QUICK ? 10 : 60,
  /** A paced load instead of as much as the machine answers: this many requests a second in all, shared by connections. */
  { pacedTotal }: { pacedTotal?: number } = {},
): Promise<MixedResult> {
  const gw = portal.gateway;
  const json = { 'content-type': 'application/json', ...BROWSER };
  const learnerOf = (ctx: Ctx) => {
    ctx.token ??= portal.learners[Math.floor(Math.random() * portal.learners.length)];
    return { authorization: `Bearer ${ctx.token as string}`, ...BROWSER };
  };
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const buttonLessons = (course: BenchPortal['courses'][number]) =>
    course.lessons.filter((id) => !course.quizzes.some((q) => q.lessonId === id));
  const admin = { authorization: `Bearer ${portal.admin}`, ...BROWSER };
  let inn = Date.now() % 1e9;

  // Each kind of traffic is its own autocannon with its share of the 50 connections, so each one's
  // answers are counted apart (and the deliberately bad ones are known to be bad).
  const scenarios: Record<
    string,
    {
      connections: number;
      rate?: number;
      requests: Array<Req & { setupRequest?: (r: Req, c: Ctx) => Req; onResponse?: (s: number, b: string, c: Ctx) => void }>;
      expectBad?: boolean;
    }
  > = {
    'browse courses (GET /api/courses)': {
      connections: 12,
      requests: [
        { setupRequest: (r, c) => ({ ...r, method: 'GET', path: '/api/courses?page=1&limit=20', headers: learnerOf(c) }) },
      ],
    },
    'open a course (GET /api/courses/{id})': {
      connections: 12,
      requests: [
        {
          setupRequest: (r, c) => ({
            ...r,
            method: 'GET',
            path: `/api/courses/${pick(portal.courses).id}`,
            headers: learnerOf(c),
          }),
        },
      ],
    },
    'complete a lesson (POST /api/progress/lesson/…/complete)': {
      connections: 8,
      requests: [
        {
          setupRequest: (r, c) => {
            const course = pick(portal.courses);
            // A lesson with a quiz is completed by passing its quiz, never by its button (409), so
            // the learners complete the others, as a person can.
            return {
              ...r,
              method: 'POST',
              path: `/api/progress/lesson/${pick(buttonLessons(course))}/complete`,
              headers: { ...json, ...learnerOf(c) },
              body: JSON.stringify({ courseId: course.id }),
            };
          },
        },
      ],
    },
    'submit a quiz (POST /api/attempts, …/submit)': {
      connections: 4,
      // Each learner has 10 attempts per quiz; the rate keeps the run within what was seeded.
      rate: 40,
      requests: [
        {
          setupRequest: (r, c) => {
            const course = pick(portal.courses);
            const q = pick(course.quizzes);
            c.token = portal.learners[Math.floor(Math.random() * portal.learners.length)];
            c.attempt = undefined; // a start that fails leaves no attempt to submit (its submit then counts as a 404)
            return {
              ...r,
              method: 'POST',
              path: '/api/attempts',
              // The one answer the load reads (the attempt's id): asked uncompressed, as autocannon
              // hands bodies over as text. Every other request accepts gzip, as a browser does.
              headers: { ...json, 'accept-encoding': 'identity', authorization: `Bearer ${c.token as string}` },
              body: JSON.stringify({ quizId: q.quizId, courseId: course.id, lessonId: q.lessonId }),
            };
          },
          onResponse: (_s, body, c) => {
            try {
              c.attempt = (JSON.parse(body) as { attempt?: { id?: string } }).attempt?.id;
            } catch {
              c.attempt = undefined; // not an attempt: its submit counts as a refusal
            }
          },
        },
        {
          setupRequest: (r, c) => ({
            ...r,
            method: 'POST',
            path: `/api/attempts/${c.attempt as string}/submit`,
            headers: { ...json, authorization: `Bearer ${c.token as string}` },
            body: JSON.stringify({
              answers: [
                { questionId: 'q1', answer: 1, timeSpent: 5 },
                { questionId: 'q2', answer: 'true', timeSpent: 3 },
                { questionId: 'q3', answer: 'Трудовой кодекс', timeSpent: 7 },
              ],
            }),
          }),
        },
      ],
    },
    'CRM read (GET /api/organizations)': {
      connections: 5,
      requests: [{ method: 'GET', path: '/api/organizations?page=1&limit=24', headers: admin }],
    },
    'CRM write (POST /api/organizations)': {
      connections: 3,
      requests: [
        {
          setupRequest: (r) => ({
            ...r,
            method: 'POST',
            path: '/api/organizations',
            headers: { ...json, ...admin },
            body: JSON.stringify({ name: `ООО Нагрузка ${inn}`, inn: completeInn(String(inn++ % 1e9).padStart(9, '0')) }),
          }),
        },
      ],
    },
    'audit read (GET /api/audit)': {
      connections: 2,
      requests: [{ method: 'GET', path: '/api/audit?page=1&limit=20', headers: admin }],
    },
    'deliberately bad (bad id, empty org, no token)': {
      connections: 4,
      rate: 50,
      expectBad: true,
      requests: [
        { method: 'GET', path: '/api/courses/not-an-id', headers: admin },
        { method: 'POST', path: '/api/organizations', headers: { ...json, ...admin }, body: '{}' },
        { method: 'GET', path: '/api/courses', headers: BROWSER },
      ],
    },
  };

  const memoryBefore = memoryOf(portal);
  const started = Date.now();
  const results = await Promise.all(
    Object.entries(scenarios).map(async ([name, s]) => {
      const common = { url: gw, connections: s.connections, duration, requests: s.requests as Options['requests'] };
      // Paced, the kind's requests arrive as many people's do (`measureArrivals`); flat out, or a
      // kind's own cap, as autocannon sends them.
      const r = pacedTotal
        ? await measureArrivals({ ...common, overallRate: pacedShare(pacedTotal, s.connections, s.rate) })
        : await measure({ ...common, ...(s.rate ? { overallRate: s.rate } : {}) });
      return { name, s, r };
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const memoryAfter = memoryOf(portal);
  return {
    duration,
    seconds,
    kinds: results.map(({ name, s, r }) => ({ name, expectBad: !!s.expectBad, r })),
    memoryBefore,
    memoryAfter,
  };
}

/** The mixed load's own figures: each kind's rate and percentiles, memory, and the unexpected answers. */
export function mixedFigures(mixed: MixedResult, figures: Figure[]) {
  let unexpected = 0;
  let total = 0;
  console.log(`\n  mixed load, ${mixed.duration} s through the gateway at 50 connections`);
  for (const { name, expectBad, r } of mixed.kinds) {
    total += r.total;
    const bad = expectBad ? r.total - r.non2xx : r.non2xx + r.errors;
    if (!expectBad) unexpected += bad;
    console.log(
      `    ${name.padEnd(58)} ${String(r.total).padStart(7)} req  ${String(round(r.rps, 0)).padStart(5)} req/s  p50 ${round(r.p50, 1)} ms  p95 ${round(r.p95, 1)} ms  p99 ${round(r.p99, 1)} ms  ${expectBad ? `2xx (should be none) ${bad}` : `non-2xx ${r.non2xx}, errors ${r.errors}`}  ${JSON.stringify(r.statuses)}`,
    );
    figures.push({
      name: `mixed: ${name}`,
      value: round(r.rps, 0),
      unit: 'req/s',
      note: `${r.total} req, p50 ${round(r.p50, 1)} ms, p95 ${round(r.p95, 1)} ms, p99 ${round(r.p99, 1)} ms, ${expectBad ? `non-2xx ${r.non2xx} (all expected)` : `non-2xx ${r.non2xx}, errors ${r.errors}`}, statuses ${JSON.stringify(r.statuses)}`,
    });
  }
  console.log('    memory (RSS, MiB)   before → after');
  for (const name of Object.keys(mixed.memoryAfter)) {
    const before = mixed.memoryBefore[name] ?? NaN;
    console.log(`      ${name.padEnd(24)} ${round(before, 1)} → ${round(mixed.memoryAfter[name], 1)}`);
    figures.push({
      name: `memory RSS after mixed load: ${name}`,
      value: round(mixed.memoryAfter[name], 1),
      unit: 'MiB',
      note: `before ${round(before, 1)} MiB`,
    });
  }
  const heap = process.memoryUsage();
  figures.push(
    {
      name: 'mixed load: requests in all',
      value: total,
      unit: 'req',
      note: `${round(total / mixed.seconds, 0)} req/s over ${round(mixed.seconds, 0)} s`,
    },
    {
      name: 'mixed load: non-2xx outside the deliberately bad requests',
      value: unexpected,
      unit: 'answers',
      budget: '0',
      limit: 0,
      met: unexpected === 0,
      note: `load generator heap ${round(heap.heapUsed / 1024 / 1024, 1)} MiB`,
    },
  );
}
