import {
  CONTENT_MSG,
  EDITOR_MSG,
  MSG,
  contentBlocksOf,
  newQuestion,
  type BlockRecord,
  type Course,
  type Quiz,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { basedOnStored, auditEventsFor, seedCourse, startContent, uniqueTitle, type ContentTestBed } from '../../testing';

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
const staff = () => bed.as.CURATOR.token;
const UNKNOWN_ID = '64b7f0c2a1b2c3d4e5f60718';
const BAD_ID = encodeURIComponent('bad id!');

async function quizFor(courseId: string): Promise<Quiz> {
  const answer = await call<Quiz>('POST', '/api/quizzes', staff(), {
    title: uniqueTitle('Квиз'),
    courseId,
    questions: [newQuestion('true_false', 'q1', 0)],
  });
  return answer.body;
}

/** A course whose first lesson holds a heading, a text and a quiz block. */
async function courseWithQuizLesson(): Promise<{ course: Course; lesson: BlockRecord; quiz: Quiz }> {
  const course = await seedCourse(bed, { modules: [2, 1] });
  const quiz = await quizFor(course.id);
  const lessonId = course.modules[0].lessons[0].id;
  const patched = await call<BlockRecord>('PATCH', `/api/blocks/${lessonId}`, staff(), {
    title: 'Оригинал',
    status: 'published',
    description: 'Описание урока',
    content: [
      { id: 'h1', type: 'heading', content: { text: 'Заголовок' } },
      { id: 't1', type: 'text', content: { text: 'Текст урока' } },
      { id: 'z1', type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } },
    ],
  });
  expect(patched.status).toBe(200);
  return { course, lesson: patched.body, quiz };
}

const lessonsOf = async (moduleId: string) =>
  (
    await bed.models.blocks
      .find({ moduleId: new Types.ObjectId(moduleId) })
      .sort({ position: 1 })
      .lean()
  ).map((l) => [l.title, l.position]);

describe('POST /api/blocks/{id}/copy', () => {
  it('answers 401, 403, 400 and 404, and copies nothing', async () => {
    const { course, lesson } = await courseWithQuizLesson();
    expect((await call('POST', `/api/blocks/${lesson.id}/copy`)).status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      expect((await call('POST', `/api/blocks/${lesson.id}/copy`, bed.as[role].token)).body).toMatchObject({
        statusCode: 403,
        message: MSG.forbidden,
      });
    }
    expect((await call('POST', `/api/blocks/${BAD_ID}/copy`, staff())).body).toMatchObject({ statusCode: 400, field: 'id' });
    expect((await call('POST', `/api/blocks/${course.modules[0].id}/copy`, staff())).body).toMatchObject({
      statusCode: 400,
      message: EDITOR_MSG.lessonOnly,
    });
    expect((await call('POST', `/api/blocks/${UNKNOWN_ID}/copy`, staff())).body).toMatchObject({
      statusCode: 404,
      message: CONTENT_MSG.blockNotFound,
    });
    expect(await lessonsOf(course.modules[0].id)).toEqual([
      ['Оригинал', 0],
      ['урок_2', 1],
    ]);
  });

  it('puts "<title> (копия)" right after the original, as a draft, with new block ids and its own quiz', async () => {
    const { course, lesson, quiz } = await courseWithQuizLesson();
    const answer = await call<BlockRecord>('POST', `/api/blocks/${lesson.id}/copy`, staff());
    expect(answer.status).toBe(201);
    const copy = answer.body;
    expect(copy).toMatchObject({
      type: 'LESSON',
      title: 'Оригинал (копия)',
      description: 'Описание урока',
      status: 'draft',
      position: 1,
      moduleId: course.modules[0].id,
      courseId: course.id,
    });
    expect(await lessonsOf(course.modules[0].id)).toEqual([
      ['Оригинал', 0],
      ['Оригинал (копия)', 1],
      ['урок_2', 2],
    ]);

    const blocks = contentBlocksOf(copy);
    expect(blocks.map((b) => [b.type, b.order, b.lessonId])).toEqual([
      ['heading', 1, copy.id],
      ['text', 2, copy.id],
      ['quiz', 3, copy.id],
    ]);
    expect(blocks.map((b) => b.id)).not.toContain('h1');
    const quizBlock = blocks[2] as Extract<(typeof blocks)[number], { type: 'quiz' }>;
    expect(quizBlock.content.quizId).not.toBe(quiz.id);
    const quizCopy = await bed.models.quizzes.findById(quizBlock.content.quizId).lean();
    expect(quizCopy).toMatchObject({ title: quiz.title, courseId: course.id });
    expect(quizCopy?.questions.map((q) => q.id)).toEqual(['q1']);
    // The original is untouched.
    const original = await bed.models.blocks.findById(lesson.id).lean();
    expect(JSON.parse(original?.content ?? '[]')[2].content.quizId).toBe(quiz.id);
    expect(await auditEventsFor(bed.content, copy.id)).toEqual([expect.objectContaining({ action: 'create', entity: 'lesson' })]);
  });
});

describe('POST /api/blocks/import', () => {
  it('answers 401, 403 and 400 naming the field', async () => {
    const { course, lesson } = await courseWithQuizLesson();
    const body = { courseId: course.id, moduleId: course.modules[1].id, lessonIds: [lesson.id] };
    expect((await call('POST', '/api/blocks/import', undefined, body)).status).toBe(401);
    expect((await call('POST', '/api/blocks/import', bed.as.CLIENT.token, body)).status).toBe(403);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body, lessonIds: [] }, 'lessonIds'],
      [{ ...body, lessonIds: undefined }, 'lessonIds'],
      [{ ...body, lessonIds: [lesson.id, lesson.id] }, 'lessonIds'],
      [{ ...body, lessonIds: ['bad id!'] }, 'lessonIds.0'],
      [{ ...body, courseId: 'bad id!' }, 'courseId'],
      [{ ...body, moduleId: undefined }, 'moduleId'],
      [{ ...body, lessonIds: [course.modules[0].id] }, 'lessonIds.0'],
    ];
    for (const [payload, field] of cases) {
      const answer = await call('POST', '/api/blocks/import', staff(), payload);
      expect({ payload, status: answer.status, field: answer.body.field }).toEqual({ payload, status: 400, field });
    }
    expect((await call('POST', '/api/blocks/import', staff(), { ...body, lessonIds: [] })).body.message).toBe(
      EDITOR_MSG.importEmpty,
    );
    const other = await seedCourse(bed, { modules: [0] });
    expect((await call('POST', '/api/blocks/import', staff(), { ...body, moduleId: other.modules[0].id })).body).toMatchObject({
      statusCode: 400,
      message: CONTENT_MSG.moduleOfOtherCourse,
    });
    expect((await call('POST', '/api/blocks/import', staff(), { ...body, lessonIds: [UNKNOWN_ID] })).status).toBe(404);
    expect(await lessonsOf(course.modules[1].id)).toEqual([['урок_3', 0]]);
  });

  it('copies lessons of another course to the end of a module, in the order asked, with their own quizzes', async () => {
    const { course: source, lesson, quiz } = await courseWithQuizLesson();
    const target = await seedCourse(bed, { modules: [1] });
    const second = source.modules[1].lessons[0];
    const answer = await call<BlockRecord[]>('POST', '/api/blocks/import', bed.as.ADMIN.token, {
      courseId: target.id,
      moduleId: target.modules[0].id,
      lessonIds: [second.id, lesson.id],
    });
    expect(answer.status).toBe(201);
    expect(answer.body.map((l) => [l.title, l.position, l.status, l.courseId, l.moduleId])).toEqual([
      [second.title, 1, 'draft', target.id, target.modules[0].id],
      ['Оригинал', 2, 'draft', target.id, target.modules[0].id],
    ]);
    expect(await lessonsOf(target.modules[0].id)).toEqual([
      ['урок_1', 0],
      [second.title, 1],
      ['Оригинал', 2],
    ]);
    const imported = contentBlocksOf(answer.body[1]);
    expect(imported.map((b) => b.type)).toEqual(['heading', 'text', 'quiz']);
    const quizId = (imported[2] as Extract<(typeof imported)[number], { type: 'quiz' }>).content.quizId as string;
    expect(quizId).not.toBe(quiz.id);
    expect(await bed.models.quizzes.findById(quizId).lean()).toMatchObject({ title: quiz.title, courseId: target.id });
    // The source course is as it was.
    expect(await lessonsOf(source.modules[0].id)).toEqual([
      ['Оригинал', 0],
      ['урок_2', 1],
    ]);
    const events = await auditEventsFor(bed.content, target.modules[0].id);
    expect(events.at(-1)).toMatchObject({
      action: 'create',
      entity: 'lesson',
      details: expect.stringContaining('Импортировано уроков: 2'),
    });
  });
});

describe('quizzes follow their course', () => {
  it('a copied course gets its own copies of its quizzes; deleting a course takes the quizzes no other lesson holds', async () => {
    const { course, quiz } = await courseWithQuizLesson();
    const spare = await quizFor(course.id);
    const copy = await call<Course>('POST', `/api/courses/${course.id}/copy`, staff());
    expect(copy.status).toBe(201);
    const copiedQuizBlock = copy.body.modules[0].lessons[0].blocks[2] as { content: { quizId: string } };
    expect(copiedQuizBlock.content.quizId).not.toBe(quiz.id);
    expect(await bed.models.quizzes.findById(copiedQuizBlock.content.quizId).lean()).toMatchObject({
      courseId: copy.body.id,
      title: quiz.title,
    });

    expect((await call('DELETE', `/api/courses/${course.id}`, staff())).status).toBe(204);
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(quiz.id) })).toBeNull();
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(spare.id) })).toBeNull();
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(copiedQuizBlock.content.quizId) })).toBeTruthy();
  });

  it('deleting a course keeps its quiz when a lesson of another course holds it', async () => {
    const owner = await seedCourse(bed);
    const quiz = await quizFor(owner.id);
    const user = await seedCourse(bed, { modules: [0] });
    await call('POST', '/api/blocks', staff(), {
      courseId: user.id,
      moduleId: user.modules[0].id,
      content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } }],
    });
    expect((await call('DELETE', `/api/courses/${owner.id}`, staff())).status).toBe(204);
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(quiz.id) })).toBeTruthy();
  });
});
