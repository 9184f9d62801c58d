import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon, { type Instance, type Options, type Result } from 'autocannon';
import { CONSENT_DOCUMENT, completeInn, lessonContentSchema, SERVICE_NAMES } from '@portal/contracts';
import { startStack, type Stack } from '@portal/devstack/stack';
import type { Figure } from './harness';

/**
 * The whole portal from its built output (five services and the gateway as child processes) with a
 * fresh database prefix, seeded through its own API: the course-detail figure, the mixed load, the
 * first-load JavaScript and Lighthouse all run against it.
 */
const ROOT = path.resolve(__dirname, '../..');
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const QUICK = process.env.BENCH_QUICK === '1';
/** What every browser request says and the load should too: the answers may come compressed. */
export const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

export interface BenchPortal {
  stack: Stack;
  /** Stops the processes and drops the run's databases. */
  stop(): Promise<void>;
  gateway: string;
  content: string;
  admin: string;
  learners: string[];
  bigCourseId: string;
  /** Some lessons of the big course (10 blocks each), for the one-lesson figure. */
  bigLessonIds: string[];
  /** The database prefix of this run: the capacity figures seed straight into its databases. */
  prefix: string;
  courses: Array<{ id: string; lessons: string[]; quizzes: Array<{ quizId: string; lessonId: string }> }>;
}

export async function call<T>(
  base: string,
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  expected = [200, 201],
): Promise<T> {
  const answer = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!expected.includes(answer.status)) throw new Error(`${method} ${url}: ${answer.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** Runs `work` over `items` with at most `limit` at once. */
export async function pool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

// A paragraph of ordinary length (about 120 characters).
const paragraph =
  'Трудовой договор заключается в письменной форме и составляется в двух экземплярах, по одному для каждой из сторон.';

const lessonBlocks = (n: number, quiz?: { quizId: string }) => [
  { type: 'heading', content: { text: `Раздел урока ${n}` } },
  ...Array.from({ length: quiz ? 8 : 9 }, (_, i) => ({ type: 'text', content: { text: `${i + 1}. ${paragraph}` } })),
  ...(quiz ? [{ type: 'quiz', content: { quizId: quiz.quizId, questionsCount: 3 } }] : []),
];

const QUESTIONS = [
  {
    id: 'q1',
    type: 'single_choice',
    question: 'Сколько дней отпуска?',
    options: ['14', '28', '56'],
    correctAnswers: [1],
    order: 0,
    points: 1,
  },
  {
    id: 'q2',
    type: 'true_false',
    question: 'Испытательный срок бывает до 3 месяцев',
    options: [],
    correctAnswers: [],
    correctAnswer: 'true',
    order: 1,
    points: 1,
  },
  {
    id: 'q3',
    type: 'short_answer',
    question: 'Главный закон о труде',
    options: [],
    correctAnswers: [],
    correctAnswer: 'Трудовой кодекс',
    order: 2,
    points: 1,
  },
];

/** A course of `modules` × `lessons` × 10 blocks, published, built by staff through the content API. */
async function seedCourse(
  content: string,
  token: string,
  title: string,
  modules: number,
  lessons: number,
  quizEvery = 0,
): Promise<BenchPortal['courses'][number]> {
  const course = await call<{ id: string }>(content, 'POST', '/api/courses', token, {
    title,
    description: 'Курс для нагрузочного теста',
    isPublished: true,
  });
  const moduleIds: string[] = [];
  // Modules one by one (positions among siblings are assigned in order), their lessons in parallel modules.
  for (let m = 0; m < modules; m++)
    moduleIds.push(
      (
        await call<{ id: string }>(content, 'POST', '/api/blocks', token, {
          type: 'MODULE',
          courseId: course.id,
          title: `Модуль ${m + 1}`,
        })
      ).id,
    );
  const lessonIds: string[] = [];
  const quizzes: Array<{ quizId: string; lessonId: string }> = [];
  await pool(moduleIds, 4, async (moduleId, m) => {
    for (let l = 0; l < lessons; l++) {
      const n = m * lessons + l;
      let quiz: { quizId: string } | undefined;
      if (quizEvery && n % quizEvery === 0) {
        const q = await call<{ id: string }>(content, 'POST', '/api/quizzes', token, {
          title: `Тест ${title} ${n}`,
          description: 'Проверка знаний',
          courseId: course.id,
          questions: QUESTIONS,
          settings: { maxAttempts: 10, passingScore: 70 },
        });
        quiz = { quizId: q.id };
      }
      const lesson = await call<{ id: string }>(content, 'POST', '/api/blocks', token, {
        courseId: course.id,
        moduleId,
        title: `Урок ${l + 1}`,
        content: lessonBlocks(n + 1, quiz),
        status: 'published',
      });
      lessonIds.push(lesson.id);
      if (quiz) quizzes.push({ quizId: quiz.quizId, lessonId: lesson.id });
    }
  });
  return { id: course.id, lessons: lessonIds, quizzes };
}

/**
 * The 50 × 20 × 10 course: the course through the API (so it is a real, published course), its
 * 1,050 modules and lessons straight into the content service's database through its own model and
 * its own content normaliser, because 1,050 API calls take minutes on FerretDB.
 */
async function seedBigCourse(mongoUrl: string, prefix: string, content: string, token: string, modules: number) {
  const { createConnection, Types } = await import('mongoose');
  const { blockModel } = await import('@portal/svc-content/models/block');
  const { normalizeContentBlocks } = await import('@portal/svc-content/commands/blocks');
  const course = await call<{ id: string }>(content, 'POST', '/api/courses', token, {
    title: `Большой курс ${modules} × 20 × 10`,
    description: 'Курс для замера страницы курса',
    isPublished: true,
  });
  const store = await createConnection(mongoUrl, { dbName: `${prefix}content` }).asPromise();
  try {
    const blocks = blockModel(store);
    const courseId = new Types.ObjectId(course.id);
    const docs = [];
    for (let m = 0; m < modules; m++) {
      const moduleId = new Types.ObjectId();
      docs.push({
        _id: moduleId,
        type: 'MODULE',
        courseId,
        moduleId: null,
        title: `Модуль ${m + 1}`,
        content: '',
        position: m,
        status: 'published',
      });
      for (let l = 0; l < 20; l++) {
        const lessonId = new Types.ObjectId();
        const parsed = lessonContentSchema.parse(lessonBlocks(m * 20 + l + 1));
        docs.push({
          _id: lessonId,
          type: 'LESSON',
          courseId,
          moduleId,
          title: `Урок ${l + 1}`,
          content: JSON.stringify(normalizeContentBlocks(parsed, String(lessonId))),
          // As a lesson written through the API carries them (the outline reads these, not the content).
          blocksCount: parsed.length,
          hasQuiz: false,
          position: l,
          status: 'published',
        });
      }
    }
    for (let i = 0; i < docs.length; i += 200) await blocks.insertMany(docs.slice(i, i + 200));
    // The counts every structure write keeps on the course (written here behind the API's back).
    const lessons = modules * 20;
    await store
      .collection('courses')
      .updateOne({ _id: courseId }, { $set: { counts: { modules, lessons, visibleModules: modules, visibleLessons: lessons } } });
    const lessonIds = docs.filter((d) => d.type === 'LESSON').map((d) => String(d._id));
    return { id: course.id, lessonIds: lessonIds.filter((_, i) => i % 20 === 0) };
  } finally {
    await store.close();
  }
}

/** The portal's processes on a fresh database prefix, nothing seeded: what every portal part starts from. */
export interface BenchStack {
  stack: Stack;
  /** Stops the processes and drops the run's databases. */
  stop(): Promise<void>;
  gateway: string;
  content: string;
  prefix: string;
}

export async function startBenchStack(mongoUrl: string, redisUrl: string, { replicas = 1 } = {}): Promise<BenchStack> {
  for (const name of [...SERVICE_NAMES.map((s) => `services/${s}`), 'gateway'])
    if (!existsSync(path.join(ROOT, name, 'dist/index.js')))
      throw new Error(`${name}/dist is missing: run \`npm run build\` (or \`npx tsc -b tsconfig.node.json\`) first`);
  const prefix = `bench${Date.now().toString(36)}_`;
  const stack = await startStack({
    mongoUrl,
    redisUrl,
    portOffset: Number(process.env.BENCH_PORT_OFFSET ?? 600),
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
    logDir: path.join(ROOT, '.data/logs/bench'),
    replicas: Object.fromEntries(SERVICE_NAMES.map((name) => [name, replicas])),
    // 'test' keeps the development secrets and the preset accounts; logs stay quiet under load.
    env: { LOG_LEVEL: 'warn', NODE_ENV: 'test' },
  });
  const stop = async () => {
    await stack.stop();
    const { createConnection } = await import('mongoose');
    const store = await createConnection(mongoUrl).asPromise();
    try {
      const { databases } = await store.db!.admin().listDatabases();
      for (const { name } of databases.filter((d) => d.name.startsWith(prefix))) await store.useDb(name).dropDatabase();
    } finally {
      await store.close();
    }
  };
  return { stack, stop, gateway: stack.gatewayUrl, content: `http://127.0.0.1:${stack.ports.content}`, prefix };
}

/** The preset administrator of a stack started with NODE_ENV=test. */
export const PRESET_ADMIN = { email: 'admin@portal.local', password: 'Portal-Glav-2026' };

export async function startPortal(mongoUrl: string, redisUrl: string, { replicas = 1 } = {}): Promise<BenchPortal> {
  const { stack, stop, gateway, content, prefix } = await startBenchStack(mongoUrl, redisUrl, { replicas });
  try {
    const login = async (email: string, password: string) =>
      (await call<{ token: string }>(gateway, 'POST', '/api/auth/login', null, { email, password })).token;
    const admin = await login(PRESET_ADMIN.email, PRESET_ADMIN.password);
    const learners: string[] = [];
    for (let i = 0; i < 10; i++)
      learners.push(
        (
          await call<{ token: string }>(gateway, 'POST', '/api/auth/register', null, {
            email: `learner${i}.${prefix.slice(0, -1)}@bench.test`,
            password: 'Learner12345',
            fullName: `Слушатель Нагрузочный ${i}`,
            role: 'CANDIDATE',
            // As the registration form sends it: a learner who never consented is asked first, in a
            // dialog over every page, and the pages measured would be that dialog.
            consentVersion: CONSENT_DOCUMENT.version,
          })
        ).token,
      );
    const seeded = Date.now();
    const big = await seedBigCourse(mongoUrl, prefix, content, admin, 50);
    const courses = [];
    for (let c = 0; c < 6; c++) courses.push(await seedCourse(content, admin, `Курс для нагрузки ${c + 1}`, 3, 4, 2));
    console.log(
      `  seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s: a 50 × 20 × 10 course and ${courses.length} small courses`,
    );
    return { stack, stop, gateway, content, admin, learners, bigCourseId: big.id, bigLessonIds: big.lessonIds, prefix, courses };
  } catch (err) {
    // A failed seed must not leave six processes holding the ports.
    await stop().catch(() => undefined);
    throw err;
  }
}

/* ------------------------------------------------------------------ load with exact percentiles */

export interface Measured {
  rps: number;
  total: number;
  non2xx: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers by status code, e.g. { 200: 950, 409: 3 }. */
  statuses: Record<number, number>;
  /** Every response time (ms) by status code, sorted. */
  timesByStatus: Record<number, number[]>;
}

export const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;

/** autocannon, keeping every response time so p95 is exact (autocannon's histogram has p90 and p97.5 only). */
export function measure(options: Options): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const statuses: Record<number, number> = {};
    const timesByStatus: Record<number, number[]> = {};
    const instance: Instance = autocannon(options, (err: Error | null, r: Result) => {
      if (err) return reject(err);
      times.sort((a, b) => a - b);
      for (const list of Object.values(timesByStatus)) list.sort((a, b) => a - b);
      resolve({
        rps: r.requests.average,
        total: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        p50: pct(times, 0.5),
        p95: pct(times, 0.95),
        p99: pct(times, 0.99),
        statuses,
        timesByStatus,
      });
    });
    instance.on('response', (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      statuses[status] = (statuses[status] ?? 0) + 1;
      (timesByStatus[status] ??= []).push(responseTime);
    });
  });
}

export async function courseDetail(portal: BenchPortal, figures: Figure[]) {
  const url = `${portal.content}/api/courses/${portal.bigCourseId}`;
  const sample = await fetch(url, { headers: { authorization: `Bearer ${portal.learners[0]}` } });
  const bytes = (await sample.arrayBuffer()).byteLength;
  const r = await measure({
    url,
    connections: 50,
    duration: QUICK ? 10 : 30,
    // An answer this large can take seconds under load; count it late rather than as an error.
    timeout: 60,
    headers: { authorization: `Bearer ${portal.learners[0]}` },
  });
  const none = r.total === 0 ? 'no answer completed within the run; ' : '';
  const ok = r.errors === 0 && r.non2xx === 0;
  figures.push(
    {
      name: 'course detail 50 × 20 × 10, 50 connections: p50',
      value: round(r.p50, 1),
      unit: 'ms',
      note: `${round(r.rps, 1)} req/s, answer ${round(bytes / 1024, 0)} KiB, status ${sample.status}`,
    },
    {
      name: 'course detail, p95',
      value: round(r.p95, 1),
      unit: 'ms',
      budget: '≤ 150 ms, 0 errors',
      limit: 150,
      met: r.p95 <= 150 && ok,
      note: `${none}errors ${r.errors}, non-2xx ${r.non2xx} of ${r.total}`,
    },
    { name: 'course detail, p99', value: round(r.p99, 1), unit: 'ms' },
  );
}

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
            return {
              ...r,
              method: 'POST',
              path: `/api/progress/lesson/${pick(course.lessons)}/complete`,
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
      const r = await measure({
        url: gw,
        connections: s.connections,
        duration,
        ...(s.rate
          ? { overallRate: s.rate }
          : pacedTotal
            ? { overallRate: Math.max(1, Math.round((pacedTotal * s.connections) / 50)) }
            : {}),
        requests: s.requests as Options['requests'],
      });
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

/* ------------------------------------------------------------------ first-load JavaScript */

/** Loads the landing page in Chromium and sums the gzip size of every script it fetched, file by file. */
export async function firstLoad(portal: BenchPortal, figures: Figure[]) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
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
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
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
