import {
  CONTENT_MSG,
  MSG,
  contentBlocksOf,
  type BlockRecord,
  type BlockSummary,
  type Course,
  invalidIdMessage,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { basedOnStored, auditEventsFor, seedCourse, startContent, type ContentTestBed } from '../../testing';

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

/** Positions as stored: [module title, position, [[lesson title, position]...]] in order. */
async function storedStructure(courseId: string) {
  const rows = await bed.models.blocks.find({ courseId: new Types.ObjectId(courseId) }).lean();
  const modules = rows.filter((r) => r.type === 'MODULE').sort((a, b) => a.position - b.position);
  return modules.map((m) => [
    m.title,
    m.position,
    rows
      .filter((r) => r.type === 'LESSON' && String(r.moduleId) === String(m._id))
      .sort((a, b) => a.position - b.position)
      .map((l) => [l.title, l.position]),
  ]);
}

describe('POST /api/blocks', () => {
  it('answers 401, and 403 to everyone but ADMIN and CURATOR', async () => {
    const course = await seedCourse(bed);
    const body = { type: 'MODULE', courseId: course.id, title: 'M' };
    expect((await call('POST', '/api/blocks', undefined, body)).status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      expect((await call('POST', '/api/blocks', bed.as[role].token, body)).body).toMatchObject({
        statusCode: 403,
        message: MSG.forbidden,
      });
    }
    expect(await bed.models.blocks.countDocuments({ courseId: new Types.ObjectId(course.id) })).toBe(0);
  });

  it('refuses a module for a course id that breaks the rule with the spec message', async () => {
    for (const courseId of ['bad id!', '', 'a'.repeat(51), 42, null, undefined]) {
      const answer = await call('POST', '/api/blocks', staff(), { type: 'MODULE', courseId, title: 'M' });
      expect({ courseId, status: answer.status, field: answer.body.field, message: answer.body.message }).toEqual({
        courseId,
        status: 400,
        field: 'courseId',
        message: invalidIdMessage('courseId'),
      });
    }
    expect((await call('POST', '/api/blocks', staff(), { type: 'MODULE', courseId: UNKNOWN_ID })).body).toMatchObject({
      statusCode: 404,
      message: CONTENT_MSG.courseNotFound,
    });
    expect(
      (await call('POST', '/api/blocks', staff(), { type: 'MODULE', courseId: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' })).status,
    ).toBe(404);
  });

  it('creates modules at the end with auto-names and the description as content', async () => {
    const course = await seedCourse(bed);
    const first = await call<BlockRecord>('POST', '/api/blocks', staff(), {
      type: 'MODULE',
      courseId: course.id,
      content: 'Введение в тему',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.any(String),
      type: 'MODULE',
      title: 'модуль_1',
      content: 'Введение в тему',
      description: 'Введение в тему',
      position: 0,
      status: 'draft',
      moduleId: null,
      courseId: course.id,
    });
    const second = await call<BlockRecord>('POST', '/api/blocks', staff(), {
      type: 'MODULE',
      courseId: course.id,
      title: 'Свой модуль',
    });
    const third = await call<BlockRecord>('POST', '/api/blocks', staff(), { type: 'MODULE', courseId: course.id });
    expect([second.body.position, third.body.title, third.body.position]).toEqual([1, 'модуль_2', 2]);
    expect(await storedStructure(course.id)).toEqual([
      ['модуль_1', 0, []],
      ['Свой модуль', 1, []],
      ['модуль_2', 2, []],
    ]);
    const events = await auditEventsFor(bed.content, first.body.id);
    expect(events).toEqual([expect.objectContaining({ action: 'create', entity: 'block' })]);
  });

  it('asked again with the id its client chose, answers what the first ask made instead of making a second', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const moduleId = course.modules[0].id;
    const id = new Types.ObjectId().toHexString();
    const body = { id, courseId: course.id, moduleId, title: 'Урок с ответом, который не дошёл' };
    // Two asks at the same moment (a retry racing the first) and one later (after a 503).
    const answers = [
      ...(await Promise.all([
        call<BlockRecord>('POST', '/api/blocks', staff(), body),
        call<BlockRecord>('POST', '/api/blocks', staff(), body),
      ])),
      await call<BlockRecord>('POST', '/api/blocks', staff(), body),
    ];
    expect(answers.map((a) => [a.status, a.body.id, a.body.title, a.body.position])).toEqual(
      Array(3).fill([201, id, 'Урок с ответом, который не дошёл', 1]),
    );
    expect(await storedStructure(course.id)).toEqual([
      [
        course.modules[0].title,
        0,
        [
          [expect.any(String), 0],
          [body.title, 1],
        ],
      ],
    ]);
    expect(await auditEventsFor(bed.content, id)).toEqual([expect.objectContaining({ action: 'create', entity: 'lesson' })]);

    // The same id for anything else (a module, a lesson elsewhere) is refused, and nothing changes.
    const other = await seedCourse(bed, { modules: [0] });
    for (const elsewhere of [
      { id, type: 'MODULE', courseId: course.id, title: 'Модуль' },
      { id, courseId: other.id, moduleId: other.modules[0].id },
    ]) {
      expect((await call('POST', '/api/blocks', staff(), elsewhere)).body).toMatchObject({
        statusCode: 409,
        field: 'id',
        message: CONTENT_MSG.blockIdTaken,
      });
    }
    expect(await bed.models.blocks.countDocuments({ _id: new Types.ObjectId(id) })).toBe(1);
    expect(await bed.models.blocks.countDocuments({ courseId: new Types.ObjectId(other.id), type: 'LESSON' })).toBe(0);
    // An id the store could not hold (the spec's id rule admits slugs and UUIDs) is refused, not a 500.
    for (const bad of ['не id', 'abc123', '3f2b8c1e-6a4d-4f1b-9c2e-1a2b3c4d5e6f']) {
      expect((await call('POST', '/api/blocks', staff(), { ...body, id: bad })).body).toMatchObject({
        statusCode: 400,
        field: 'id',
        message: CONTENT_MSG.createdIdInvalid,
      });
    }
  });

  it('creates a lesson by default, needing a module of the same course', async () => {
    const course = await seedCourse(bed, { modules: [0] });
    const other = await seedCourse(bed, { modules: [0] });
    const moduleId = course.modules[0].id;
    const noModule = await call('POST', '/api/blocks', staff(), { courseId: course.id, title: 'Урок' });
    expect(noModule.body).toMatchObject({ statusCode: 400, field: 'moduleId', message: CONTENT_MSG.moduleRequired });
    const foreign = await call('POST', '/api/blocks', staff(), { courseId: course.id, moduleId: other.modules[0].id });
    expect(foreign.body).toMatchObject({ statusCode: 400, field: 'moduleId', message: CONTENT_MSG.moduleOfOtherCourse });
    expect((await call('POST', '/api/blocks', staff(), { courseId: course.id, moduleId: UNKNOWN_ID })).body).toMatchObject({
      statusCode: 404,
      message: CONTENT_MSG.moduleNotFound,
    });
    const lesson = await call<BlockRecord>('POST', '/api/blocks', staff(), { courseId: course.id, moduleId });
    expect(lesson.status).toBe(201);
    expect(lesson.body).toMatchObject({
      type: 'LESSON',
      title: 'урок_1',
      position: 0,
      status: 'draft',
      moduleId,
      courseId: course.id,
      content: '[]',
    });
    // The blocks are sent once, in content (the block record keeps its content serialised).
    expect(lesson.body).not.toHaveProperty('blocks');
    // A lesson is not a parent: naming it as the module is refused.
    expect((await call('POST', '/api/blocks', staff(), { courseId: course.id, moduleId: lesson.body.id })).status).toBe(404);
    expect(await bed.models.blocks.countDocuments({ courseId: new Types.ObjectId(course.id), type: 'LESSON' })).toBe(1);
    expect((await auditEventsFor(bed.content, lesson.body.id))[0]).toMatchObject({ entity: 'lesson', action: 'create' });
  });

  it('inserts at a given position and renumbers the siblings without gaps', async () => {
    const course = await seedCourse(bed, { modules: [2] });
    const moduleId = course.modules[0].id;
    await call('POST', '/api/blocks', staff(), { courseId: course.id, moduleId, title: 'Вставлен', position: 0 });
    await call('POST', '/api/blocks', staff(), { courseId: course.id, moduleId, title: 'В конец', position: 99 });
    expect(await storedStructure(course.id)).toEqual([
      [
        'модуль_1',
        0,
        [
          ['Вставлен', 0],
          ['урок_1', 1],
          ['урок_2', 2],
          ['В конец', 3],
        ],
      ],
    ]);
  });

  it('validates content blocks by type and stores them normalised', async () => {
    const course = await seedCourse(bed, { modules: [0] });
    const base = { courseId: course.id, moduleId: course.modules[0].id };
    const unknown = await call('POST', '/api/blocks', staff(), {
      ...base,
      content: JSON.stringify([{ type: 'heading', content: 'Hi' }, { type: 'slideshow' }]),
    });
    expect(unknown.body).toMatchObject({
      statusCode: 400,
      field: 'content.1.type',
      message: `${CONTENT_MSG.unknownBlockType} «slideshow»`,
    });
    const badUrl = await call('POST', '/api/blocks', staff(), {
      ...base,
      content: [{ type: 'image', content: { src: 'javascript:alert(1)' } }],
    });
    expect(badUrl.body).toMatchObject({ statusCode: 400, field: 'content.0.content.src', message: CONTENT_MSG.urlInvalid });
    const badAutoplay = await call('POST', '/api/blocks', staff(), {
      ...base,
      content: [{ type: 'video', content: { autoplay: 'yes' } }],
    });
    expect(badAutoplay.body).toMatchObject({ statusCode: 400, field: 'content.0.content.autoplay' });
    expect((await call('POST', '/api/blocks', staff(), { ...base, content: '{"type":"text"}' })).body.message).toBe(
      CONTENT_MSG.lessonContentNotList,
    );
    expect((await call('POST', '/api/blocks', staff(), { ...base, content: 'not json' })).body.message).toBe(
      CONTENT_MSG.lessonContentNotJson,
    );
    const duplicate = await call('POST', '/api/blocks', staff(), {
      ...base,
      content: [
        { id: 'a', type: 'text' },
        { id: 'a', type: 'text' },
      ],
    });
    expect(duplicate.body).toMatchObject({ statusCode: 400, field: 'content.1.id' });
    expect(await bed.models.blocks.countDocuments({ courseId: new Types.ObjectId(course.id), type: 'LESSON' })).toBe(0);

    const content = [
      { type: 'quiz', order: 7, content: { quizId: 'quiz-1', questionsCount: 3 } },
      { id: 'h', type: 'heading', order: 1 },
      { type: 'file', order: 3, content: { name: 'Регламент.pdf', size: 1.5, url: '/api/files/x.pdf' } },
      { type: 'image', content: { src: 'https://example.com/a.png', alt: 'Схема' }, extra: 'dropped' },
    ];
    const lesson = await call<BlockRecord>('POST', '/api/blocks', staff(), {
      ...base,
      title: 'Содержательный',
      content: JSON.stringify(content),
    });
    expect(lesson.status).toBe(201);
    const blocks = contentBlocksOf(lesson.body);
    expect(blocks.map((b) => [b.type, b.order])).toEqual([
      ['heading', 1],
      ['file', 2],
      ['quiz', 3],
      ['image', 4],
    ]);
    expect(blocks[0]).toEqual({
      id: 'h',
      type: 'heading',
      order: 1,
      lessonId: lesson.body.id,
      content: { text: 'Новый заголовок' },
    });
    expect(blocks[1].content).toEqual({ name: 'Регламент.pdf', size: '1.50', url: '/api/files/x.pdf' });
    expect(blocks.every((b) => b.id && b.lessonId === lesson.body.id)).toBe(true);
    expect(JSON.stringify(blocks)).not.toContain('dropped');
    const stored = await bed.models.blocks.findById(lesson.body.id).lean();
    expect(JSON.parse(stored?.content ?? '')).toEqual(blocks);
  });
});

describe('GET /api/blocks/{id} and /api/blocks/course/{courseId}', () => {
  let course: Course;
  beforeAll(async () => {
    course = await seedCourse(bed, { modules: [2, 1] });
  });

  it('answer 401, 400 for ids that break the rule and 404 for none', async () => {
    const lessonId = course.modules[0].lessons[0].id;
    expect((await call('GET', `/api/blocks/${lessonId}`)).status).toBe(401);
    expect((await call('GET', `/api/blocks/course/${course.id}`)).status).toBe(401);
    expect((await call('GET', `/api/blocks/${BAD_ID}`, staff())).body).toMatchObject({ statusCode: 400, field: 'id' });
    const badCourse = await call('GET', `/api/blocks/course/${BAD_ID}`, staff());
    expect(badCourse.body).toMatchObject({
      statusCode: 400,
      field: 'courseId',
      message: invalidIdMessage('courseId'),
    });
    expect((await call('GET', `/api/blocks/${UNKNOWN_ID}`, staff())).body).toMatchObject({
      statusCode: 404,
      message: CONTENT_MSG.blockNotFound,
    });
    expect((await call('GET', `/api/blocks/course/${UNKNOWN_ID}`, staff())).status).toBe(404);
  });

  it('give staff one record, or all of a course in reading order', async () => {
    const lesson = course.modules[0].lessons[1];
    const one = await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`, staff());
    expect(one.body).toMatchObject({
      id: lesson.id,
      type: 'LESSON',
      title: 'урок_2',
      position: 1,
      moduleId: course.modules[0].id,
      content: '[]',
    });
    expect(one.body).not.toHaveProperty('blocks');
    const all = await call<BlockRecord[]>('GET', `/api/blocks/course/${course.id}`, bed.as.ADMIN.token);
    expect(all.body.map((b) => [b.type, b.title])).toEqual([
      ['MODULE', 'модуль_1'],
      ['LESSON', 'урок_1'],
      ['LESSON', 'урок_2'],
      ['MODULE', 'модуль_2'],
      ['LESSON', 'урок_3'],
    ]);
  });

  it('hide an unpublished course, and hidden modules and lessons, from learners', async () => {
    const lesson = course.modules[0].lessons[0];
    expect((await call('GET', `/api/blocks/${lesson.id}`, bed.as.CLIENT.token)).status).toBe(404);
    expect((await call('GET', `/api/blocks/course/${course.id}`, bed.as.CLIENT.token)).status).toBe(404);
    await call('PATCH', `/api/courses/${course.id}`, staff(), { isPublished: true });
    await call('PATCH', `/api/blocks/${course.modules[1].id}`, staff(), { status: 'hidden' });
    await call('PATCH', `/api/blocks/${course.modules[0].lessons[1].id}`, staff(), { status: 'hidden' });
    expect((await call('GET', `/api/blocks/${lesson.id}`, bed.as.CLIENT.token)).status).toBe(200);
    expect((await call('GET', `/api/blocks/${course.modules[0].lessons[1].id}`, bed.as.CLIENT.token)).status).toBe(404);
    expect((await call('GET', `/api/blocks/${course.modules[1].lessons[0].id}`, bed.as.CANDIDATE.token)).status).toBe(404);
    const visible = await call<BlockRecord[]>('GET', `/api/blocks/course/${course.id}`, bed.as.CANDIDATE.token);
    expect(visible.body.map((b) => b.title)).toEqual(['модуль_1', 'урок_1']);
  });
});

describe('PATCH /api/blocks/{id}', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, undefined, { title: 'x' })).status).toBe(401);
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, bed.as.CANDIDATE.token, { title: 'x' })).status).toBe(403);
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, staff(), {})).body).toMatchObject({
      statusCode: 400,
      message: CONTENT_MSG.nothingToUpdate,
    });
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, staff(), { title: '  ' })).body).toMatchObject({
      statusCode: 400,
      field: 'title',
    });
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, staff(), { title: 'x', type: 'MODULE' })).body).toMatchObject({
      statusCode: 400,
      message: CONTENT_MSG.recordTypeChange,
    });
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, staff(), { status: 'archived' })).body).toMatchObject({
      statusCode: 400,
      field: 'status',
    });
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, staff(), { content: [{ type: 'poll' }] })).body).toMatchObject({
      statusCode: 400,
      field: 'content.0.type',
    });
    expect((await call('PATCH', `/api/blocks/${BAD_ID}`, staff(), { title: 'x' })).status).toBe(400);
    expect((await call('PATCH', `/api/blocks/${UNKNOWN_ID}`, staff(), { title: 'x' })).status).toBe(404);
    expect(await bed.models.blocks.findById(lesson.id).lean()).toMatchObject({
      title: 'урок_1',
      status: lesson.status,
      content: '[]',
    });
  });

  it('updates a lesson’s title, status and content, and a module’s description', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    const answer = await call<BlockSummary>('PATCH', `/api/blocks/${lesson.id}`, staff(), {
      title: 'Новый урок',
      type: 'LESSON',
      status: 'published',
      description: 'Кратко',
      content: JSON.stringify([
        { type: 'text', content: 'Абзац' },
        { type: 'audio', content: { src: '/api/files/a.mp3', title: 'Подкаст' } },
      ]),
    });
    expect(answer.status).toBe(200);
    // A summary: the content the editor sent is not sent back.
    expect(answer.body).toMatchObject({
      id: lesson.id,
      title: 'Новый урок',
      status: 'published',
      description: 'Кратко',
      blocksCount: 2,
    });
    expect(answer.body).not.toHaveProperty('content');
    const stored = await bed.models.blocks.findById(lesson.id).lean();
    expect(stored).toMatchObject({
      title: 'Новый урок',
      status: 'published',
      description: 'Кратко',
      blocksCount: 2,
      hasQuiz: false,
    });
    expect(contentBlocksOf({ type: 'LESSON', content: stored?.content ?? '' }).map((b) => [b.type, b.order, b.content])).toEqual([
      ['text', 1, { text: 'Абзац' }],
      ['audio', 2, { src: '/api/files/a.mp3', title: 'Подкаст' }],
    ]);
    const mod = await call<BlockSummary>('PATCH', `/api/blocks/${course.modules[0].id}`, staff(), {
      description: 'Описание модуля',
    });
    expect(mod.body).toMatchObject({ description: 'Описание модуля' });
    expect((await call('PATCH', `/api/blocks/${course.modules[0].id}`, staff(), { content: 5 })).body).toMatchObject({
      statusCode: 400,
      field: 'content',
    });
    const course2 = (await call<Course>('GET', `/api/courses/${course.id}`, staff())).body;
    expect(course2.modules[0].description).toBe('Описание модуля');
    expect(new Date(course2.updatedAt).getTime()).toBeGreaterThan(new Date(course.updatedAt).getTime());
    expect((await auditEventsFor(bed.content, lesson.id)).map((e) => [e.action, e.entity])).toEqual([
      ['create', 'lesson'],
      ['update', 'lesson'],
    ]);
  });
});

describe('rich text blocks (docs/frontend.md «Rich text»)', () => {
  it('a crafted PATCH cannot store a script: the html is cleaned and the text is its plain rendition', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    const html =
      '<h2 onclick="x()">Правила</h2><p><strong>Важно</strong><script>alert(1)</script> <a href="javascript:alert(1)">тут</a></p><ul><li>один</li></ul><img src=x onerror=alert(1)>';
    const answer = await call('PATCH', `/api/blocks/${lesson.id}`, staff(), {
      content: [{ type: 'text', content: { text: 'что угодно', html } }],
    });
    expect(answer.status).toBe(200);
    const read = await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`, staff());
    const [block] = contentBlocksOf(read.body);
    expect(block.content).toEqual({
      html: '<h2>Правила</h2><p><strong>Важно</strong> <a>тут</a></p><ul><li>один</li></ul>',
      text: 'Правила\nВажно тут\n• один',
    });
    const stored = await bed.models.blocks.findById(lesson.id).lean();
    expect(stored?.content).not.toMatch(/script|onerror|onclick|javascript/);
  });

  it('refuses html over the limit with a Russian message, and keeps plain-text blocks as they were', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    const tooLong = await call('PATCH', `/api/blocks/${lesson.id}`, staff(), {
      content: [{ type: 'text', content: { text: 'x', html: `<p>${'а'.repeat(200_001)}</p>` } }],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ statusCode: 400, field: 'content.0.content.html' });
    expect(tooLong.body.message).toMatch(/[а-яА-Я]/);
    expect(await bed.models.blocks.findById(lesson.id).lean()).toMatchObject({ content: '[]' });
    await call('PATCH', `/api/blocks/${lesson.id}`, staff(), { content: [{ type: 'text', content: 'Просто\nтекст' }] });
    const read = await call<BlockRecord>('GET', `/api/blocks/${lesson.id}`, staff());
    expect(contentBlocksOf(read.body)[0].content).toEqual({ text: 'Просто\nтекст' });
  });
});

describe('DELETE /api/blocks/{id}', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const id = course.modules[0].lessons[0].id;
    expect((await call('DELETE', `/api/blocks/${id}`)).status).toBe(401);
    expect((await call('DELETE', `/api/blocks/${id}`, bed.as.CLIENT.token)).status).toBe(403);
    expect((await call('DELETE', `/api/blocks/${BAD_ID}`, staff())).status).toBe(400);
    expect((await call('DELETE', `/api/blocks/${UNKNOWN_ID}`, staff())).status).toBe(404);
    expect(await bed.models.blocks.exists({ _id: id })).toBeTruthy();
  });

  it('deletes a lesson and closes the gap', async () => {
    const course = await seedCourse(bed, { modules: [3] });
    expect((await call('DELETE', `/api/blocks/${course.modules[0].lessons[0].id}`, staff())).status).toBe(204);
    expect(await storedStructure(course.id)).toEqual([
      [
        'модуль_1',
        0,
        [
          ['урок_2', 0],
          ['урок_3', 1],
        ],
      ],
    ]);
    expect((await auditEventsFor(bed.content, course.modules[0].lessons[0].id)).map((e) => e.action)).toEqual([
      'create',
      'delete',
    ]);
  });

  it('deletes a module with its lessons and renumbers the modules', async () => {
    const course = await seedCourse(bed, { modules: [1, 2, 1] });
    expect((await call('DELETE', `/api/blocks/${course.modules[1].id}`, bed.as.ADMIN.token)).status).toBe(204);
    expect(await storedStructure(course.id)).toEqual([
      ['модуль_1', 0, [['урок_1', 0]]],
      ['модуль_3', 1, [['урок_4', 0]]],
    ]);
    expect(await bed.models.blocks.countDocuments({ moduleId: new Types.ObjectId(course.modules[1].id) })).toBe(0);
  });
});

describe('POST /api/blocks/reorder', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const course = await seedCourse(bed, { modules: [1, 1] });
    const other = await seedCourse(bed, { modules: [1] });
    const [m1, m2] = course.modules;
    const body = { blocks: [{ id: m2.id, position: 0 }] };
    expect((await call('POST', '/api/blocks/reorder', undefined, body)).status).toBe(401);
    expect((await call('POST', '/api/blocks/reorder', bed.as.CANDIDATE.token, body)).status).toBe(403);
    const cases: Array<[unknown, number, string | undefined]> = [
      [{}, 400, CONTENT_MSG.reorderEmpty],
      [{ blocks: [] }, 400, CONTENT_MSG.reorderEmpty],
      [
        {
          blocks: [
            { id: m1.id, position: 0 },
            { id: m1.id, position: 1 },
          ],
        },
        400,
        CONTENT_MSG.reorderDuplicate,
      ],
      [{ blocks: [{ id: m1.id, position: -1 }] }, 400, undefined],
      [{ blocks: [{ id: 'bad id!', position: 0 }] }, 400, invalidIdMessage('id')],
      [{ blocks: [{ id: m1.id, position: 0, moduleId: m2.id }] }, 400, CONTENT_MSG.reorderModuleInModule],
      [
        {
          blocks: [
            { id: m1.id, position: 0 },
            { id: other.modules[0].id, position: 1 },
          ],
        },
        400,
        CONTENT_MSG.reorderOneCourse,
      ],
      [{ blocks: [{ id: m1.lessons[0].id, position: 0, moduleId: other.modules[0].id }] }, 400, CONTENT_MSG.moduleOfOtherCourse],
      [{ blocks: [{ id: m1.lessons[0].id, position: 0, moduleId: UNKNOWN_ID }] }, 404, CONTENT_MSG.moduleNotFound],
      [{ blocks: [{ id: UNKNOWN_ID, position: 0 }] }, 404, CONTENT_MSG.blockNotFound],
    ];
    for (const [input, status, message] of cases) {
      const answer = await call('POST', '/api/blocks/reorder', staff(), input);
      expect({ input, status: answer.status }).toEqual({ input, status });
      if (message) expect(answer.body.message).toBe(message);
    }
    expect(await storedStructure(course.id)).toEqual([
      ['модуль_1', 0, [['урок_1', 0]]],
      ['модуль_2', 1, [['урок_2', 0]]],
    ]);
  });

  it('moves a lesson within its module, down and up', async () => {
    const course = await seedCourse(bed, { modules: [4] });
    const [a, b, c, d] = course.modules[0].lessons;
    await call('POST', '/api/blocks/reorder', staff(), { blocks: [{ id: a.id, position: 2 }] });
    expect((await storedStructure(course.id))[0][2]).toEqual([
      ['урок_2', 0],
      ['урок_3', 1],
      ['урок_1', 2],
      ['урок_4', 3],
    ]);
    await call('POST', '/api/blocks/reorder', staff(), { blocks: [{ id: d.id, position: 0 }] });
    expect((await storedStructure(course.id))[0][2]).toEqual([
      ['урок_4', 0],
      ['урок_2', 1],
      ['урок_3', 2],
      ['урок_1', 3],
    ]);
    // A whole list sets the exact order.
    const answer = await call<BlockSummary[]>('POST', '/api/blocks/reorder', staff(), {
      blocks: [a, b, c, d].map((l, i) => ({ id: l.id, position: i })),
    });
    expect(answer.status).toBe(200);
    // The new order without any lesson's content (a large course would be megabytes).
    expect(answer.body.some((x) => 'content' in x)).toBe(false);
    expect(answer.body.filter((x) => x.type === 'LESSON').map((x) => [x.title, x.position])).toEqual([
      ['урок_1', 0],
      ['урок_2', 1],
      ['урок_3', 2],
      ['урок_4', 3],
    ]);
    expect(
      (await auditEventsFor(bed.content, course.id)).filter((e) => e.entity === 'block' && e.action === 'update'),
    ).toHaveLength(3);
  });

  it('moves lessons between modules, persisted and renumbered on both sides', async () => {
    const course = await seedCourse(bed, { modules: [3, 2] });
    const [m1, m2] = course.modules;
    const moving = m1.lessons[1]; // урок_2
    const answer = await call<BlockRecord[]>('POST', '/api/blocks/reorder', staff(), {
      blocks: [{ id: moving.id, position: 1, moduleId: m2.id, type: 'LESSON' }],
    });
    expect(answer.status).toBe(200);
    expect(await storedStructure(course.id)).toEqual([
      [
        'модуль_1',
        0,
        [
          ['урок_1', 0],
          ['урок_3', 1],
        ],
      ],
      [
        'модуль_2',
        1,
        [
          ['урок_4', 0],
          ['урок_2', 1],
          ['урок_5', 2],
        ],
      ],
    ]);
    expect(answer.body.find((x) => x.id === moving.id)).toMatchObject({ moduleId: m2.id, position: 1 });
    const read = (await call<Course>('GET', `/api/courses/${course.id}`, staff())).body;
    expect(read.modules[1].lessons.map((l) => l.title)).toEqual(['урок_4', 'урок_2', 'урок_5']);
    // Emptying a module into another one.
    await call('POST', '/api/blocks/reorder', staff(), {
      blocks: [
        { id: m1.lessons[0].id, position: 0, moduleId: m2.id },
        { id: m1.lessons[2].id, position: 5, moduleId: m2.id },
      ],
    });
    expect(await storedStructure(course.id)).toEqual([
      ['модуль_1', 0, []],
      [
        'модуль_2',
        1,
        [
          ['урок_1', 0],
          ['урок_4', 1],
          ['урок_2', 2],
          ['урок_5', 3],
          ['урок_3', 4],
        ],
      ],
    ]);
  });

  it('reorders modules, their lessons going with them', async () => {
    const course = await seedCourse(bed, { modules: [1, 0, 2] });
    const [m1, m2, m3] = course.modules;
    await call('POST', '/api/blocks/reorder', staff(), {
      blocks: [
        { id: m3.id, position: 0 },
        { id: m1.id, position: 1 },
        { id: m2.id, position: 2 },
      ],
    });
    expect(await storedStructure(course.id)).toEqual([
      [
        'модуль_3',
        0,
        [
          ['урок_2', 0],
          ['урок_3', 1],
        ],
      ],
      ['модуль_1', 1, [['урок_1', 0]]],
      ['модуль_2', 2, []],
    ]);
  });
});
