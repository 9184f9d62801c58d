import path from 'node:path';
import { Types } from 'mongoose';
import { GENERATION_MSG, NEW_QUIZ_DEFAULTS, type Course, type GenerationJob } from '@portal/contracts';
import { startProcess, type ManagedProcess } from '@portal/devstack/processes';
import { api } from '@portal/devstack/testing';
import { ROOT, freePort, waitFor } from '@portal/devstack/util';
import { generationJobModel } from '../../models/generationJob';
import { startFakeProvider, type FakeAnswer, type FakeProvider } from '../../generation/fakeProvider';
import { courseBuilderOf } from '../../generation/service';
import { countAll, startContent, storedCourse, waitForJob, waitUntil, type ContentTestBed } from '../../testing';

/*
 * A real content process is SIGKILLed while it works a course-builder job; the content app of this
 * test (another replica on the same store, Redis and queue) takes the job over. A replica that
 * stops renewing a job's lock for GENERATION_LOCK_MS is taken for dead: short here, so this is quick.
 */

const LOCK_MS = '1000';
const REQUEST = { topic: 'Охрана труда', audience: 'Сотрудники склада', goals: ['Знать правила'] };

let fake: FakeProvider;
let bed: ContentTestBed;
const processes: ManagedProcess[] = [];

const aiEnv = () => ({
  AI_BASE_URL: fake.url,
  AI_MODEL: 'test-model',
  AI_TIMEOUT_MS: '30000',
  AI_RATE_LIMIT: '1000',
  GENERATION_LOCK_MS: LOCK_MS,
});

beforeAll(async () => {
  fake = await startFakeProvider();
  bed = await startContent(aiEnv());
});
afterAll(async () => {
  for (const proc of processes) proc.kill();
  await bed?.close();
  await fake?.close();
});
beforeEach(async () => {
  fake.reset();
  // Only the real process works the queue until it is killed.
  await courseBuilderOf(bed.content.ctx).stopWorker();
});

/** Another content replica: a real process from the sources, on this bed's databases and queue. */
async function startContentProcess(): Promise<{ url: string; proc: ManagedProcess }> {
  const port = await freePort();
  const { config } = bed.content.ctx;
  const proc = startProcess(
    `content-replica-${port}`,
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(ROOT, 'services/content/src/index.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...aiEnv(),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        MONGO_URL: config.MONGO_URL,
        REDIS_URL: config.REDIS_URL,
        DB_PREFIX: config.DB_PREFIX,
        QUEUE_PREFIX: config.QUEUE_PREFIX,
        AUTH_URL: bed.auth.url,
        UPLOAD_DIR: config.UPLOAD_DIR,
        JWT_SECRET: config.JWT_SECRET,
        INTERNAL_TOKEN: config.INTERNAL_TOKEN,
      },
    },
  );
  processes.push(proc);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`content replica exited with ${proc.child.exitCode}`);
      return (await fetch(`${url}/readyz`).catch(() => null))?.ok ?? false;
    },
    'content replica',
    30_000,
  );
  return { url, proc };
}

const json = (value: unknown): FakeAnswer => ({ content: JSON.stringify(value), totalTokens: 10 });
const outline = json({
  title: 'Охрана труда',
  description: '',
  modules: [{ title: 'Склад', description: '', lessonTitles: ['Урок'] }],
});
const lessons = json({ lessons: [{ title: 'Склад: урок', blocks: [{ type: 'text', text: 'Правила работы на складе' }] }] });
const quiz = json({
  title: 'Квиз: Склад',
  questions: [
    { type: 'single_choice', question: 'Можно ли бегать?', options: ['Да', 'Нет'], correctAnswers: [1], explanation: 'Нельзя' },
    { type: 'true_false', question: 'Каска нужна', correctAnswer: 'true', explanation: 'Нужна' },
  ],
});
/** An answer that never comes in time: the replica is killed while it waits. */
const hanging: FakeAnswer = { ...lessons, delayMs: 60_000 };

/** The parts a dead replica left of a draft it was saving (its blocks and quiz are written before the course). */
async function leaveHalfSavedDraft(jobId: string): Promise<string> {
  const courseId = new Types.ObjectId();
  await generationJobModel(bed.content.ctx.store).updateOne({ _id: jobId }, { $set: { draftCourseId: String(courseId) } });
  await bed.models.blocks.create({ type: 'MODULE', courseId, moduleId: null, title: 'Склад', position: 0, status: 'draft' });
  await bed.models.quizzes.create({
    title: 'Квиз: Склад',
    courseId: String(courseId),
    questions: [],
    settings: { ...NEW_QUIZ_DEFAULTS.settings },
    createdBy: bed.as.CURATOR.user.id,
  });
  return String(courseId);
}

async function startJobOnProcess(url: string): Promise<GenerationJob> {
  const started = await api<GenerationJob>(url, 'POST', '/api/courses/generate', { token: bed.as.CURATOR.token, body: REQUEST });
  expect(started.status).toBe(202);
  return started.body;
}

it('a content process killed mid-job: another replica takes the job over and finishes it; nothing half-made is left', async () => {
  const before = await countAll(bed);
  const replica = await startContentProcess();
  fake.script(outline, hanging);
  const job = await startJobOnProcess(replica.url);
  await waitUntil(() => fake.requests.length === 2, 15_000);
  const halfMade = await leaveHalfSavedDraft(job.id);

  replica.proc.kill();
  fake.script(outline, lessons, quiz);
  courseBuilderOf(bed.content.ctx).startWorker();

  const done = await waitForJob(bed, bed.as.CURATOR.token, job.id, 20_000);
  expect(done).toMatchObject({ status: 'succeeded', stage: 'done', progress: 100, error: null });
  const course = (await api<Course>(bed.content.url, 'GET', `/api/courses/${done.courseId}`, { token: bed.as.CURATOR.token }))
    .body;
  expect(course.modules.map((m) => m.title)).toEqual(['Склад']);
  expect(course.modules[0].lessons.map((l) => l.title)).toEqual(['Склад: урок', 'Проверка знаний: Склад']);
  // What the dead replica had begun is gone; exactly one course's parts were added.
  expect(await storedCourse(bed, halfMade)).toEqual({ course: null, blocks: [], quizzes: [] });
  const stored = await storedCourse(bed, course.id);
  expect(await countAll(bed)).toEqual({
    courses: before.courses + 1,
    blocks: before.blocks + stored.blocks.length,
    quizzes: before.quizzes + stored.quizzes.length,
  });
});

it('a job that outlives two killed processes fails with a clear message, and nothing is kept', async () => {
  const before = await countAll(bed);
  const first = await startContentProcess();
  fake.script(outline, hanging);
  const job = await startJobOnProcess(first.url);
  await waitUntil(() => fake.requests.length === 2, 15_000);
  first.proc.kill();

  // The second process takes it over, and dies in its turn while saving.
  const second = await startContentProcess();
  fake.script(outline, hanging);
  await waitUntil(() => fake.requests.length === 4, 15_000);
  await leaveHalfSavedDraft(job.id);
  second.proc.kill();
  courseBuilderOf(bed.content.ctx).startWorker();

  const done = await waitForJob(bed, bed.as.CURATOR.token, job.id, 20_000);
  expect(done).toMatchObject({ status: 'failed', error: GENERATION_MSG.interrupted, courseId: null, proposal: null });
  expect(await countAll(bed)).toEqual(before);
  expect(fake.requests).toHaveLength(4);
});
