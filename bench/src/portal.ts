import { existsSync } from 'node:fs';
import path from 'node:path';
import { Agent, request as httpRequest } from 'node:http';
import autocannon, { type Instance, type Options, type Request, type Result } from 'autocannon';
import { CONSENT_DOCUMENT, lessonContentSchema, SERVICE_NAMES } from '@portal/contracts';
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
  /** The Redis the stack uses, where its services keep their caches' versions (the seeds move them). */
  redisUrl: string;
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
 * A service's database, written behind the service's back as the seeds do, with its caches'
 * versions where the service keeps them (Redis, keepVersionsInRedis): the seeds' writes move them
 * as the service's own writes would.
 */
export async function serviceDatabase(
  { prefix, redisUrl }: Pick<BenchPortal, 'prefix' | 'redisUrl'>,
  mongoUrl: string,
  service: 'content' | 'audit',
) {
  const { createConnection } = await import('mongoose');
  const { createLogger, createRedis, keepVersionsInRedis } = await import('@portal/service-kit');
  const store = await createConnection(mongoUrl, { dbName: `${prefix}${service}` }).asPromise();
  const redis = createRedis(redisUrl, createLogger('bench', 'silent'), { failFast: true });
  keepVersionsInRedis(store, redis);
  return {
    store,
    close: async () => {
      redis.disconnect();
      await store.close();
    },
  };
}

/**
 * The 50 × 20 × 10 course: the course through the API (so it is a real, published course), its
 * 1,050 modules and lessons straight into the content service's database through its own model and
 * its own content normaliser, because 1,050 API calls take minutes on FerretDB.
 */
async function seedBigCourse(
  mongoUrl: string,
  redisUrl: string,
  prefix: string,
  content: string,
  token: string,
  modules: number,
) {
  const { Types } = await import('mongoose');
  const { courseModel } = await import('@portal/svc-content/models/course');
  const { blockModel } = await import('@portal/svc-content/models/block');
  const { normalizeContentBlocks } = await import('@portal/svc-content/commands/blocks');
  const course = await call<{ id: string }>(content, 'POST', '/api/courses', token, {
    title: `Большой курс ${modules} × 20 × 10`,
    description: 'Курс для замера страницы курса',
    isPublished: true,
  });
  const { store, close } = await serviceDatabase({ prefix, redisUrl }, mongoUrl, 'content');
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
    await courseModel(store).updateOne(
      { _id: courseId },
      { $set: { counts: { modules, lessons, visibleModules: modules, visibleLessons: lessons } } },
      { timestamps: false },
    );
    const lessonIds = docs.filter((d) => d.type === 'LESSON').map((d) => String(d._id));
    return { id: course.id, lessonIds: lessonIds.filter((_, i) => i % 20 === 0) };
  } finally {
    await close();
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
    const big = await seedBigCourse(mongoUrl, redisUrl, prefix, content, admin, 50);
    const courses = [];
    for (let c = 0; c < 6; c++) courses.push(await seedCourse(content, admin, `Курс для нагрузки ${c + 1}`, 3, 4, 2));
    console.log(
      `  seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s: a 50 × 20 × 10 course and ${courses.length} small courses`,
    );
    return {
      stack,
      stop,
      gateway,
      content,
      admin,
      learners,
      bigCourseId: big.id,
      bigLessonIds: big.lessonIds,
      prefix,
      redisUrl,
      courses,
    };
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
        errors: r.errors, // autocannon's errors include its timeouts
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

/**
 * A paced load as people send it: `overallRate` requests a second arriving as a Poisson process (the
 * time to the next one drawn anew each time, exponentially), each request on a keep-alive connection of
 * the kind's own (at most `connections`), and each timed from the moment it was due, so a request
 * that waited for a free connection counts its wait (no coordinated omission). Many independent people
 * send so. autocannon paces a connection by a budget per second that a timer of the connection renews
 * (`setInterval(…, 1000)` in its `httpClient.js`): every connection then sends at the same moment of
 * every second for the whole run. Opened together, all of them sent at the top of each second; opened
 * at random moments, the moments still bunch by chance (in one run the portal did more than half of its
 * work in three tenths of each second) and the same bunch came back every second, so a figure's tail
 * depended on that one draw.
 * `requests` are autocannon's (built by `setupRequest`, read by `onResponse`); a list of several is
 * one person's sequence, sent one after another from one arrival, on a context of its own.
 */
export async function measureArrivals(options: Options & { connections: number; overallRate: number }): Promise<Measured> {
  const { url, connections, overallRate, duration = 10, timeout = 10 } = options;
  const steps = options.requests ?? [{ method: options.method, headers: options.headers, body: options.body }];
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const contexts = Array.from({ length: connections }, (): Record<string, unknown> => ({}));
  const timesByStatus: Record<number, number[]> = {};
  const statuses: Record<number, number> = {};
  let errors = 0;
  let next = 0;

  const send = (request: Request, dueAt: number) =>
    new Promise<{ status: number; body: string } | null>((resolve) => {
      const target = new URL(request.path ?? '/', url);
      const asked = httpRequest(
        target,
        { method: request.method ?? 'GET', headers: request.headers ?? {}, agent, timeout: timeout * 1000 },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const status = answer.statusCode ?? 0;
            (timesByStatus[status] ??= []).push(performance.now() - dueAt);
            statuses[status] = (statuses[status] ?? 0) + 1;
            resolve({ status, body: Buffer.concat(chunks).toString('utf8') });
          });
          // An answer cut off before its end is a failed request too, as a refused connection is.
          answer.on('error', () => {
            errors++;
            resolve(null);
          });
        },
      );
      asked.on('timeout', () => asked.destroy(new Error('timeout')));
      asked.on('error', () => {
        errors++;
        resolve(null);
      });
      asked.end(request.body);
    });

  // One arrival: a person's sequence of requests, the first due now, each next one once the last is answered.
  const arrive = async (dueAt: number) => {
    const context = steps.length > 1 ? {} : contexts[next++ % connections];
    let due = dueAt;
    for (const step of steps) {
      const request = step.setupRequest ? step.setupRequest({ ...step }, context) : step;
      const answer = await send(request, due);
      if (!answer) return;
      step.onResponse?.(answer.status, answer.body, context);
      due = performance.now();
    }
  };

  const arrivalsPerSecond = overallRate / steps.length;
  const started = performance.now();
  const until = started + duration * 1000;
  const running: Array<Promise<void>> = [];
  for (let at = started - Math.log(1 - Math.random()) * (1000 / arrivalsPerSecond); at < until;) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
    running.push(arrive(at));
    at -= Math.log(1 - Math.random()) * (1000 / arrivalsPerSecond);
  }
  await Promise.all(running);
  agent.destroy();
  for (const list of Object.values(timesByStatus)) list.sort((a, b) => a - b);
  const times = Object.values(timesByStatus)
    .flat()
    .sort((a, b) => a - b);
  const non2xx = Object.entries(statuses).reduce((sum, [status, n]) => sum + (Number(status) >= 300 ? n : 0), 0);
  return {
    rps: times.length / duration,
    total: times.length,
    non2xx,
    errors,
    p50: pct(times, 0.5),
    p95: pct(times, 0.95),
    p99: pct(times, 0.99),
    statuses,
    timesByStatus,
  };
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
