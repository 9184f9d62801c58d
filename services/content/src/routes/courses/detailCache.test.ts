import { gunzipSync } from 'node:zlib';
import { newQuestion, type Course, type GenerationJob, type Quiz } from '@portal/contracts';
import { api, rawGet } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { CourseDetailCache } from '../../commands/courseDetailCache';
import { courseTreeOf } from '../../commands/courses';
import { touchCourse } from '../../commands/touch';
import type { CourseDoc } from '../../models/course';
import { presentCourseDetail } from '../../presenters/course';
import { basedOnStored, quizIdsOf, seedCourse, startContent, waitForJob, type ContentTestBed } from '../../testing';

/**
 * GET /api/courses/{id} is served from a cache of the serialised structure. These tests prove a
 * reader never sees a stale page: every kind of write is preceded by a read that fills the cache and
 * followed by a read that must show the change.
 */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent({ AI_RATE_LIMIT: '1000' });
});
afterAll(() => bed.close());

// Every edit here is based on the version stored just before it, as the editor's is on what it read.
const call = async <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
  });
const curator = () => bed.as.CURATOR.token;
const learner = () => bed.as.CLIENT.token;

async function detail(id: string, token = curator()): Promise<Course> {
  const answer = await call<Course>('GET', `/api/courses/${id}`, token);
  if (answer.status !== 200) throw new Error(`detail failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const lessonTitles = (c: Course) => c.modules.map((m) => m.lessons.map((l) => l.title));

async function ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await call<T>(method, path, curator(), body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

describe('GET /api/courses/{id} from the cache', () => {
  it('answers exactly what the course command builds, per visibility class and per person', async () => {
    const course = await seedCourse(bed, { modules: [2, 1, 1], status: 'published' });
    await ok('PATCH', `/api/blocks/${course.modules[1].id}`, { status: 'hidden' });
    await ok('PATCH', `/api/blocks/${course.modules[0].lessons[1].id}`, { status: 'hidden' });
    await ok('POST', `/api/courses/${course.id}/favorite`);
    const stored = (await bed.models.courses.findById(course.id).lean<CourseDoc>()) as CourseDoc;

    for (const role of ['CURATOR', 'ADMIN', 'CLIENT', 'MANAGER'] as const) {
      const { token, user } = bed.as[role];
      // Twice: the first read fills the cache, the second is served from it.
      for (let i = 0; i < 2; i++) {
        const raw = await fetch(`${bed.content.url}/api/courses/${course.id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(raw.status).toBe(200);
        expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const expected = presentCourseDetail(stored, await courseTreeOf(bed.models, user, stored));
        expect(await raw.text()).toBe(JSON.stringify(expected));
      }
    }
    const forCurator = await detail(course.id);
    const forLearner = await detail(course.id, learner());
    expect(forCurator).toMatchObject({ isFavorite: true, modulesCount: 3, lessonsCount: 4 });
    expect(forLearner).toMatchObject({ isFavorite: false, isStarted: false, modulesCount: 2, lessonsCount: 2 });
    expect(lessonTitles(forLearner)).toEqual([[course.modules[0].lessons[0].title], [course.modules[2].lessons[0].title]]);

    // A person's own marks show at once although the structure comes from the cache.
    await call('POST', `/api/courses/${course.id}/start`, learner());
    expect(await detail(course.id, learner())).toMatchObject({ isFavorite: false, isStarted: true });
    expect(await detail(course.id)).toMatchObject({ isFavorite: true, isStarted: false });
  });

  it('shows a change of the course fields and of its status right after the write', async () => {
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    await detail(course.id, learner());
    await ok('PATCH', `/api/courses/${course.id}`, { title: 'Новое название', price: 990 });
    const after = await detail(course.id, learner());
    expect(after).toMatchObject({ title: 'Новое название', price: 990 });
    const stored = await bed.models.courses.findById(course.id).lean();
    expect(after.updatedAt).toBe(stored?.updatedAt.toISOString());

    await ok('PATCH', `/api/courses/${course.id}`, { status: 'draft' });
    expect((await call('GET', `/api/courses/${course.id}`, learner())).status).toBe(404);
  });

  it('shows modules and lessons created, changed, hidden, deleted and moved right after each write', async () => {
    const course = await seedCourse(bed, { modules: [2, 1], status: 'published' });
    const [first, second] = course.modules;

    await detail(course.id, learner());
    const added = await ok<{ id: string }>('POST', '/api/blocks', {
      courseId: course.id,
      moduleId: second.id,
      title: 'Добавлен',
      status: 'published',
    });
    expect(lessonTitles(await detail(course.id, learner()))[1]).toEqual([second.lessons[0].title, 'Добавлен']);

    await ok('PATCH', `/api/blocks/${added.id}`, {
      title: 'Переименован',
      content: [{ type: 'text', content: { text: 'Новый текст' } }],
    });
    const changed = (await detail(course.id, learner())).modules[1].lessons[1];
    expect(changed.title).toBe('Переименован');
    expect(changed.blocks).toEqual([expect.objectContaining({ type: 'text', content: { text: 'Новый текст' } })]);
    // Each lesson is sent once: its parsed blocks, not the serialised content beside them.
    expect(changed).not.toHaveProperty('content');

    await ok('PATCH', `/api/blocks/${added.id}`, { status: 'hidden' });
    expect(lessonTitles(await detail(course.id, learner()))[1]).toEqual([second.lessons[0].title]);
    expect(lessonTitles(await detail(course.id))[1]).toEqual([second.lessons[0].title, 'Переименован']);

    await ok('POST', '/api/blocks/reorder', { blocks: [{ id: first.lessons[1].id, position: 0, moduleId: second.id }] });
    expect(lessonTitles(await detail(course.id, learner()))).toEqual([
      [first.lessons[0].title],
      [first.lessons[1].title, second.lessons[0].title],
    ]);

    await ok('DELETE', `/api/blocks/${first.id}`);
    const afterDelete = await detail(course.id, learner());
    expect(afterDelete.modules.map((m) => m.id)).toEqual([second.id]);
    expect(afterDelete).toMatchObject({ modulesCount: 1, lessonsCount: 2 });

    const mod = await ok<{ id: string }>('POST', '/api/blocks', { courseId: course.id, type: 'MODULE', title: 'Новый модуль' });
    expect((await detail(course.id, learner())).modules.map((m) => m.id)).toEqual([second.id, mod.id]);
  });

  it('shows copied and imported lessons right after the write', async () => {
    const course = await seedCourse(bed, { modules: [1, 0], status: 'published' });
    const other = await seedCourse(bed, { modules: [1] });
    const [withLesson, empty] = course.modules;
    // Copies and imports are drafts: their author sees them at once (a learner only once published).
    await detail(course.id);

    await ok('POST', `/api/blocks/${withLesson.lessons[0].id}/copy`);
    const afterCopy = await detail(course.id);
    expect(afterCopy.modules[0].lessons.map((l) => l.title)).toEqual([
      withLesson.lessons[0].title,
      `${withLesson.lessons[0].title} (копия)`,
    ]);

    await ok('POST', '/api/blocks/import', {
      courseId: course.id,
      moduleId: empty.id,
      lessonIds: [other.modules[0].lessons[0].id],
    });
    const afterImport = await detail(course.id);
    expect(afterImport.modules[1].lessons.map((l) => l.title)).toEqual([other.modules[0].lessons[0].title]);
    expect(afterImport.lessonsCount).toBe(3);
  });

  it('shows the new number of questions of a quiz in the lesson holding it right after the quiz changes', async () => {
    const course = await seedCourse(bed, { modules: [0], status: 'published' });
    const quiz = await ok<Quiz>('POST', '/api/quizzes', {
      title: 'Проверка',
      courseId: course.id,
      questions: [{ ...newQuestion('single_choice', 'q1', 0), question: 'Один?', options: ['Да', 'Нет'], correctAnswers: [0] }],
    });
    const lesson = await ok<{ id: string }>('POST', '/api/blocks', {
      courseId: course.id,
      moduleId: course.modules[0].id,
      title: 'Урок с квизом',
      status: 'published',
      content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } }],
    });
    const quizBlock = async () => (await detail(course.id, learner())).modules[0].lessons[0].blocks[0];
    expect((await quizBlock()).content).toEqual({ quizId: quiz.id, questionsCount: 1 });

    await ok('PATCH', `/api/quizzes/${quiz.id}`, {
      questions: [...quiz.questions, { ...newQuestion('true_false', 'q2', 1), question: 'Два?', correctAnswer: 'true' }],
    });
    expect((await quizBlock()).content).toEqual({ quizId: quiz.id, questionsCount: 2 });
    const stored = await bed.models.blocks.findById(lesson.id).lean();
    expect(JSON.parse(stored?.content ?? '[]')[0].content.questionsCount).toBe(2);
  });

  it('shows a course copy whole and a deleted course as gone', async () => {
    const course = await seedCourse(bed, { modules: [2, 1] });
    await detail(course.id);
    const copy = await ok<Course>('POST', `/api/courses/${course.id}/copy`);
    const shown = await detail(copy.id);
    expect(lessonTitles(shown)).toEqual(lessonTitles(course));
    expect(shown.updatedAt).toBe(copy.updatedAt);

    await ok('DELETE', `/api/courses/${course.id}`);
    expect((await call('GET', `/api/courses/${course.id}`, curator())).status).toBe(404);
  });

  it('shows what the course builder accepted right after the accept (lesson, module and quiz proposals)', async () => {
    const started = await ok<GenerationJob>('POST', '/api/courses/generate', {
      topic: 'Охрана труда',
      audience: 'Новые сотрудники склада',
      goals: ['Знать правила безопасности', 'Пользоваться средствами защиты'],
    });
    const job = await waitForJob(bed, curator(), started.id);
    if (!job.courseId) throw new Error(`job ended ${job.status}: ${job.error}`);
    const course = await detail(job.courseId);

    const accept = async (target: 'lesson' | 'module' | 'quiz', id: string) => {
      const regen = await ok<GenerationJob>('POST', '/api/generations/regenerate', { target, id });
      const done = await waitForJob(bed, curator(), regen.id);
      if (!done.proposal) throw new Error(`regeneration ended ${done.status}: ${done.error}`);
      await detail(course.id); // the page is cached with the node as it was
      await ok('POST', `/api/generations/${done.id}/accept`);
      return done.proposal;
    };

    const lesson = course.modules[0].lessons[0];
    const lessonProposal = await accept('lesson', lesson.id);
    if (lessonProposal.kind !== 'lesson') throw new Error('lesson proposal expected');
    expect((await detail(course.id)).modules[0].lessons[0]).toMatchObject({ id: lesson.id, title: lessonProposal.title });

    const moduleProposal = await accept('module', course.modules[1].id);
    if (moduleProposal.kind !== 'module') throw new Error('module proposal expected');
    const mod = (await detail(course.id)).modules[1];
    expect(mod.title).toBe(moduleProposal.title);
    expect(mod.lessons.slice(0, moduleProposal.lessons.length).map((l) => l.title)).toEqual(
      moduleProposal.lessons.map((l) => l.title),
    );

    const [quizId] = quizIdsOf(await detail(course.id));
    const full = await ok<Quiz>('GET', `/api/quizzes/${quizId}`);
    await ok('PATCH', `/api/quizzes/${quizId}`, { questions: full.questions.slice(0, 1) });
    const quizProposal = await accept('quiz', quizId);
    if (quizProposal.kind !== 'quiz') throw new Error('quiz proposal expected');
    const shownCounts = (await detail(course.id)).modules
      .flatMap((m) => m.lessons)
      .flatMap((l) => l.blocks)
      .flatMap((b) => (b.type === 'quiz' && b.content.quizId === quizId ? [b.content.questionsCount] : []));
    expect(shownCounts).toEqual([quizProposal.questions.length]);
    expect(quizProposal.questions.length).toBeGreaterThan(1);
  });
});

describe('GET /api/courses/{id} with If-None-Match', () => {
  const get = (id: string, token: string, etag?: string) =>
    fetch(`${bed.content.url}/api/courses/${id}`, {
      // fetch adds `cache-control: no-cache` to a request with a hand-set If-None-Match (a forced
      // reload, never answered 304); a browser revalidating its own copy sends max-age=0 at most.
      headers: {
        authorization: `Bearer ${token}`,
        ...(etag ? { 'if-none-match': etag, 'cache-control': 'max-age=0' } : {}),
      },
    });

  it('answers 304 while the page and the person’s marks are unchanged, and the full page after any change', async () => {
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    const first = await get(course.id, learner());
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const again = await get(course.id, learner(), etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    // Another reader of the same class with the same marks would get the very same bytes.
    expect((await get(course.id, bed.as.CANDIDATE.token, etag)).status).toBe(304);
    // An author sees a different page (hidden parts included), so the tag does not match.
    expect((await get(course.id, curator(), etag)).status).toBe(200);

    await call('POST', `/api/courses/${course.id}/favorite`, learner());
    const marked = await get(course.id, learner(), etag);
    expect(marked.status).toBe(200);
    expect(JSON.parse(await marked.text())).toMatchObject({ id: course.id, isFavorite: true });
    const markedTag = marked.headers.get('etag') as string;
    expect(markedTag).not.toBe(etag);

    await ok('PATCH', `/api/blocks/${course.modules[0].lessons[0].id}`, { title: 'После правки' });
    const edited = await get(course.id, learner(), markedTag);
    expect(edited.status).toBe(200);
    const body = JSON.parse(await edited.text()) as Course;
    expect(body.modules[0].lessons[0].title).toBe('После правки');
    expect(edited.headers.get('etag')).not.toBe(markedTag);
  });
});

describe('GET /api/courses/{id} and its outline gzipped', () => {
  const raw = (path: string, token: string, acceptEncoding?: string) =>
    rawGet(`${bed.content.url}${path}`, {
      authorization: `Bearer ${token}`,
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    });

  it('sends the same answer gzipped to a client that accepts it, per person, and plain to one that does not', async () => {
    const course = await seedCourse(bed, { modules: [2, 1], status: 'published' });
    await call('POST', `/api/courses/${course.id}/favorite`, learner());
    for (const path of [`/api/courses/${course.id}`, `/api/courses/${course.id}/outline`]) {
      for (const token of [learner(), bed.as.CANDIDATE.token, curator()]) {
        const plain = await raw(path, token);
        expect(plain.status).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        const identity = await raw(path, token, 'identity');
        expect(identity.headers['content-encoding']).toBeUndefined();
        expect(identity.bytes.equals(plain.bytes)).toBe(true);
        // Asked twice: the second comes from the kept compression, byte for byte the same answer.
        for (let i = 0; i < 2; i++) {
          const zipped = await raw(path, token, 'gzip, deflate, br');
          expect(zipped.headers['content-encoding']).toBe('gzip');
          expect(zipped.headers.vary).toMatch(/accept-encoding/i);
          expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
        }
      }
    }
    // The learner's own mark is in their answer, and only in theirs.
    const mine = JSON.parse(gunzipSync((await raw(`/api/courses/${course.id}`, learner(), 'gzip')).bytes).toString());
    const theirs = JSON.parse(
      gunzipSync((await raw(`/api/courses/${course.id}`, bed.as.CANDIDATE.token, 'gzip')).bytes).toString(),
    );
    expect([mine.isFavorite, theirs.isFavorite]).toEqual([true, false]);
  });
});

describe('course detail cache', () => {
  it('gives two writes within one millisecond two different keys', async () => {
    const course = await seedCourse(bed);
    const id = new Types.ObjectId(course.id);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      await touchCourse(bed.models, id);
      seen.push(((await bed.models.courses.findById(id).lean<CourseDoc>()) as CourseDoc).updatedAt.getTime());
    }
    // Make the clock irrelevant: a stored updatedAt in the future must still move forward.
    const future = new Date(Date.now() + 60_000);
    await bed.models.courses.updateOne({ _id: id }, { $set: { updatedAt: future } }, { timestamps: false });
    await touchCourse(bed.models, id);
    seen.push(((await bed.models.courses.findById(id).lean<CourseDoc>()) as CourseDoc).updatedAt.getTime());
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
    expect(seen.at(-1)).toBe(future.getTime() + 1);
  });

  it('keeps at most the pages it is allowed; a new version replaces the old page; an oversized page is not kept', async () => {
    const cache = new CourseDetailCache(bed.models, { maxBytes: 1024 * 1024, maxEntries: 2 });
    const user = bed.as.CURATOR.user;
    const NO_MARKS = { isFavorite: false, isStarted: false };
    const courses = await Promise.all([1, 2, 3].map(() => seedCourse(bed, { modules: [1] })));
    const load = async (id: string) => (await bed.models.courses.findById(id).lean<CourseDoc>()) as CourseDoc;
    const answers = [];
    for (const c of courses) answers.push(JSON.parse((await cache.answer(user, await load(c.id), NO_MARKS)).toString()));
    expect(answers.map((a) => a.id)).toEqual(courses.map((c) => c.id));
    expect(cache.size.entries).toBe(2);

    // A new version of a kept course replaces its old page instead of sitting next to it.
    await touchCourse(bed.models, new Types.ObjectId(courses[2].id));
    await cache.answer(user, await load(courses[2].id), NO_MARKS);
    expect(cache.size.entries).toBe(2);

    // A page larger than the whole allowance is answered but not kept.
    const tiny = new CourseDetailCache(bed.models, { maxBytes: 10, maxEntries: 2 });
    const answer = JSON.parse((await tiny.answer(user, await load(courses[0].id), NO_MARKS)).toString());
    expect(answer.lessonsCount).toBe(1);
    expect(tiny.size).toEqual({ entries: 0, bytes: 0 });
  });
});
