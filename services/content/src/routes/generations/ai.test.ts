import { GENERATION_MSG, type Course, type GenerationJob } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { startFakeProvider, type FakeAnswer, type FakeProvider } from '../../generation/fakeProvider';
import { countAll, quizIdsOf, startContent, storedCourse, waitForJob, waitUntil, type ContentTestBed } from '../../testing';

/** A key that must never come back in any answer. */
const KEY = 'sk-test-0123456789-very-secret';
const TIMEOUT_MS = 1500;
const REQUEST = {
  topic: 'Продажи по телефону',
  audience: 'Операторы колл-центра',
  goals: ['Начинать разговор', 'Работать с возражениями'],
};

let fake: FakeProvider;
let bed: ContentTestBed;
/** Every answer body of this file, to prove the key never leaves the service. */
const answers: string[] = [];

beforeAll(async () => {
  fake = await startFakeProvider();
  bed = await startContent({
    AI_BASE_URL: fake.url,
    AI_API_KEY: KEY,
    AI_MODEL: 'test-model',
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
    AI_MAX_TOKENS: '1234',
    AI_RATE_LIMIT: '1000',
  });
});
afterAll(async () => {
  await bed?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const call = async <T = any>(method: string, path: string, token?: string, body?: unknown) => {
  const answer = await api<T>(bed.content.url, method, path, { token, body });
  answers.push(JSON.stringify(answer.body), JSON.stringify([...answer.headers]));
  return answer;
};
const curator = () => bed.as.CURATOR.token;

const json = (value: unknown, totalTokens = 100): FakeAnswer => ({ content: JSON.stringify(value), totalTokens });
const outline = (titles: string[]) =>
  json({
    title: 'Продажи по телефону: с нуля',
    description: 'Курс для операторов',
    modules: titles.map((title) => ({
      title,
      description: `О модуле ${title}`,
      lessonTitles: [`${title}: урок 1`, `${title}: урок 2`],
    })),
  });
const lessons = (module: string) =>
  json({
    lessons: [1, 2].map((n) => ({
      title: `${module}: урок ${n}`,
      blocks: [
        { type: 'heading', text: `Раздел ${n}` },
        { type: 'text', text: `Текст урока ${n} модуля ${module}` },
        { type: 'video', suggestion: `Ролик к уроку ${n}` },
      ],
    })),
  });
const quiz = (module: string) =>
  json({
    title: `Квиз: ${module}`,
    questions: [
      {
        type: 'single_choice',
        question: `Вопрос по ${module}?`,
        options: ['Да', 'Нет'],
        correctAnswers: [0],
        explanation: 'Так в уроке',
      },
      { type: 'true_false', question: `Утверждение о ${module}`, correctAnswer: 'false', explanation: 'Это неверно' },
    ],
  });
const fullScript = (modules: string[]) => [outline(modules), ...modules.map(lessons), ...modules.map(quiz)];

async function start(token = curator(), body: Record<string, unknown> = REQUEST) {
  const started = await call<GenerationJob>('POST', '/api/courses/generate', token, body);
  expect(started.status).toBe(202);
  return started.body;
}

describe('the course builder with an OpenAI-compatible provider', () => {
  it('says the source is AI', async () => {
    expect((await call('GET', '/api/generations/config', curator())).body).toEqual({
      source: 'ai',
      notice: GENERATION_MSG.aiAhead,
    });
  });

  it('saves the modules, lessons and quizzes of a valid answer; the requests carry the model and the key', async () => {
    fake.script(...fullScript(['Первый звонок', 'Возражения']));
    const started = await start();
    expect(started).toMatchObject({ source: 'ai', notice: GENERATION_MSG.aiNotice });
    const job = await waitForJob(bed, curator(), started.id);
    expect(job).toMatchObject({ status: 'succeeded', stage: 'done', progress: 100, error: null });

    expect(fake.requests).toHaveLength(5);
    for (const req of fake.requests) {
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.body).toMatchObject({
        model: 'test-model',
        temperature: 0.4,
        max_tokens: 1234,
        response_format: { type: 'json_object' },
      });
    }
    expect(fake.requests[0].body.messages?.map((m) => m.content).join('\n')).toContain('Работать с возражениями');

    const { body: course } = await call<Course>('GET', `/api/courses/${job.courseId}`, curator());
    expect(course).toMatchObject({ title: 'Продажи по телефону: с нуля', description: 'Курс для операторов', status: 'draft' });
    expect(course.modules.map((m) => m.title)).toEqual(['Первый звонок', 'Возражения']);
    expect(course.modules[1].description).toBe('О модуле Возражения');
    expect(course.modules[1].lessons.map((l) => l.title)).toEqual([
      'Возражения: урок 1',
      'Возражения: урок 2',
      'Проверка знаний: Возражения',
    ]);
    const video = course.modules[0].lessons[0].blocks.find((b) => b.type === 'video');
    expect(video?.content).toMatchObject({ src: '', title: 'Ролик к уроку 1', description: 'Ролик к уроку 1' });
    const quizIds = quizIdsOf(course);
    expect(quizIds).toHaveLength(2);
    const stored = await bed.models.quizzes.findById(quizIds[1]).lean();
    expect(stored).toMatchObject({ title: 'Квиз: Возражения', courseId: course.id });
    expect(stored?.questions.map((q) => [q.type, q.question, q.explanation])).toEqual([
      ['single_choice', 'Вопрос по Возражения?', 'Так в уроке'],
      ['true_false', 'Утверждение о Возражения', 'Это неверно'],
    ]);
  });

  it('repairs an invalid answer once and succeeds', async () => {
    fake.script({ content: '```json\n{"title": "Курс", "modules": [\n```', totalTokens: 10 }, ...fullScript(['Единственный']));
    const job = await waitForJob(bed, curator(), (await start()).id);
    expect(job.status).toBe('succeeded');
    expect(fake.requests).toHaveLength(4);
    const repair = fake.requests[1].body.messages ?? [];
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: '```json\n{"title": "Курс", "modules": [\n```' });
    expect(repair.at(-1)?.content).toMatch(/Проблемы:\n- Ответ не является корректным JSON/);
    expect((await call<Course>('GET', `/api/courses/${job.courseId}`, curator())).body.modules).toHaveLength(1);
  });

  it('fails with invalidOutput after a second invalid answer, creating nothing', async () => {
    const before = await countAll(bed);
    fake.script(fullScript(['М'])[0], { content: '{"lessons": []}' }, { content: 'не JSON' });
    const job = await waitForJob(bed, curator(), (await start()).id);
    expect(job).toMatchObject({ status: 'failed', error: GENERATION_MSG.invalidOutput, courseId: null });
    expect(fake.requests).toHaveLength(3);
    expect(await countAll(bed)).toEqual(before);
  });

  it('fails with providerTimeout when the model answers too late, saving nothing', async () => {
    const before = await countAll(bed);
    fake.script({ ...outline(['М']), delayMs: TIMEOUT_MS * 3 });
    const job = await waitForJob(bed, curator(), (await start()).id);
    expect(job).toMatchObject({ status: 'failed', error: GENERATION_MSG.providerTimeout, courseId: null });
    expect(await countAll(bed)).toEqual(before);
  });

  it('fails with providerFailed when the provider answers an error status', async () => {
    fake.script({ status: 503, body: '{"error":"overloaded"}' });
    const job = await waitForJob(bed, curator(), (await start()).id);
    expect(job).toMatchObject({ status: 'failed', error: GENERATION_MSG.providerFailed });
  });

  it('cancels while the model is slow: cancelled, nothing left', async () => {
    const before = await countAll(bed);
    fake.script(outline(['Первый', 'Второй']), { ...lessons('Первый'), delayMs: TIMEOUT_MS - 200 });
    const started = await start();
    await waitUntil(() => fake.requests.length === 2);
    const cancelled = await call<GenerationJob>('DELETE', `/api/generations/${started.id}`, curator());
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', error: GENERATION_MSG.cancelled, courseId: null });
    expect((await call<GenerationJob>('GET', `/api/generations/${started.id}`, curator())).body.status).toBe('cancelled');
    expect(await countAll(bed)).toEqual(before);
    expect(fake.requests).toHaveLength(2);
  });

  it('regenerates a lesson with the course as context and applies it on accept', async () => {
    fake.script(...fullScript(['Первый звонок']));
    const job = await waitForJob(bed, curator(), (await start()).id);
    const { body: course } = await call<Course>('GET', `/api/courses/${job.courseId}`, curator());
    const lesson = course.modules[0].lessons[0];
    fake.reset();
    fake.script(json({ title: 'Новый урок', blocks: [{ type: 'text', text: 'Переписанный текст' }] }));
    const started = await call<GenerationJob>('POST', '/api/generations/regenerate', curator(), {
      target: 'lesson',
      id: lesson.id,
      instructions: 'больше примеров',
    });
    expect(started.status).toBe(202);
    const done = await waitForJob(bed, curator(), started.body.id);
    expect(done.proposal).toEqual({
      kind: 'lesson',
      title: 'Новый урок',
      blocks: [{ type: 'text', text: 'Переписанный текст' }],
    });
    const prompt = fake.requests[0].body.messages?.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('Продажи по телефону: с нуля');
    expect(prompt).toContain('Текст урока 1 модуля Первый звонок');
    expect(prompt).toContain('больше примеров');
    expect((await bed.models.blocks.findById(lesson.id).lean())?.title).toBe(lesson.title);
    const accepted = await call<Course>('POST', `/api/generations/${done.id}/accept`, curator());
    expect(accepted.status).toBe(200);
    expect(accepted.body.modules[0].lessons[0]).toMatchObject({ id: lesson.id, title: 'Новый урок' });
    const stored = await storedCourse(bed, course.id);
    expect(stored.blocks.find((b) => String(b._id) === lesson.id)?.content).toContain('Переписанный текст');
  });

  it('never sends the provider key back in any answer', () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const text of answers) expect(text).not.toContain(KEY);
  });
});

describe('limits', () => {
  let limited: ContentTestBed;
  let limitedFake: FakeProvider;
  beforeAll(async () => {
    limitedFake = await startFakeProvider();
    limited = await startContent({
      AI_BASE_URL: limitedFake.url,
      AI_MODEL: 'test-model',
      AI_RATE_LIMIT: '2',
      AI_RATE_WINDOW_SECONDS: '600',
      AI_DAILY_TOKEN_BUDGET: '1000',
    });
  });
  afterAll(async () => {
    await limited?.close();
    await limitedFake?.close();
  });

  const generate = (token: string) =>
    api<GenerationJob & { message?: string }>(limited.content.url, 'POST', '/api/courses/generate', { token, body: REQUEST });

  it('the third generation within the window is refused with 429 and Retry-After', async () => {
    const token = limited.as.CURATOR.token;
    limitedFake.fallback = { status: 500 };
    for (let i = 0; i < 2; i++) {
      const ok = await generate(token);
      expect(ok.status).toBe(202);
      await waitForJob(limited, token, ok.body.id);
    }
    const before = await countAll(limited);
    const refused = await generate(token);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Слишком много генераций. Попробуйте снова через 10 мин.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect(await countAll(limited)).toEqual(before);
    // Another author has their own count.
    expect((await generate(limited.as.ADMIN.token)).status).toBe(202);
  });

  it('a spent daily token budget fails the job midway and refuses the next request with 429', async () => {
    const author = await userWithRole(limited.auth, 'CURATOR', 'Третий Куратор');
    limitedFake.reset();
    // The first answer reports more tokens than the whole day's budget; the next call is never made.
    limitedFake.script({ ...outline(['М']), totalTokens: 5000 }, lessons('М'));
    const first = await generate(author.token);
    expect(first.status).toBe(202);
    const job = await waitForJob(limited, author.token, first.body.id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe(GENERATION_MSG.tokenBudgetExhausted);
    expect(await limited.models.courses.countDocuments({ createdBy: author.user.id })).toBe(0);
    const refused = await generate(author.token);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(GENERATION_MSG.tokenBudgetExhausted);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limitedFake.requests).toHaveLength(1);
  });
});
