import { uniqueInn } from '@portal/devstack/testing';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CONSENT_DOCUMENT,
  GENERATION_MSG,
  MSG,
  SERVICE_NAMES,
  type Course,
  type CourseProgress,
  type GenerationJob,
  type ScormAttemptState,
  type ScormAttemptSummary,
  type ScormLaunch,
  type ScormPackageSummary,
} from '@portal/contracts';
import { startFakeProvider, type FakeAnswer, type FakeProvider } from '@portal/svc-content/generation/fakeProvider';
import {
  ADMIN,
  Cleanup,
  dropDatabases,
  freePortOffset,
  freshPrefix,
  isAlive,
  load,
  login,
  sharedMongoUrl,
  sharedRedisUrl,
  startTestStack,
  timed,
  until,
  type TestStack,
  type Timed,
} from './harness';

/*
 * Two replicas of every service behind the gateway. Content's replicas share the course builder's
 * jobs and the uploaded files: what one started or stored, the other polls, cancels, accepts and
 * serves. Then, under steady mixed traffic (reads of every service, a read that one service makes of
 * another, and writes), one replica of each service is killed with SIGKILL: no read sees anything but
 * 200, and every write either succeeded (and is there afterwards) or was told 503 in Russian.
 */

const GOLF = path.resolve(__dirname, '../../../../e2e/fixtures/scorm/RuntimeBasicCalls_SCORM20043rdEdition.zip');

const cleanup = new Cleanup();
let stack: TestStack;
let admin: string;
let candidate: string;
let curator: string;
let courseId: string;
/** The course builder's AI provider: an OpenAI-compatible server that answers what a test scripts. */
let provider: FakeProvider;

beforeAll(async () => {
  const prefix = freshPrefix('fr');
  cleanup.add('databases', () => dropDatabases(sharedMongoUrl(), prefix));
  provider = await startFakeProvider();
  cleanup.add('provider', () => provider.close());
  stack = await startTestStack('replicas', {
    mongoUrl: sharedMongoUrl(),
    redisUrl: sharedRedisUrl(),
    portOffset: await freePortOffset(2),
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
    replicas: { auth: 2, content: 2, progress: 2, crm: 2, audit: 2 },
    env: { AI_BASE_URL: provider.url, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '10000', AI_RATE_LIMIT: '1000' },
  });
  cleanup.add('stack', () => stack.stop());
  admin = await login(stack.gatewayUrl, ADMIN);
  candidate = await login(stack.gatewayUrl, { email: 'candidate@portal.local', password: 'Portal-Kan-2026' });
  curator = await login(stack.gatewayUrl, { email: 'curator@portal.local', password: 'Portal-Kur-2026' });
  const course = await timed(stack.gatewayUrl, 'POST', '/api/courses', {
    token: admin,
    body: { title: `Курс реплик ${randomBytes(2).toString('hex')}`, status: 'published', isPublished: true },
  });
  expect(course.status).toBe(201);
  courseId = course.body.id;
}, 120_000);

afterAll(() => cleanup.run(), 60_000);

const contentReplica = (index: number) => `http://127.0.0.1:${stack.replicaPorts.content[index]}`;
const asCurator = <T = any>(base: string, method: string, path: string, body?: unknown) =>
  timed<T>(base, method, path, { token: curator, body });
const json = (value: unknown): FakeAnswer => ({ content: JSON.stringify(value), totalTokens: 10 });
const REQUEST = { topic: 'Работа с клиентами', audience: 'Новые менеджеры', goals: ['Слушать клиента'] };
const outline = json({
  title: 'Курс реплик',
  description: '',
  modules: [{ title: 'Модуль', description: '', lessonTitles: ['Урок'] }],
});
const lessons = json({ lessons: [{ title: 'Урок', blocks: [{ type: 'text', text: 'Текст урока' }] }] });
const quiz = json({
  title: 'Квиз',
  questions: [{ type: 'true_false', question: 'Утверждение', correctAnswer: 'true', explanation: 'Так и есть' }],
});

async function jobOn(base: string, id: string): Promise<GenerationJob> {
  return until(
    `job ${id} done`,
    async () => {
      const answer = await asCurator<GenerationJob>(base, 'GET', `/api/generations/${id}`);
      expect(answer.status).toBe(200);
      return answer.body.status !== 'running' && answer.body;
    },
    30_000,
    50,
  );
}

it('a course-builder job started through one content replica is polled, cancelled and accepted through the other', async () => {
  const [first, second] = [contentReplica(0), contentReplica(1)];
  // Cancelled: the lessons call hangs, so the job is surely running when the other replica cancels it.
  provider.reset();
  provider.script(outline, { ...lessons, delayMs: 8000 });
  const slow = await asCurator<GenerationJob>(first, 'POST', '/api/courses/generate', REQUEST);
  expect(slow.status).toBe(202);
  await until('the job asks for lessons', async () => provider.requests.length === 2, 15_000);
  expect((await asCurator<GenerationJob>(second, 'GET', `/api/generations/${slow.body.id}`)).body.status).toBe('running');
  const cancelled = await asCurator<GenerationJob>(second, 'DELETE', `/api/generations/${slow.body.id}`);
  expect(cancelled.body).toMatchObject({ status: 'cancelled', error: GENERATION_MSG.cancelled, courseId: null });

  // Built, then a lesson's proposal made through the first and accepted through the second.
  provider.script(outline, lessons, quiz);
  const built = await jobOn(second, (await asCurator<GenerationJob>(first, 'POST', '/api/courses/generate', REQUEST)).body.id);
  expect(built).toMatchObject({ status: 'succeeded', progress: 100 });
  const course = (await asCurator<Course>(first, 'GET', `/api/courses/${built.courseId}`)).body;
  const lesson = course.modules[0].lessons[0];
  provider.script(json({ title: 'Новый урок', blocks: [{ type: 'text', text: 'Принято на другой реплике' }] }));
  const regen = await asCurator<GenerationJob>(first, 'POST', '/api/generations/regenerate', { target: 'lesson', id: lesson.id });
  expect(regen.status).toBe(202);
  expect(await jobOn(second, regen.body.id)).toMatchObject({ status: 'succeeded', proposal: { kind: 'lesson' } });
  expect((await asCurator(second, 'POST', `/api/generations/${regen.body.id}/accept`)).status).toBe(200);
  const after = await asCurator(stack.gatewayUrl, 'GET', `/api/blocks/${lesson.id}`);
  expect(JSON.stringify(after.body)).toContain('Принято на другой реплике');
}, 60_000);

it('a file uploaded through one content replica is served, by byte ranges, through the other', async () => {
  const data = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0]), randomBytes(300 * 1024)]);
  const form = new FormData();
  form.append('file', new Blob([data]), 'запись.mp3');
  const res = await fetch(`${contentReplica(0)}/api/upload/file?accept=audio`, {
    method: 'POST',
    headers: { authorization: `Bearer ${curator}` },
    body: form,
  });
  expect(res.status).toBe(201);
  const { url } = (await res.json()) as { url: string };
  // A file no published lesson shows yet is its uploader's: read with their token.
  const part = await fetch(`${contentReplica(1)}${url}`, {
    headers: { range: 'bytes=1000-1999', authorization: `Bearer ${curator}` },
  });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
  expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(1000, 2000))).toBe(true);
});

/** A 2004 commit as scorm-again sends it: this sequence, the bookmark, and completion with a score when `done`. */
const scormCommit = (commitSequence: number, location: string, done: boolean) => ({
  completionStatus: done ? 'completed' : 'incomplete',
  successStatus: done ? 'passed' : 'unknown',
  totalTimeSeconds: 0,
  runtimeData: {
    cmi: {
      completion_status: done ? 'completed' : 'incomplete',
      success_status: done ? 'passed' : 'unknown',
      location,
      exit: done ? 'normal' : 'suspend',
      session_time: 'PT45S',
      score: done ? { raw: '90', min: '0', max: '100', scaled: '0.9' } : {},
    },
  },
  score: done ? { raw: 90, min: 0, max: 100, scaled: 0.9 } : {},
  commitSequence,
});

it('a SCORM package uploaded through one content replica is launched and served through the other; a commit cut off by a killed progress replica is resent and counted once', async () => {
  const progressReplica = (index: number) => `http://127.0.0.1:${stack.replicaPorts.progress[index]}`;
  const asCandidate = <T = any>(base: string, method: string, path: string, body?: unknown) =>
    timed<T>(base, method, path, { token: candidate, body });
  // A published course of one lesson holding the package, uploaded through content's first replica.
  const course = await asCurator(stack.gatewayUrl, 'POST', '/api/courses', {
    title: `SCORM на репликах ${randomBytes(2).toString('hex')}`,
    isPublished: true,
  });
  expect(course.status).toBe(201);
  const moduleId = (
    await asCurator(stack.gatewayUrl, 'POST', '/api/blocks', { type: 'MODULE', courseId: course.body.id, title: 'Модуль' })
  ).body.id;
  const lesson = await asCurator(stack.gatewayUrl, 'POST', '/api/blocks', {
    courseId: course.body.id,
    moduleId,
    title: 'Урок-пакет',
    status: 'published',
  });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await readFile(GOLF))], { type: 'application/zip' }), 'golf.zip');
  const uploaded = await fetch(`${contentReplica(0)}/api/scorm/packages?courseId=${course.body.id}&mode=lesson`, {
    method: 'POST',
    headers: { authorization: `Bearer ${curator}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const pkg = (await uploaded.json()) as ScormPackageSummary;
  const saved = await asCurator(contentReplica(1), 'PATCH', `/api/blocks/${lesson.body.id}`, {
    version: lesson.body.version,
    content: [{ type: 'scorm', content: { packageId: pkg.id, scoId: pkg.scos[0].id, title: pkg.title, version: pkg.version } }],
  });
  expect(saved.status).toBe(200);

  // Launched through the second content replica; its files come from either.
  const launch = await asCandidate<ScormLaunch>(contentReplica(1), 'POST', '/api/scorm/launch', { lessonId: lesson.body.id });
  expect(launch.status).toBe(200);
  const base = new URL(launch.body.url, stack.gatewayUrl).pathname.split('/').slice(0, 3).join('/');
  for (const replica of [contentReplica(0), contentReplica(1)]) {
    const page = await fetch(`${replica}${base}/shared/launchpage.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('contentFrame');
  }

  // Studying takes the consent to the processing of personal data, as a learner gives it at sign-in.
  const consent = await asCandidate(stack.gatewayUrl, 'POST', '/api/consent', { version: CONSENT_DOCUMENT.version });
  expect(consent.status).toBeLessThan(300);
  // The attempt opened through one progress replica, committed through the other.
  const opened = await asCandidate<ScormAttemptState>(progressReplica(0), 'POST', '/api/scorm/attempts', {
    courseId: course.body.id,
    lessonId: lesson.body.id,
  });
  expect({ status: opened.status, body: opened.body }).toMatchObject({ status: 200 });
  const commitPath = `/api/scorm/attempts/${opened.body.id}/commit`;
  expect((await asCandidate(progressReplica(1), 'POST', commitPath, scormCommit(1, '3', false))).status).toBe(200);

  // The final commit reaches the first replica, which is killed before its answer; the player sends it
  // again through the gateway, and once more for good measure: stored once, the lesson completed once.
  const cutOff = asCandidate(progressReplica(0), 'POST', commitPath, scormCommit(2, '15', true)).catch((err: Error) => err);
  await stack.stopOne('progress', 'SIGKILL', 0);
  await cutOff;
  // Until the gateway has taken the dead replica out, a resend may be told 503 in Russian, as the player is.
  await until(
    'the resent commit is stored',
    async () => {
      const resent = await asCandidate(stack.gatewayUrl, 'POST', commitPath, scormCommit(2, '15', true));
      if (resent.status === 503) return false;
      expect(resent.body).toEqual({ result: true, errorCode: 0 });
      return true;
    },
    20_000,
    200,
  );
  const twice = await asCandidate(stack.gatewayUrl, 'POST', commitPath, scormCommit(2, '15', true));
  expect(twice.body).toEqual({ result: true, errorCode: 0 });
  await stack.startOne('progress', 0);
  const again = await asCandidate<ScormAttemptState>(progressReplica(0), 'POST', '/api/scorm/attempts', {
    courseId: course.body.id,
    lessonId: lesson.body.id,
  });
  expect(again.body).toMatchObject({ id: opened.body.id, number: 1, sequence: 2, completed: true });
  const attempts = await asCurator<{ data: ScormAttemptSummary[] }>(
    stack.gatewayUrl,
    'GET',
    `/api/scorm/attempts?courseId=${course.body.id}`,
  );
  expect(attempts.body.data).toHaveLength(1);
  expect(attempts.body.data[0]).toMatchObject({ completionStatus: 'completed', successStatus: 'passed', score: { raw: 90 } });
  const progress = await asCandidate<CourseProgress>(stack.gatewayUrl, 'GET', `/api/progress/course/${course.body.id}`);
  expect(progress.body).toMatchObject({ completedLessons: 1, completedLessonIds: [lesson.body.id], isCompleted: true });
}, 90_000);

it('keeps every read whole and every write accounted for when one replica of each service is killed', async () => {
  const gateway = stack.gatewayUrl;
  const reads: Array<[string, string]> = [
    ['/api/courses?page=1&limit=20', admin],
    ['/api/organizations?page=1&limit=20', admin],
    ['/api/users?page=1&limit=20', admin],
    ['/api/audit?page=1&limit=20', admin],
    // progress asks content for the outline: a service's own call to a peer with a dead replica.
    [`/api/progress/course/${courseId}`, candidate],
    ['/api/auth/profile', candidate],
  ];
  const run = randomBytes(2).toString('hex');
  const readers = load(4, (i) => {
    const [route, token] = reads[i % reads.length];
    return timed(gateway, 'GET', route, { token }).then((answer) => ({ route, answer }));
  });
  const writes: Array<{ name: string; answer: Timed }> = [];
  const writers = load(2, async (i) => {
    const name = `ООО Реплика ${run}-${i}`;
    const answer = await timed(gateway, 'POST', '/api/organizations', {
      token: admin,
      body: { name, inn: uniqueInn() },
    });
    writes.push({ name, answer });
  });

  await until('traffic under way', async () => readers.results.length > 30 && writes.length > 5, 30_000);
  const killed = SERVICE_NAMES.map((name) => stack.processes.get(`${name}#2`));
  expect(killed.every(isAlive)).toBe(true);
  for (const name of SERVICE_NAMES) await stack.stopOne(name, 'SIGKILL', 1);
  const readsAtKill = readers.results.length;
  await until('traffic after the kill', async () => readers.results.length > readsAtKill + 60, 60_000);
  const [readAnswers] = await Promise.all([readers.stop(), writers.stop()]);

  const failedReads = readAnswers.filter(({ answer }) => answer.status !== 200);
  const writeStatuses = writes.reduce<Record<number, number>>(
    (n, { answer }) => ({ ...n, [answer.status]: (n[answer.status] ?? 0) + 1 }),
    {},
  );
  console.log(
    `replica kill: ${readAnswers.length} reads (${readsAtKill} before the kill), non-200 ${failedReads.length}; writes ${JSON.stringify(writeStatuses)}`,
  );
  expect(failedReads.map(({ route, answer }) => `${route} → ${answer.status} ${JSON.stringify(answer.body)}`)).toEqual([]);

  const refused = writes.filter(({ answer }) => answer.status !== 201);
  for (const { answer } of refused) expect([answer.status, answer.body.message]).toEqual([503, MSG.serviceUnavailable]);
  const accepted = writes.filter(({ answer }) => answer.status === 201).map(({ name }) => name);
  expect(accepted.length).toBeGreaterThan(5);
  // Every page of them: a slow machine writes more than one page's worth while the traffic runs.
  const stored = new Set<string>();
  for (let page = 1; ; page++) {
    const listed = await timed(gateway, 'GET', `/api/organizations?page=${page}&limit=100&search=${encodeURIComponent(run)}`, {
      token: admin,
    });
    expect(listed.status).toBe(200);
    for (const o of listed.body.data as Array<{ name: string }>) stored.add(o.name);
    if ((listed.body.data as unknown[]).length < 100) break;
  }
  expect(accepted.filter((name) => !stored.has(name))).toEqual([]);

  const health = await until(
    'health names the dead replicas',
    async () => {
      const answer = await timed(gateway, 'GET', '/api/health');
      return answer.status === 200 && Object.values(answer.body.replicas.crm).includes('down') && answer;
    },
    10_000,
  );
  for (const name of SERVICE_NAMES) expect(Object.values(health.body.replicas[name]).sort()).toEqual(['down', 'ready']);
}, 120_000);
