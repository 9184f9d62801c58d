import {
  type AnswerValue,
  type AttemptAnswerInput,
  type AttemptDetail,
  type PlayerQuestion,
  type StartedAttempt,
} from '@portal/contracts';
import { answerText, isAnswerCorrect, isBlank, toQuizTerms } from '@portal/quiz-engine';
import { QUICK, round } from './harness';
import { BROWSER, PRESET_ADMIN, call, pct, pool } from './portal';
import { EXAM_MINUTES, EXAM_QUESTIONS, shownAs, answerFor } from './examQuiz';
import type { AnswerSaveRoute, ExamStormOptions, ExamStormResult, Timing } from './examStormTypes';
import { type Learner, type Exam, buildExam, registerLearners, assignCourse, auditSettled } from './examArrangement';
import { sleep } from '@portal/devstack/util';

/**
 * The exam storm (BUDGETS.md, «exam storm»): N learners, registered, assigned the course and signed in
 * beforehand, start one 20-question quiz within a minute, answer it over a compressed attempt and
 * submit within a minute at the end, each doing what the player does, through the gateway only.
 * Then every graded attempt is read back and compared with what its learner sent.
 *
 * The player saves the answers given so far on the server as the learner goes
 * (`PUT /api/attempts/:id/answers`, docs/decisions/095), and so does each learner here after every
 * answer; `answerSave: null` (or BENCH_EXAM_SAVE=none) gives them without a request, as the player
 * did before it saved.
 */

/* ------------------------------------------------------------------------------ the storm */

/** A small seeded generator (mulberry32): the same seed, the same storm. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Plan {
  /** Ms after the storm begins. */
  startAt: number;
  submitAt: number;
  /** When each answer is given, as a share of the time between the start's answer and the submit. */
  answerAt: number[];
  choices: Array<'right' | 'wrong' | 'blank'>;
}

function planFor(random: () => number, windows: ExamStormResult['windows'], questions: number): Plan {
  const startAt = random() * windows.startSpread * 1000;
  const submitAt = Math.max((windows.attempt + random() * windows.submitSpread) * 1000, startAt + 10_000);
  const answerAt = Array.from({ length: questions }, () => random()).sort((a, b) => a - b);
  const choices = Array.from({ length: questions }, () => {
    const r = random();
    return r < 0.05 ? 'blank' : r < 0.75 ? 'right' : 'wrong';
  });
  return { startAt, submitAt, answerAt, choices };
}

type Kind = 'card' | 'start' | 'save' | 'submit';

/** Every response time by kind of request, and every failure by route, status and message. */
class Recorder {
  readonly times: Record<Kind, number[]> = { card: [], start: [], save: [], submit: [] };
  readonly errors: Record<string, number> = {};
  readonly failed: Record<Kind, number> = { card: 0, start: 0, save: 0, submit: 0 };

  /** One request as the player makes it (its headers, gzip accepted as a browser does); null when it failed. */
  async request<T>(kind: Kind, label: string, url: string, token: string, method = 'GET', body?: unknown): Promise<T | null> {
    const started = performance.now();
    try {
      const answer = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...BROWSER,
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await answer.text();
      this.times[kind].push(performance.now() - started);
      if (answer.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          this.fail(kind, `${label} ${answer.status} not JSON: ${text.slice(0, 60)}`);
          return null;
        }
      }
      let message = text.slice(0, 120);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // not JSON: the text itself
      }
      this.fail(kind, `${label} ${answer.status} ${message}`);
    } catch (err) {
      // The time waited counts too: a timeout left out would flatter p99.
      this.times[kind].push(performance.now() - started);
      const cause = (err as { cause?: { code?: string } }).cause;
      this.fail(kind, `${label} 0 ${cause?.code ?? (err as Error).name}`);
    }
    return null;
  }

  private fail(kind: Kind, key: string) {
    this.failed[kind]++;
    this.errors[key] = (this.errors[key] ?? 0) + 1;
  }
}

interface Taken {
  attemptId: string | null;
  shown: PlayerQuestion[];
  /** The list of the last submit sent (null: none was sent). */
  sent: AttemptAnswerInput[] | null;
  graded: boolean;
}

/** Tries a step as a person does after an error: reads it, presses again; three times at most. */
async function withRetries<T>(step: () => Promise<T | null>): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    const result = await step();
    if (result || attempt === 3) return result;
    await sleep(2000);
  }
}

/** One learner: opens the quiz, starts it, answers over the attempt, submits; each request as the player makes it. */
async function takeExam(
  gateway: string,
  exam: Exam,
  learner: Learner,
  plan: Plan,
  begin: number,
  recorder: Recorder,
  saveRoute: AnswerSaveRoute | null,
): Promise<Taken> {
  const byId = new Map(EXAM_QUESTIONS.map((question) => [question.id, question]));
  await sleep(begin + plan.startAt - performance.now());
  await recorder.request('card', 'GET /api/attempts/quiz/{id}', `${gateway}/api/attempts/quiz/${exam.quizId}`, learner.token);
  const started = await withRetries(() =>
    recorder.request<StartedAttempt>('start', 'POST /api/attempts', `${gateway}/api/attempts`, learner.token, 'POST', {
      quizId: exam.quizId,
      courseId: exam.courseId,
      lessonId: exam.lessonId,
    }),
  );
  if (!started) return { attemptId: null, shown: [], sent: null, graded: false };
  const attemptId = started.attempt.id;
  const shown = started.questions;
  const answers: Record<string, AnswerValue> = {};
  const timeSpent: Record<string, number> = {};
  const from = performance.now();
  const submitAt = Math.max(begin + plan.submitAt, from + 5000);
  let last = from;
  const list = () =>
    shown.map((s) => ({
      questionId: s.id,
      answer: isBlank(answers[s.id]) ? null : answers[s.id],
      timeSpent: Math.round(timeSpent[s.id] ?? 0),
    }));
  // The questions in the order shown, one after another, spread over the attempt.
  for (const [k, s] of shown.entries()) {
    await sleep(from + plan.answerAt[k] * (submitAt - from) - performance.now());
    const question = byId.get(s.id);
    if (!question) continue; // not a question of this quiz: left unanswered
    answers[s.id] = answerFor(question, s, plan.choices[k % plan.choices.length]);
    timeSpent[s.id] = (performance.now() - last) / 1000;
    last = performance.now();
    if (saveRoute) {
      const path = saveRoute.path.replace(':id', encodeURIComponent(attemptId));
      await recorder.request(
        'save',
        `${saveRoute.method} ${saveRoute.path}`,
        `${gateway}${path}`,
        learner.token,
        saveRoute.method,
        {
          answers: list(),
        },
      );
    }
  }
  await sleep(submitAt - performance.now());
  const sent = list();
  const graded = await withRetries(() =>
    recorder.request<AttemptDetail>(
      'submit',
      'POST /api/attempts/{id}/submit',
      `${gateway}/api/attempts/${encodeURIComponent(attemptId)}/submit`,
      learner.token,
      'POST',
      { answers: sent },
    ),
  );
  return { attemptId, shown, sent, graded: !!graded };
}

/** Whether an open attempt's saved answers hold this answer as it was sent. */
const savedAsSent = (detail: AttemptDetail, answer: { questionId: string; answer: unknown }): boolean =>
  JSON.stringify(detail.savedAnswers?.answers.find((s) => s.questionId === answer.questionId)?.answer) ===
  JSON.stringify(answer.answer);

/**
 * Each sent answer against the attempt read back: held as sent (graded: the engine's words and verdict
 * for it; still open: among its saved answers), or lost.
 */
function lostAnswers(
  taken: Taken,
  detail: AttemptDetail | null,
): { sent: number; lost: number; heldSaved: number; examples: string[] } {
  const examples: string[] = [];
  let sent = 0;
  let lost = 0;
  let heldSaved = 0;
  const byId = new Map(EXAM_QUESTIONS.map((question) => [question.id, question]));
  for (const answer of taken.sent ?? []) {
    const question = byId.get(answer.questionId);
    const shown = taken.shown.find((s) => s.id === answer.questionId);
    if (!question || !shown || answer.answer === null) continue;
    sent++;
    const terms = toQuizTerms(shownAs(question, shown), answer.answer);
    const expected = terms.ok ? answerText(question, terms.value) : null;
    const right = terms.ok && terms.value !== null ? isAnswerCorrect(question, terms.value) : false;
    // An attempt still open (every submit refused) holds what the player saved: graded as saved when its time runs out.
    if (detail?.status === 'in_progress' && savedAsSent(detail, answer)) {
      heldSaved++;
      continue;
    }
    const held = detail?.questions.find((r) => r.questionId === answer.questionId);
    if (!detail || detail.status === 'in_progress' || !held || held.answerText !== expected || held.isCorrect !== right) {
      lost++;
      if (examples.length < 3)
        examples.push(
          `${answer.questionId}: sent «${expected}» (${right ? 'right' : 'wrong'}), held ${held ? `«${held.answerText}» (${held.isCorrect ? 'right' : 'wrong'})` : detail ? 'nothing' : 'no attempt'}`,
        );
    }
  }
  return { sent, lost, heldSaved, examples };
}

const timing = (list: number[], failed: number): Timing => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    count: sorted.length,
    failed,
    p50: round(pct(sorted, 0.5)),
    p95: round(pct(sorted, 0.95)),
    p99: round(pct(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
};

/** The player's own save of the answers so far (docs/decisions/095). */
export const PLAYER_ANSWER_SAVE: AnswerSaveRoute = { method: 'PUT', path: '/api/attempts/:id/answers' };

/** `METHOD /path/:id`, as BENCH_EXAM_SAVE says it; the player's save when unset, null for `none`. */
export function saveRouteFromEnv(raw = process.env.BENCH_EXAM_SAVE): AnswerSaveRoute | null {
  if (!raw?.trim()) return PLAYER_ANSWER_SAVE;
  const match = /^(PUT|PATCH|POST)\s+(\/\S+)$/.exec(raw.trim());
  return match ? { method: match[1] as AnswerSaveRoute['method'], path: match[2] } : null;
}

/** The quiz's time as a class uses it: 18 of its 20 minutes, the submits over the 19th, every one before its own deadline. */
export const CLASS_ATTEMPT_SECONDS = (EXAM_MINUTES - 2) * 60;

/**
 * Seconds from the storm's beginning to its submits' window: BENCH_EXAM_ATTEMPT_SECONDS, else
 * `CLASS_ATTEMPT_SECONDS` (45 s with BENCH_QUICK=1). A shorter one compresses the storm: each
 * answer, and so each save, then comes that many times as often as a person gives them.
 */
export const examAttemptSeconds = (): number =>
  Number(process.env.BENCH_EXAM_ATTEMPT_SECONDS ?? (QUICK ? 45 : CLASS_ATTEMPT_SECONDS));

/**
 * Arranges (learners, the course and its quiz, the assignment; not timed) and runs the storm against
 * a gateway, then reads every attempt back. Usable against any stack: only public routes are called.
 */
export async function runExamStorm(options: ExamStormOptions): Promise<ExamStormResult> {
  const gateway = options.gatewayUrl.replace(/\/$/, '');
  const log = options.log ?? ((line: string) => console.log(line));
  const windows = {
    startSpread: options.startSpreadSeconds ?? (QUICK ? 15 : 60),
    attempt: options.attemptSeconds ?? examAttemptSeconds(),
    submitSpread: options.submitSpreadSeconds ?? (QUICK ? 15 : 60),
  };
  const saveRoute = options.answerSave === undefined ? saveRouteFromEnv() : options.answerSave;

  const arranging = Date.now();
  const admin =
    options.adminToken ?? (await call<{ token: string }>(gateway, 'POST', '/api/auth/login', null, PRESET_ADMIN)).token;
  const exam = await buildExam(gateway, admin);
  const learners = await registerLearners(gateway, options.learners, log);
  const settle = options.settle ?? true;
  await assignCourse(gateway, admin, exam, learners, log, { settle });
  if (settle) await auditSettled(gateway, admin, log);
  const arrangeSeconds = (Date.now() - arranging) / 1000;
  log(`    arranged in ${round(arrangeSeconds)} s: ${learners.length} learners signed in, the course assigned`);

  const random = seeded(options.seed ?? 56);
  const plans = learners.map(() => planFor(random, windows, EXAM_QUESTIONS.length));
  const recorder = new Recorder();
  const probes = Object.entries(options.probes ?? {});
  const finishes = await Promise.all(probes.map(([, probe]) => probe()));
  log(
    `    storm: starts over ${windows.startSpread} s, attempts of ${windows.attempt} s on average, submits over ${windows.submitSpread} s` +
      `${saveRoute ? `, each answer saved by ${saveRoute.method} ${saveRoute.path}` : ', answers kept in the tab as the player does'}`,
  );
  const begin = performance.now();
  const progress = setInterval(() => {
    const { start, save, submit } = recorder.times;
    const failed = Object.values(recorder.errors).reduce((sum, n) => sum + n, 0);
    log(
      `    ${Math.round((performance.now() - begin) / 1000)} s: ${start.length} starts, ${save.length} saves, ${submit.length} submits answered, ${failed} failed`,
    );
  }, 30_000);
  const taken = await Promise.all(
    learners.map((l, i) => takeExam(gateway, exam, l, plans[i], begin, recorder, saveRoute)),
  ).finally(() => clearInterval(progress));
  const stormSeconds = (performance.now() - begin) / 1000;
  const requests = Object.values(recorder.times).reduce((sum, list) => sum + list.length, 0);
  const probeLines = Object.fromEntries(await Promise.all(probes.map(async ([name], i) => [name, await finishes[i](requests)])));

  // Read back after the storm: each learner's attempt as the server holds it.
  let sent = 0;
  let lost = 0;
  let inUngraded = 0;
  let heldSaved = 0;
  const examples: string[] = [];
  await pool(
    taken.map((t, i) => ({ t, learner: learners[i] })),
    8,
    async ({ t, learner }) => {
      if (!t.attemptId || !t.sent) return;
      const detail = await call<AttemptDetail>(
        gateway,
        'GET',
        `/api/attempts/${encodeURIComponent(t.attemptId)}`,
        learner.token,
      ).catch(() => null);
      const check = lostAnswers(t, detail);
      sent += check.sent;
      lost += check.lost;
      heldSaved += check.heldSaved;
      if (!t.graded) inUngraded += check.lost;
      examples.push(...check.examples.slice(0, Math.max(0, 3 - examples.length)));
    },
  );
  const errorCount = Object.values(recorder.errors).reduce((sum, n) => sum + n, 0);
  return {
    learners: learners.length,
    questions: EXAM_QUESTIONS.length,
    arrangeSeconds: round(arrangeSeconds),
    stormSeconds: round(stormSeconds),
    windows,
    card: timing(recorder.times.card, recorder.failed.card),
    start: timing(recorder.times.start, recorder.failed.start),
    save: saveRoute ? timing(recorder.times.save, recorder.failed.save) : null,
    saveRoute: saveRoute ? `${saveRoute.method} ${saveRoute.path}` : null,
    submit: timing(recorder.times.submit, recorder.failed.submit),
    errors: recorder.errors,
    errorCount,
    requests,
    notStarted: taken.filter((t) => !t.attemptId).length,
    notGraded: taken.filter((t) => !t.graded).length,
    lost: { answers: lost, sent, inUngraded, heldSaved, examples },
    probes: probeLines,
  };
}

export const percentiles = (t: Timing) =>
  `p50 ${t.p50} ms, p95 ${t.p95} ms, p99 ${t.p99} ms, max ${t.max} ms of ${t.count} (${t.failed} failed, counted too)`;
