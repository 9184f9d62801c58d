import {
  contentBlocksOf,
  type BlockRecord,
  type Course,
  type CourseOutline,
  type CourseSummary,
  invalidIdMessage,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { basedOnStored, seedCourse, startContent, type ContentTestBed } from '../../testing';

/**
 * The editor and study mode open a course through its outline (no lesson content) and read each
 * lesson's blocks when it is opened (GET /api/blocks/{id}).
 */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

// Every edit here is based on the version stored just before it, as the editor's is on what it read.
const call = async <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
  });
const curator = () => bed.as.CURATOR.token;
const UNKNOWN_ID = '64b7f0c2a1b2c3d4e5f60718';
const BAD_ID = encodeURIComponent('bad id!');

async function ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await call<T>(method, path, curator(), body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const outlineOf = async (id: string, token = curator()) => {
  const answer = await call<CourseOutline>('GET', `/api/courses/${id}/outline`, token);
  if (answer.status !== 200) throw new Error(`outline: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};
const lessonTitles = (c: { modules: Array<{ lessons: Array<{ title: string }> }> }) =>
  c.modules.map((m) => m.lessons.map((l) => l.title));

/** A lesson of `count` text blocks of about `chars` characters each. */
const textBlocks = (count: number, chars = 40) =>
  Array.from({ length: count }, (_, i) => ({ type: 'text', content: { text: `Абзац ${i + 1}. ${'т'.repeat(chars)}` } }));

describe('GET /api/courses/{id}/outline', () => {
  it('answers 401 without a token, 400 for a malformed id, 404 for an unknown one or a course a learner may not see', async () => {
    const draft = await seedCourse(bed, { modules: [1] });
    expect((await call('GET', `/api/courses/${draft.id}/outline`)).status).toBe(401);
    expect((await call('GET', `/api/courses/${BAD_ID}/outline`, curator())).body).toMatchObject({
      statusCode: 400,
      message: invalidIdMessage('courseId'),
    });
    expect((await call('GET', `/api/courses/${UNKNOWN_ID}/outline`, curator())).body).toMatchObject({
      statusCode: 404,
      message: 'Курс не найден',
    });
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      expect((await call('GET', `/api/courses/${draft.id}/outline`, bed.as[role].token)).status).toBe(404);
    }
    expect((await call('GET', `/api/courses/${draft.id}/outline`, bed.as.ADMIN.token)).status).toBe(200);
  });

  it('gives the structure in order with each lesson’s block count and quiz mark, and no lesson content', async () => {
    const course = await seedCourse(bed, { modules: [2, 1], status: 'published' });
    const [first, second] = course.modules;
    await ok('PATCH', `/api/blocks/${first.lessons[0].id}`, {
      content: [...textBlocks(3), { type: 'quiz', content: { quizId: 'quiz-1', questionsCount: 2 } }],
    });
    await ok('PATCH', `/api/blocks/${second.lessons[0].id}`, { content: textBlocks(1), description: 'Описание урока' });
    await ok('PATCH', `/api/blocks/${second.id}`, { description: 'Описание модуля' });

    const outline = await outlineOf(course.id);
    expect(outline).toMatchObject({ id: course.id, title: course.title, modulesCount: 2, lessonsCount: 3, isFavorite: false });
    expect(
      outline.modules.map((m) => [m.id, m.description, m.lessons.map((l) => [l.id, l.position, l.blocksCount, l.hasQuiz])]),
    ).toEqual([
      [
        first.id,
        '',
        [
          [first.lessons[0].id, 0, 4, true],
          [first.lessons[1].id, 1, 0, false],
        ],
      ],
      [second.id, 'Описание модуля', [[second.lessons[0].id, 0, 1, false]]],
    ]);
    const text = JSON.stringify(outline);
    expect(text).not.toContain('Абзац');
    expect(text).not.toContain('Описание урока');
    expect(outline.modules[0].lessons[0]).not.toHaveProperty('content');
    expect(outline.modules[0].lessons[0]).not.toHaveProperty('blocks');
  });

  it('shows a learner what the course page shows them: no hidden module, no hidden or draft lesson, nor the lessons of a hidden module', async () => {
    const course = await seedCourse(bed, { modules: [2, 1, 1], status: 'published' });
    await ok('PATCH', `/api/blocks/${course.modules[1].id}`, { status: 'hidden' });
    await ok('PATCH', `/api/blocks/${course.modules[0].lessons[1].id}`, { status: 'hidden' });
    await ok('PATCH', `/api/blocks/${course.modules[2].lessons[0].id}`, { status: 'draft' });

    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      const outline = await outlineOf(course.id, bed.as[role].token);
      const page = (await call<Course>('GET', `/api/courses/${course.id}`, bed.as[role].token)).body;
      expect(lessonTitles(outline)).toEqual([[course.modules[0].lessons[0].title], []]);
      expect(lessonTitles(outline)).toEqual(lessonTitles(page));
      expect(outline).toMatchObject({ modulesCount: 2, lessonsCount: 1 });
      expect(JSON.stringify(outline)).not.toContain(course.modules[1].id);
    }
    const forAuthor = await outlineOf(course.id);
    expect(forAuthor).toMatchObject({ modulesCount: 3, lessonsCount: 4 });
    expect(forAuthor.modules[1].status).toBe('hidden');
  });

  it('never sends a learner a draft lesson, its blocks or its quiz, nor counts it, until it is published', async () => {
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    const quiz = await ok<{ id: string }>('POST', '/api/quizzes', { title: 'Тест черновика', courseId: course.id });
    const draft = await ok<BlockRecord>('POST', '/api/blocks', {
      courseId: course.id,
      moduleId: course.modules[0].id,
      title: 'Черновой урок',
      content: [
        { type: 'text', content: { text: 'Ещё не готово' } },
        { type: 'quiz', content: { quizId: quiz.id } },
      ],
    });
    expect(draft.status).toBe('draft');

    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      const token = bed.as[role].token;
      const outline = await outlineOf(course.id, token);
      const page = (await call<Course>('GET', `/api/courses/${course.id}`, token)).body;
      expect(lessonTitles(outline)).toEqual([[course.modules[0].lessons[0].title]]);
      expect(lessonTitles(page)).toEqual(lessonTitles(outline));
      expect(outline.lessonsCount).toBe(1);
      expect(JSON.stringify(page)).not.toContain('Ещё не готово');
      expect((await call('GET', `/api/blocks/${draft.id}`, token)).status).toBe(404);
      const records = (await call<BlockRecord[]>('GET', `/api/blocks/course/${course.id}`, token)).body;
      expect(records.map((b) => b.id)).not.toContain(draft.id);
      expect((await call('GET', `/api/quizzes/${quiz.id}`, token)).status).toBe(404);
      const card = (await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent(course.title)}`, token)).body;
      expect(card[0].lessonsCount).toBe(1);
    }
    // The author works on it as before.
    expect((await call('GET', `/api/blocks/${draft.id}`, curator())).status).toBe(200);
    expect(lessonTitles(await outlineOf(course.id))).toEqual([[course.modules[0].lessons[0].title, 'Черновой урок']]);

    await ok('PATCH', `/api/blocks/${draft.id}`, { status: 'published', version: draft.version });
    const learner = bed.as.CLIENT.token;
    expect(lessonTitles(await outlineOf(course.id, learner))).toEqual([[course.modules[0].lessons[0].title, 'Черновой урок']]);
    expect((await call('GET', `/api/blocks/${draft.id}`, learner)).status).toBe(200);
    expect((await call('GET', `/api/quizzes/${quiz.id}`, learner)).status).toBe(200);
  });

  it('answers 304 to a client holding the current tag, and the new outline after any change', async () => {
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    const get = (token: string, etag?: string, path = `/api/courses/${course.id}/outline`) =>
      fetch(`${bed.content.url}${path}`, {
        headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag, 'cache-control': 'max-age=0' } : {}) },
      });
    const learner = bed.as.CLIENT.token;
    const first = await get(learner);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"outline-/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');

    const again = await get(learner, etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // The whole course is another representation: the outline's tag does not validate it.
    const detail = await get(learner, etag, `/api/courses/${course.id}`);
    expect(detail.status).toBe(200);
    expect(detail.headers.get('etag')).not.toBe(etag);

    await ok('PATCH', `/api/blocks/${course.modules[0].lessons[0].id}`, { title: 'После правки' });
    const edited = await get(learner, etag);
    expect(edited.status).toBe(200);
    expect(lessonTitles((await edited.json()) as CourseOutline)).toEqual([['После правки']]);

    expect((await call('POST', `/api/courses/${course.id}/favorite`, learner, {})).status).toBe(200);
    const marked = await get(learner, edited.headers.get('etag') as string);
    expect(marked.status).toBe(200);
    expect(((await marked.json()) as CourseOutline).isFavorite).toBe(true);
  });

  it('stays small whatever the lessons hold: its size does not grow with their content', async () => {
    const course = await seedCourse(bed, { modules: [5, 5, 5, 5] });
    const lessons = course.modules.flatMap((m) => m.lessons);
    const bytes = async (path: string) => Buffer.byteLength(JSON.stringify((await call('GET', path, curator())).body));
    const before = await bytes(`/api/courses/${course.id}/outline`);
    // About 20 KB of text in each of the 20 lessons.
    await Promise.all(lessons.map((l) => ok('PATCH', `/api/blocks/${l.id}`, { content: textBlocks(10, 1000) })));
    const after = await bytes(`/api/courses/${course.id}/outline`);
    const whole = await bytes(`/api/courses/${course.id}`);

    expect(whole).toBeGreaterThan(20 * 20_000);
    // Only the lessons' figures and dates change, never by the content's size.
    expect(after - before).toBeLessThan(lessons.length * 20);
    // The budget is 300 KB for 1,000 lessons: 300 bytes a lesson, titles included.
    expect(after / lessons.length).toBeLessThan(300);
  });

  it('counts the blocks of lessons stored before the figures existed, once, without making them look edited', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    await ok('PATCH', `/api/blocks/${lesson.id}`, {
      content: [...textBlocks(2), { type: 'quiz', content: { quizId: 'quiz-1', questionsCount: 1 } }],
    });
    await bed.models.blocks.updateOne({ _id: lesson.id }, { $unset: { blocksCount: 1, hasQuiz: 1 } }, { timestamps: false });
    const before = await bed.models.blocks.findById(lesson.id).lean();

    const outline = await outlineOf(course.id);
    expect(outline.modules[0].lessons[0]).toMatchObject({ id: lesson.id, blocksCount: 3, hasQuiz: true });
    const after = await bed.models.blocks.findById(lesson.id).lean();
    expect(after).toMatchObject({ blocksCount: 3, hasQuiz: true });
    expect(after?.updatedAt.getTime()).toBe(before?.updatedAt.getTime());
  });
});

describe('a lesson opened on demand (GET /api/blocks/{id})', () => {
  it('answers 401, 400 and 404, and 404 to a learner for a lesson that is hidden, in a hidden module or in an unpublished course', async () => {
    const course = await seedCourse(bed, { modules: [2, 1] });
    const [shown, hiddenLesson] = course.modules[0].lessons;
    const inHiddenModule = course.modules[1].lessons[0];
    const learner = bed.as.CANDIDATE.token;
    expect((await call('GET', `/api/blocks/${shown.id}`)).status).toBe(401);
    expect((await call('GET', `/api/blocks/${BAD_ID}`, learner)).status).toBe(400);
    expect((await call('GET', `/api/blocks/${UNKNOWN_ID}`, learner)).body).toMatchObject({
      statusCode: 404,
      message: 'Блок не найден',
    });
    expect((await call('GET', `/api/blocks/${shown.id}`, learner)).status).toBe(404);

    await ok('PATCH', `/api/courses/${course.id}`, { status: 'published' });
    await ok('PATCH', `/api/blocks/${hiddenLesson.id}`, { status: 'hidden' });
    await ok('PATCH', `/api/blocks/${course.modules[1].id}`, { status: 'hidden' });
    expect((await call('GET', `/api/blocks/${shown.id}`, learner)).status).toBe(200);
    expect((await call('GET', `/api/blocks/${hiddenLesson.id}`, learner)).status).toBe(404);
    expect((await call('GET', `/api/blocks/${inHiddenModule.id}`, bed.as.CLIENT.token)).status).toBe(404);
    // Authors open everything.
    expect((await call('GET', `/api/blocks/${inHiddenModule.id}`, curator())).status).toBe(200);
  });

  it('sends the lesson’s blocks once, in order, as the stored content', async () => {
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    const lesson = course.modules[0].lessons[0];
    await ok('PATCH', `/api/blocks/${lesson.id}`, { content: textBlocks(10, 500) });

    const raw = await fetch(`${bed.content.url}/api/blocks/${lesson.id}`, {
      headers: { authorization: `Bearer ${bed.as.CLIENT.token}` },
    });
    expect(raw.status).toBe(200);
    const text = await raw.text();
    const record = JSON.parse(text) as BlockRecord;
    expect(record).toMatchObject({ id: lesson.id, type: 'LESSON', moduleId: course.modules[0].id });
    expect(record).not.toHaveProperty('blocks');
    const blocks = contentBlocksOf(record);
    expect(blocks.map((b) => [b.order, b.type === 'text' && b.content.text.split(' ', 2).join(' ')])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, `Абзац ${i + 1}.`]),
    );
    const stored = await bed.models.blocks.findById(lesson.id).lean();
    expect(record.content).toBe(stored?.content);
    // Once: the answer is the content plus the record's few fields, not twice the content.
    expect(Buffer.byteLength(text)).toBeLessThan(Buffer.byteLength(JSON.stringify(stored?.content)) + 1000);
  });
});

describe('what the editor’s autosave gets back', () => {
  it('a course save answers the card, not the course with its lessons', async () => {
    const course = await seedCourse(bed, { modules: [2] });
    const answer = await call<CourseSummary>('PATCH', `/api/courses/${course.id}`, curator(), { title: 'Переименован' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: course.id, title: 'Переименован', modulesCount: 1, lessonsCount: 2 });
    expect(answer.body).not.toHaveProperty('modules');
    expect((await bed.models.courses.findById(course.id).lean())?.title).toBe('Переименован');
  });

  it('a lesson save answers the lesson’s summary without the content it sent', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    const answer = await call('PATCH', `/api/blocks/${lesson.id}`, curator(), { title: 'Сохранён', content: textBlocks(3) });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: lesson.id, title: 'Сохранён', blocksCount: 3, hasQuiz: false });
    expect(answer.body).not.toHaveProperty('content');
    expect(answer.body).not.toHaveProperty('blocks');
    expect(
      contentBlocksOf({ type: 'LESSON', content: (await bed.models.blocks.findById(lesson.id).lean())?.content ?? '' }),
    ).toHaveLength(3);
  });
});
