import {
  MSG,
  contentBlocksOf,
  type BankQuestion,
  type BlockRecord,
  type Course,
  type CourseOutline,
  type Quiz,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { seedCourse, startContent, type ContentTestBed } from '../testing';

/** Optimistic concurrency of courses, modules, lessons and quizzes (docs/decisions/028). */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const staff = () => bed.as.CURATOR.token;
const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  api<T>(bed.content.url, method, path, { token: staff(), body, headers });
const textBlock = (text: string) => [{ type: 'text', content: { text } }];

async function lessonOf(): Promise<BlockRecord> {
  const course = await seedCourse(bed, { modules: [1] });
  return (await call<BlockRecord>('GET', `/api/blocks/${course.modules[0].lessons[0].id}`)).body;
}

describe('a lesson', () => {
  it('carries its version as a strong ETag and in the body, and each write moves it on', async () => {
    const lesson = await lessonOf();
    const read = await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`);
    expect(read.headers.get('etag')).toBe(`"${read.body.version}"`);
    const saved = await call('PATCH', `/api/blocks/${lesson.id}`, { content: textBlock('a'), version: read.body.version });
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(read.body.version + 1);
    const again = await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`);
    expect(again.headers.get('etag')).toBe(`"${read.body.version + 1}"`);
  });

  it('refuses a write based on a stale If-Match with 412 and the Russian message, and keeps the first author’s block', async () => {
    const lesson = await lessonOf();
    const first = await call(
      'PATCH',
      `/api/blocks/${lesson.id}`,
      { content: textBlock('первый автор') },
      { 'If-Match': `"${lesson.version}"` },
    );
    expect(first.status).toBe(200);
    const second = await call(
      'PATCH',
      `/api/blocks/${lesson.id}`,
      { content: textBlock('второй автор') },
      { 'If-Match': `"${lesson.version}"` },
    );
    expect(second.status).toBe(412);
    expect(second.body).toEqual({ statusCode: 412, message: MSG.staleDocument });
    const stored = (await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`)).body;
    expect(contentBlocksOf(stored).map((b) => (b.content as { text: string }).text)).toEqual(['первый автор']);
    expect(stored.version).toBe(lesson.version + 1);
  });

  it('refuses a stale version in the body the same way, and never stores the version field as given', async () => {
    const lesson = await lessonOf();
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, { title: 'Новое', version: lesson.version })).status).toBe(200);
    const stale = await call('PATCH', `/api/blocks/${lesson.id}`, { title: 'Старое', version: lesson.version });
    expect(stale.status).toBe(412);
    const stored = await bed.models.blocks.findById(lesson.id).lean();
    expect(stored).toMatchObject({ title: 'Новое', version: lesson.version + 1 });
  });

  it('of ten parallel writers from the same version, exactly one wins and nine get 412', async () => {
    const lesson = await lessonOf();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('PATCH', `/api/blocks/${lesson.id}`, { content: textBlock(`писатель ${i}`), version: lesson.version }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(412)]);
    const winner = answers.findIndex((a) => a.status === 200);
    const stored = (await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`)).body;
    expect(contentBlocksOf(stored).map((b) => (b.content as { text: string }).text)).toEqual([`писатель ${winner}`]);
    expect(stored.version).toBe(lesson.version + 1);
  });

  it('refuses a write without a version, or with If-Match: *, with 428 and the Russian message, changing nothing', async () => {
    const lesson = await lessonOf();
    for (const headers of [{}, { 'If-Match': '*' }] as Array<Record<string, string>>) {
      const refused = await call('PATCH', `/api/blocks/${lesson.id}`, { title: 'Без версии' }, headers);
      expect(refused.body).toEqual({ statusCode: 428, message: MSG.versionRequired });
    }
    expect(await bed.models.blocks.findById(lesson.id).lean()).toMatchObject({ title: lesson.title, version: lesson.version });
  });

  it('never matches a weak tag (the course page’s cache tag), and refuses a version that is not a count with 400', async () => {
    const lesson = await lessonOf();
    const weak = await call('PATCH', `/api/blocks/${lesson.id}`, { title: 'Слабый' }, { 'If-Match': `W/"${lesson.version}"` });
    expect(weak.status).toBe(412);
    for (const version of ['1', -1, 1.5, { $gt: 0 }]) {
      const answer = await call('PATCH', `/api/blocks/${lesson.id}`, { title: 'Плохая версия', version });
      expect(answer.body).toEqual({ statusCode: 400, message: MSG.versionInvalid, field: 'version' });
    }
    expect((await bed.models.blocks.findById(lesson.id).lean())?.title).toBe(lesson.title);
  });

  it('keeps its version when it is only moved (a reorder does not make an open editor stale)', async () => {
    const course = await seedCourse(bed, { modules: [2] });
    const [a, b] = course.modules[0].lessons;
    const moved = await call('POST', '/api/blocks/reorder', { blocks: [{ id: b.id, position: 0 }] });
    expect(moved.status).toBe(200);
    expect((await call('PATCH', `/api/blocks/${a.id}`, { title: 'После перестановки', version: a.version })).status).toBe(200);
  });
});

describe('a module', () => {
  it('has a version in the outline, and a stale one is refused', async () => {
    const course = await seedCourse(bed, { modules: [0] });
    const outline = (await call<CourseOutline>('GET', `/api/courses/${course.id}/outline`)).body;
    const mod = outline.modules[0];
    expect(mod.version).toBe(0);
    expect((await call('PATCH', `/api/blocks/${mod.id}`, { title: 'Первый', version: 0 })).status).toBe(200);
    const stale = await call('PATCH', `/api/blocks/${mod.id}`, { title: 'Второй', version: 0 });
    expect(stale.status).toBe(412);
    const after = (await call<CourseOutline>('GET', `/api/courses/${course.id}/outline`)).body.modules[0];
    expect(after).toMatchObject({ title: 'Первый', version: 1 });
  });
});

describe('a course', () => {
  it('refuses a stale version with 412 and changes nothing; the course page still answers 304 to its own tag', async () => {
    const course = await seedCourse(bed);
    expect(course.version).toBe(0);
    expect((await call('PATCH', `/api/courses/${course.id}`, { title: 'Первый автор', version: 0 })).body.version).toBe(1);
    const stale = await call('PATCH', `/api/courses/${course.id}`, { title: 'Второй автор', price: 500 }, { 'If-Match': '"0"' });
    expect(stale.status).toBe(412);
    const page = await call<Course>('GET', `/api/courses/${course.id}`);
    expect(page.body).toMatchObject({ title: 'Первый автор', price: 0, version: 1 });
    const tag = page.headers.get('etag') as string;
    expect(
      (await call('GET', `/api/courses/${course.id}`, undefined, { 'If-None-Match': tag, 'Cache-Control': 'max-age=0' })).status,
    ).toBe(304);
  });

  it('keeps its own version when its lessons change: the course form is not made stale by a lesson edit', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, { content: textBlock('x'), version: lesson.version })).status).toBe(
      200,
    );
    const saved = await call('PATCH', `/api/courses/${course.id}`, { description: 'Описание', version: course.version });
    expect(saved.status).toBe(200);
  });

  it('of ten parallel writers, exactly one wins', async () => {
    const course = await seedCourse(bed);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('PATCH', `/api/courses/${course.id}`, { title: `Курс ${i}`, version: course.version }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 412)).toHaveLength(9);
    const winner = answers.find((a) => a.status === 200)?.body.title;
    expect(await bed.models.courses.findById(course.id).lean()).toMatchObject({ title: winner, version: 1 });
  });
});

describe('every versioned record', () => {
  it('refuses an edit without a version with 428 and the Russian message: course, module, quiz and bank question', async () => {
    const course = await seedCourse(bed, { modules: [0] });
    const mod = (await call<CourseOutline>('GET', `/api/courses/${course.id}/outline`)).body.modules[0];
    const quiz = (await call<Quiz>('POST', '/api/quizzes', { title: 'Квиз без версии', questions: [] })).body;
    const question = (
      await call<BankQuestion>('POST', `/api/courses/${course.id}/bank`, {
        tags: ['версии'],
        question: { type: 'single_choice', question: 'Вопрос', options: ['Да', 'Нет'], correctAnswers: [0] },
      })
    ).body;
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['PATCH', `/api/courses/${course.id}`, { title: 'Чужая правка' }],
      ['PATCH', `/api/blocks/${mod.id}`, { title: 'Чужая правка' }],
      ['PATCH', `/api/quizzes/${quiz.id}`, { title: 'Чужая правка' }],
      ['PUT', `/api/courses/${course.id}/bank/${question.id}`, { tags: ['чужая'], question: question.question }],
    ];
    for (const [method, path, body] of writes) {
      expect([path, (await call(method, path, body)).body]).toEqual([path, { statusCode: 428, message: MSG.versionRequired }]);
    }
    expect(await bed.models.courses.findById(course.id).lean()).toMatchObject({ title: course.title, version: 0 });
    expect(await bed.models.blocks.findById(mod.id).lean()).toMatchObject({ title: mod.title, version: 0 });
    expect(await bed.models.quizzes.findById(quiz.id).lean()).toMatchObject({ title: 'Квиз без версии', version: 0 });
    expect(await bed.models.bank.findById(question.id).lean()).toMatchObject({ tags: ['версии'], version: 0 });
  });
});

describe('a quiz', () => {
  const newQuiz = async () => (await call<Quiz>('POST', '/api/quizzes', { title: 'Квиз', questions: [] })).body;

  it('carries its version as an ETag for its authors, and a stale write is 412 with nothing changed', async () => {
    const quiz = await newQuiz();
    const read = await call<Quiz>('GET', `/api/quizzes/${quiz.id}`);
    expect(read.headers.get('etag')).toBe(`"${quiz.version}"`);
    expect((await call('PATCH', `/api/quizzes/${quiz.id}`, { title: 'Первый', version: quiz.version })).status).toBe(200);
    const stale = await call(
      'PATCH',
      `/api/quizzes/${quiz.id}`,
      { title: 'Второй', settings: { maxAttempts: 9 } },
      { 'If-Match': read.headers.get('etag') as string },
    );
    expect(stale.body).toEqual({ statusCode: 412, message: MSG.staleDocument });
    const stored = (await call<Quiz>('GET', `/api/quizzes/${quiz.id}`)).body;
    expect(stored).toMatchObject({ title: 'Первый', version: quiz.version + 1 });
    expect(stored.settings.maxAttempts).toBe(quiz.settings.maxAttempts);
  });

  it('of ten parallel writers, exactly one wins', async () => {
    const quiz = await newQuiz();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('PATCH', `/api/quizzes/${quiz.id}`, { title: `Квиз ${i}`, version: quiz.version }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(412)]);
  });
});
