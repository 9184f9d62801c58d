import { GENERATION_MSG, type Course, type GenerationJob } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { startFakeProvider, type FakeAnswer, type FakeProvider } from '../../generation/fakeProvider';
import { courseBuilderOf } from '../../generation/service';
import {
  countAll,
  startContent,
  startContentReplica,
  storedCourse,
  waitForJob,
  waitUntil,
  type ContentTestBed,
} from '../../testing';

/*
 * Two content replicas (two apps, each with its worker) on the same store, Redis and queue, as two
 * processes behind the gateway: whatever one started, the other reads, cancels and accepts.
 */

const REQUEST = { topic: 'Работа с клиентами', audience: 'Новые менеджеры', goals: ['Слушать клиента'] };

let fake: FakeProvider;
let bed: ContentTestBed;
let other: Awaited<ReturnType<typeof startContentReplica>>;

const AI_ENV = { AI_MODEL: 'test-model', AI_TIMEOUT_MS: '10000', AI_RATE_LIMIT: '1000' };

beforeAll(async () => {
  fake = await startFakeProvider();
  bed = await startContent({ ...AI_ENV, AI_BASE_URL: fake.url });
  other = await startContentReplica(bed, { ...AI_ENV, AI_BASE_URL: fake.url });
});
afterAll(async () => {
  await other?.close();
  await bed?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const curator = () => bed.as.CURATOR.token;
const on = <T = any>(url: string, method: string, path: string, body?: unknown) =>
  api<T>(url, method, path, { token: curator(), body });

const json = (value: unknown): FakeAnswer => ({ content: JSON.stringify(value), totalTokens: 10 });
const outline = (title: string) =>
  json({ title: `Курс: ${title}`, description: '', modules: [{ title, description: '', lessonTitles: ['Урок'] }] });
const lessons = (title: string) =>
  json({ lessons: [{ title: `${title}: урок`, blocks: [{ type: 'text', text: `Текст модуля ${title}` }] }] });
const quiz = (title: string) =>
  json({
    title: `Квиз: ${title}`,
    questions: [
      {
        type: 'single_choice',
        question: `Вопрос про ${title}?`,
        options: ['Да', 'Нет'],
        correctAnswers: [0],
        explanation: 'Так в уроке',
      },
      { type: 'true_false', question: `Утверждение про ${title}`, correctAnswer: 'true', explanation: 'Так и есть' },
    ],
  });

/** Which replica works the queue: the other one's worker is stopped, so the test knows where a job runs. */
async function onlyWorker(which: 'bed' | 'other') {
  const [run, stop] = which === 'bed' ? [bed.content.ctx, other.ctx] : [other.ctx, bed.content.ctx];
  await courseBuilderOf(stop).stopWorker();
  courseBuilderOf(run).startWorker();
}

it('a job started through one replica and worked by it is polled and cancelled through the other: nothing is left', async () => {
  await onlyWorker('bed');
  const before = await countAll(bed);
  // The lessons call hangs, so the job is surely running when the other replica cancels it.
  fake.script(outline('Первый'), { ...lessons('Первый'), delayMs: 8000 });
  const started = await on<GenerationJob>(bed.content.url, 'POST', '/api/courses/generate', REQUEST);
  expect(started.status).toBe(202);
  await waitUntil(() => fake.requests.length === 2);

  const polled = await on<GenerationJob>(other.url, 'GET', `/api/generations/${started.body.id}`);
  expect(polled.status).toBe(200);
  expect(polled.body).toMatchObject({ id: started.body.id, status: 'running', stage: 'lessons' });
  expect(polled.body.progress).toBeGreaterThan(0);

  const cancelled = await on<GenerationJob>(other.url, 'DELETE', `/api/generations/${started.body.id}`);
  expect(cancelled.status).toBe(200);
  expect(cancelled.body).toMatchObject({ status: 'cancelled', error: GENERATION_MSG.cancelled, courseId: null });
  // Both replicas say the same, and the replica that worked it stopped at once (no third call).
  for (const url of [bed.content.url, other.url])
    expect((await on<GenerationJob>(url, 'GET', `/api/generations/${started.body.id}`)).body.status).toBe('cancelled');
  expect(fake.requests).toHaveLength(2);
  expect(await countAll(bed)).toEqual(before);
});

it('a course built on one replica, and a proposal made there, is accepted through the other, once', async () => {
  await onlyWorker('other');
  fake.script(outline('Второй'), lessons('Второй'), quiz('Второй'));
  const started = await on<GenerationJob>(bed.content.url, 'POST', '/api/courses/generate', REQUEST);
  const job = await waitForJob({ content: other }, curator(), started.body.id);
  expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
  const course = (await on<Course>(bed.content.url, 'GET', `/api/courses/${job.courseId}`)).body;
  const lesson = course.modules[0].lessons[0];

  fake.script(json({ title: 'Новый урок', blocks: [{ type: 'text', text: 'Переписано на другой реплике' }] }));
  const regen = await on<GenerationJob>(other.url, 'POST', '/api/generations/regenerate', { target: 'lesson', id: lesson.id });
  expect(regen.status).toBe(202);
  const proposed = await waitForJob(bed, curator(), regen.body.id);
  expect(proposed.proposal).toMatchObject({ kind: 'lesson', title: 'Новый урок' });

  // Two accepts at once on the two replicas: one applies it, the other is told there is nothing to accept.
  const answers = await Promise.all([
    on<Course & { message?: string }>(bed.content.url, 'POST', `/api/generations/${regen.body.id}/accept`),
    on<Course & { message?: string }>(other.url, 'POST', `/api/generations/${regen.body.id}/accept`),
  ]);
  expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  expect(answers.find((a) => a.status === 409)?.body.message).toBe(GENERATION_MSG.notAProposal);
  const stored = await storedCourse(bed, course.id);
  expect(stored.blocks.find((b) => String(b._id) === lesson.id)?.content).toContain('Переписано на другой реплике');
  expect((await on<GenerationJob>(other.url, 'GET', `/api/generations/${regen.body.id}`)).body).toMatchObject({
    status: 'succeeded',
    proposal: null,
  });
});

it('a replica that stops (a rolling deploy) hands its running job to the other, which finishes it', async () => {
  await onlyWorker('bed');
  // A third replica, stopped while its job waits on the model.
  const leaving = await startContentReplica(bed, { ...AI_ENV, AI_BASE_URL: fake.url });
  await courseBuilderOf(bed.content.ctx).stopWorker();
  const before = await countAll(bed);
  fake.script(outline('Третий'), { ...lessons('Третий'), delayMs: 3000 });
  const started = await on<GenerationJob>(leaving.url, 'POST', '/api/courses/generate', REQUEST);
  await waitUntil(() => fake.requests.length === 2);
  fake.script(outline('Третий'), lessons('Третий'), quiz('Третий'));
  await leaving.close();
  courseBuilderOf(other.ctx).startWorker();

  const job = await waitForJob({ content: other }, curator(), started.body.id);
  expect(job).toMatchObject({ status: 'succeeded', stage: 'done' });
  const after = await countAll(bed);
  expect(after.courses).toBe(before.courses + 1);
  const course = (await on<Course>(other.url, 'GET', `/api/courses/${job.courseId}`)).body;
  expect(course.modules.map((m) => m.title)).toEqual(['Третий']);
  // Exactly this course's parts exist beyond what was there: nothing half-made from the first attempt.
  const stored = await storedCourse(bed, course.id);
  expect(after.blocks - before.blocks).toBe(stored.blocks.length);
  expect(after.quizzes - before.quizzes).toBe(stored.quizzes.length);
});
