import { CONTENT_MSG, MSG, type Course, type CourseSummary, invalidIdMessage } from '@portal/contracts';
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
const titles = (list: CourseSummary[]) => list.map((c) => c.title);
const UNKNOWN_ID = '64b7f0c2a1b2c3d4e5f60718';
const BAD_ID = encodeURIComponent('bad id!');

describe('POST /api/courses', () => {
  it('refuses anonymous callers with 401 and everyone but ADMIN and CURATOR with 403', async () => {
    expect((await call('POST', '/api/courses', undefined, { title: 'x' })).status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      const refused = await call('POST', '/api/courses', bed.as[role].token, { title: `Курс ${role}` });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
      expect(await bed.models.courses.countDocuments({ title: `Курс ${role}` })).toBe(0);
    }
  });

  it('creates with the spec defaults: price 0, duration 0, level Начальный, unpublished draft', async () => {
    const title = uniqueTitle();
    const answer = await call<Course>('POST', '/api/courses', bed.as.ADMIN.token, { title });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      title,
      description: '',
      price: 0,
      duration: 0,
      level: 'Начальный',
      isPublished: false,
      status: 'draft',
      modules: [],
      lessonsCount: 0,
      isFavorite: false,
      isStarted: false,
    });
    const stored = await bed.models.courses.findById(answer.body.id).lean();
    expect(stored).toMatchObject({
      title,
      price: 0,
      duration: 0,
      level: 'Начальный',
      isPublished: false,
      status: 'draft',
      createdBy: bed.as.ADMIN.user.id,
    });
    const events = await auditEventsFor(bed.content, answer.body.id);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'course',
        actor: expect.objectContaining({ id: bed.as.ADMIN.user.id }),
      }),
    ]);
  });

  it('keeps every field of the course form, and isPublished makes it published', async () => {
    const title = uniqueTitle();
    const body = { title, description: 'Описание', price: 1500.5, duration: 12, level: 'Продвинутый', isPublished: true };
    const answer = await call<Course>('POST', '/api/courses', bed.as.CURATOR.token, body);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ ...body, status: 'published' });
    expect(await bed.models.courses.findById(answer.body.id).lean()).toMatchObject({
      ...body,
      status: 'published',
      publishedAt: expect.any(Date),
    });
  });

  it('requires a title and non-negative numbers, naming the field', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'title', CONTENT_MSG.courseTitleRequired],
      [{ title: '   ' }, 'title', CONTENT_MSG.courseTitleRequired],
      [{ title: 'x', price: -1 }, 'price', CONTENT_MSG.priceMin],
      [{ title: 'x', duration: -0.5 }, 'duration', CONTENT_MSG.durationMin],
      [{ title: 'x', price: 'дорого' }, 'price', 'Поле «price» должно быть числом'],
      [{ title: 'x', status: 'archived' }, 'status', CONTENT_MSG.statusInvalid],
      [{ title: 'x', status: 'draft', isPublished: true }, 'isPublished', CONTENT_MSG.statusConflict],
    ];
    const before = await bed.models.courses.countDocuments();
    for (const [body, field, message] of cases) {
      const answer = await call('POST', '/api/courses', bed.as.CURATOR.token, body);
      expect({ status: answer.status, field: answer.body.field, message: answer.body.message }).toEqual({
        status: 400,
        field,
        message,
      });
    }
    expect(await bed.models.courses.countDocuments()).toBe(before);
  });

  it('reads blank numbers as 0 and a hidden status as unpublished', async () => {
    const answer = await call<Course>('POST', '/api/courses', bed.as.CURATOR.token, {
      title: uniqueTitle(),
      price: '',
      duration: null,
      level: '',
      status: 'hidden',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ price: 0, duration: 0, level: 'Начальный', status: 'hidden', isPublished: false });
  });
});

describe('GET /api/courses', () => {
  let published: Course;
  let draft: Course;
  let hidden: Course;
  beforeAll(async () => {
    published = await seedCourse(bed, {
      title: uniqueTitle('Опубликованный Бета'),
      description: 'Про КОММУНИКАЦИИ',
      isPublished: true,
      modules: [2, 3],
    });
    draft = await seedCourse(bed, { title: uniqueTitle('Черновик Альфа'), modules: [1] });
    hidden = await seedCourse(bed, { title: uniqueTitle('Скрытый Гамма'), status: 'hidden' });
  });

  it('answers 401 without a token', async () => {
    expect((await call('GET', '/api/courses')).status).toBe(401);
  });

  it('shows staff every course and learners only published ones', async () => {
    for (const role of ['ADMIN', 'CURATOR'] as const) {
      const list = (await call<CourseSummary[]>('GET', '/api/courses', bed.as[role].token)).body;
      expect(titles(list)).toEqual(expect.arrayContaining([published.title, draft.title, hidden.title]));
    }
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      const list = (await call<CourseSummary[]>('GET', '/api/courses', bed.as[role].token)).body;
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((c) => c.status === 'published' && c.isPublished)).toBe(true);
      expect(titles(list)).toContain(published.title);
    }
  });

  it('counts lessons summed over modules for the card', async () => {
    const list = (await call<CourseSummary[]>('GET', '/api/courses', bed.as.CLIENT.token)).body;
    expect(list.find((c) => c.id === published.id)).toMatchObject({ modulesCount: 2, lessonsCount: 5 });
  });

  it('searches title or description case-insensitively, and treats the text literally', async () => {
    const byTitle = (
      await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent('альфа')}`, bed.as.CURATOR.token)
    ).body;
    expect(titles(byTitle)).toContain(draft.title);
    expect(titles(byTitle)).not.toContain(published.title);
    const byDescription = (
      await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent('коммуникации')}`, bed.as.CANDIDATE.token)
    ).body;
    expect(titles(byDescription)).toEqual([published.title]);
    expect(
      (await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent('.*')}`, bed.as.CURATOR.token)).body,
    ).toEqual([]);
  });

  it('filters by status, and gives learners nothing for statuses they cannot see', async () => {
    const drafts = (await call<CourseSummary[]>('GET', '/api/courses?status=draft', bed.as.CURATOR.token)).body;
    expect(drafts.every((c) => c.status === 'draft')).toBe(true);
    expect(titles(drafts)).toContain(draft.title);
    const hiddenOnes = (await call<CourseSummary[]>('GET', '/api/courses?status=hidden', bed.as.ADMIN.token)).body;
    expect(titles(hiddenOnes)).toContain(hidden.title);
    expect((await call('GET', '/api/courses?status=hidden', bed.as.CLIENT.token)).body).toEqual([]);
    expect(
      (await call<CourseSummary[]>('GET', '/api/courses?status=all', bed.as.CURATOR.token)).body.length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('refuses an unknown status or filter with 400', async () => {
    const badStatus = await call('GET', '/api/courses?status=archived', bed.as.CURATOR.token);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body).toMatchObject({ field: 'status', message: CONTENT_MSG.statusInvalid });
    expect((await call('GET', '/api/courses?filter=mine', bed.as.CURATOR.token)).status).toBe(400);
  });

  it('filters by the person’s own favourites and started courses', async () => {
    const client = bed.as.CLIENT.token;
    await call('POST', `/api/courses/${published.id}/favorite`, client);
    const favourites = (await call<CourseSummary[]>('GET', '/api/courses?filter=favorites', client)).body;
    expect(favourites.map((c) => [c.id, c.isFavorite])).toEqual([[published.id, true]]);
    expect((await call('GET', '/api/courses?filter=favorites', bed.as.CANDIDATE.token)).body).toEqual([]);
    expect((await call('GET', '/api/courses?filter=started', client)).body).toEqual([]);
    await call('POST', `/api/courses/${published.id}/start`, client);
    expect((await call<CourseSummary[]>('GET', '/api/courses?filter=started', client)).body.map((c) => c.id)).toEqual([
      published.id,
    ]);
  });
});

describe('GET /api/courses/{id}', () => {
  it('answers 401, 400 for an id that breaks the rule, 404 for none, and 404 to learners for unpublished', async () => {
    const draft = await seedCourse(bed);
    expect((await call('GET', `/api/courses/${draft.id}`)).status).toBe(401);
    const bad = await call('GET', `/api/courses/${BAD_ID}`, bed.as.CURATOR.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      field: 'courseId',
      message: invalidIdMessage('courseId'),
    });
    const tooLong = await call('GET', `/api/courses/${'a'.repeat(51)}`, bed.as.CURATOR.token);
    expect(tooLong.status).toBe(400);
    for (const id of [UNKNOWN_ID, '3f2504e0-4f89-11d3-9a0c-0305e82c3301', `c${'a'.repeat(24)}`, 'course_1']) {
      const missing = await call('GET', `/api/courses/${id}`, bed.as.CURATOR.token);
      expect({ id, status: missing.status, message: missing.body.message }).toEqual({
        id,
        status: 404,
        message: CONTENT_MSG.courseNotFound,
      });
    }
    expect((await call('GET', `/api/courses/${draft.id}`, bed.as.CANDIDATE.token)).status).toBe(404);
    expect((await call('GET', `/api/courses/${draft.id}`, bed.as.CURATOR.token)).status).toBe(200);
  });

  it('answers modules → lessons → blocks in order, without hidden ones for learners', async () => {
    const course = await seedCourse(bed, { isPublished: true, modules: [2, 1] });
    const [first, second] = course.modules;
    const hiddenLesson = first.lessons[1];
    await call('PATCH', `/api/blocks/${hiddenLesson.id}`, bed.as.CURATOR.token, {
      status: 'hidden',
    });
    await call('PATCH', `/api/blocks/${first.lessons[0].id}`, bed.as.CURATOR.token, {
      content: [
        { type: 'text', order: 2, content: { text: 'Второй' } },
        { type: 'heading', order: 1, content: { text: 'Первый' } },
      ],
    });
    const staff = (await call<Course>('GET', `/api/courses/${course.id}`, bed.as.ADMIN.token)).body;
    expect(staff.modules.map((m) => [m.title, m.position, m.lessons.map((l) => [l.title, l.position])])).toEqual([
      [
        'модуль_1',
        0,
        [
          ['урок_1', 0],
          ['урок_2', 1],
        ],
      ],
      ['модуль_2', 1, [['урок_3', 0]]],
    ]);
    expect(staff.modules[0].lessons[0].blocks.map((b) => [b.type, b.order])).toEqual([
      ['heading', 1],
      ['text', 2],
    ]);
    expect(staff.lessonsCount).toBe(3);
    const learner = (await call<Course>('GET', `/api/courses/${course.id}`, bed.as.CLIENT.token)).body;
    expect(learner.modules.map((m) => m.lessons.map((l) => l.id))).toEqual([[first.lessons[0].id], [second.lessons[0].id]]);
    expect(learner.lessonsCount).toBe(2);
  });
});

describe('PATCH /api/courses/{id}', () => {
  it('answers 401, 403 for learners, 400 for bad input or id, 404 for none', async () => {
    const course = await seedCourse(bed);
    expect((await call('PATCH', `/api/courses/${course.id}`, undefined, { title: 'x' })).status).toBe(401);
    expect((await call('PATCH', `/api/courses/${course.id}`, bed.as.CANDIDATE.token, { title: 'x' })).status).toBe(403);
    const empty = await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, {});
    expect(empty).toMatchObject({ status: 400, body: { message: CONTENT_MSG.nothingToUpdate } });
    const negative = await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, { duration: -1 });
    expect(negative).toMatchObject({ status: 400, body: { field: 'duration', message: CONTENT_MSG.durationMin } });
    const blank = await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, { title: '' });
    expect(blank).toMatchObject({ status: 400, body: { field: 'title' } });
    expect((await call('PATCH', `/api/courses/${BAD_ID}`, bed.as.CURATOR.token, { title: 'x' })).status).toBe(400);
    expect((await call('PATCH', `/api/courses/${UNKNOWN_ID}`, bed.as.CURATOR.token, { title: 'x' })).status).toBe(404);
    expect(await bed.models.courses.findById(course.id).lean()).toMatchObject({ title: course.title, duration: 0 });
  });

  it('changes the fields given and keeps status and isPublished consistent', async () => {
    const course = await seedCourse(bed);
    const token = bed.as.CURATOR.token;
    const edited = await call<Course>('PATCH', `/api/courses/${course.id}`, token, {
      title: 'Новое имя',
      price: 99,
      isPublished: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      title: 'Новое имя',
      price: 99,
      level: 'Начальный',
      isPublished: true,
      status: 'published',
    });
    expect(new Date(edited.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(course.updatedAt).getTime());

    expect((await call('PATCH', `/api/courses/${course.id}`, token, { status: 'hidden' })).body).toMatchObject({
      status: 'hidden',
      isPublished: false,
    });
    // Unpublishing a hidden course leaves it hidden; unpublishing a published one makes it a draft.
    expect((await call('PATCH', `/api/courses/${course.id}`, token, { isPublished: false })).body).toMatchObject({
      status: 'hidden',
      isPublished: false,
    });
    await call('PATCH', `/api/courses/${course.id}`, token, { status: 'published' });
    expect((await call('PATCH', `/api/courses/${course.id}`, token, { isPublished: false })).body).toMatchObject({
      status: 'draft',
      isPublished: false,
    });
    expect(await bed.models.courses.findById(course.id).lean()).toMatchObject({
      title: 'Новое имя',
      price: 99,
      status: 'draft',
      isPublished: false,
      publishedAt: null,
    });
    const conflict = await call('PATCH', `/api/courses/${course.id}`, token, { status: 'hidden', isPublished: true });
    expect(conflict).toMatchObject({ status: 400, body: { message: CONTENT_MSG.statusConflict } });
    const events = await auditEventsFor(bed.content, course.id);
    expect(events.filter((e) => e.action === 'update')).toHaveLength(5);
  });
});

describe('DELETE /api/courses/{id}', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const course = await seedCourse(bed);
    expect((await call('DELETE', `/api/courses/${course.id}`)).status).toBe(401);
    expect((await call('DELETE', `/api/courses/${course.id}`, bed.as.CLIENT.token)).status).toBe(403);
    expect((await call('DELETE', `/api/courses/${BAD_ID}`, bed.as.ADMIN.token)).status).toBe(400);
    expect((await call('DELETE', `/api/courses/${UNKNOWN_ID}`, bed.as.ADMIN.token)).status).toBe(404);
    expect(await bed.models.courses.exists({ _id: course.id })).toBeTruthy();
  });

  it('removes the course with its modules, lessons and everyone’s marks', async () => {
    const course = await seedCourse(bed, { isPublished: true, modules: [2] });
    await call('POST', `/api/courses/${course.id}/favorite`, bed.as.CLIENT.token);
    const answer = await call('DELETE', `/api/courses/${course.id}`, bed.as.ADMIN.token);
    expect(answer.status).toBe(204);
    const id = new Types.ObjectId(course.id);
    expect(await bed.models.courses.exists({ _id: id })).toBeNull();
    expect(await bed.models.blocks.countDocuments({ courseId: id })).toBe(0);
    expect(await bed.models.marks.countDocuments({ courseId: id })).toBe(0);
    expect((await call('GET', `/api/courses/${course.id}`, bed.as.ADMIN.token)).status).toBe(404);
    expect((await auditEventsFor(bed.content, course.id)).map((e) => e.action)).toContain('delete');
  });
});

describe('POST /api/courses/{id}/copy', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const course = await seedCourse(bed);
    expect((await call('POST', `/api/courses/${course.id}/copy`)).status).toBe(401);
    expect((await call('POST', `/api/courses/${course.id}/copy`, bed.as.CANDIDATE.token)).status).toBe(403);
    expect((await call('POST', `/api/courses/${BAD_ID}/copy`, bed.as.CURATOR.token)).status).toBe(400);
    expect((await call('POST', `/api/courses/${UNKNOWN_ID}/copy`, bed.as.CURATOR.token)).status).toBe(404);
  });

  it('makes a deep copy with new ids, titled "(копия)", as a draft', async () => {
    const source = await seedCourse(bed, { isPublished: true, price: 10, description: 'Исходный', modules: [1, 2] });
    const lesson = source.modules[0].lessons[0];
    await call('PATCH', `/api/blocks/${lesson.id}`, bed.as.CURATOR.token, {
      content: [{ type: 'heading', content: { text: 'Заголовок' } }],
    });
    const answer = await call<Course>('POST', `/api/courses/${source.id}/copy`, bed.as.CURATOR.token);
    expect(answer.status).toBe(201);
    const copy = answer.body;
    expect(copy).toMatchObject({
      title: `${source.title} (копия)`,
      description: 'Исходный',
      price: 10,
      status: 'draft',
      isPublished: false,
      lessonsCount: 3,
    });
    expect(copy.id).not.toBe(source.id);
    const sourceIds = new Set([...source.modules.map((m) => m.id), ...source.modules.flatMap((m) => m.lessons.map((l) => l.id))]);
    for (const m of copy.modules) {
      expect(sourceIds.has(m.id)).toBe(false);
      for (const l of m.lessons) {
        expect(sourceIds.has(l.id)).toBe(false);
        expect(l.moduleId).toBe(m.id);
      }
    }
    const copiedBlock = copy.modules[0].lessons[0].blocks[0];
    const sourceBlock = (await call<Course>('GET', `/api/courses/${source.id}`, bed.as.CURATOR.token)).body.modules[0].lessons[0]
      .blocks[0];
    expect(copiedBlock).toMatchObject({
      type: 'heading',
      content: { text: 'Заголовок' },
      lessonId: copy.modules[0].lessons[0].id,
    });
    expect(copiedBlock.id).not.toBe(sourceBlock.id);
    expect(await bed.models.blocks.countDocuments({ courseId: new Types.ObjectId(copy.id) })).toBe(5);
    expect(await bed.models.courses.findById(source.id).lean()).toMatchObject({ status: 'published', title: source.title });
  });
});

describe('favourites and starts', () => {
  it('answer 401, 400 for a bad id and 404 for a course the person cannot see', async () => {
    const draft = await seedCourse(bed);
    for (const [method, suffix] of [
      ['POST', 'favorite'],
      ['DELETE', 'favorite'],
      ['POST', 'start'],
    ] as const) {
      expect((await call(method, `/api/courses/${draft.id}/${suffix}`)).status).toBe(401);
      expect((await call(method, `/api/courses/${BAD_ID}/${suffix}`, bed.as.CLIENT.token)).status).toBe(400);
      expect((await call(method, `/api/courses/${draft.id}/${suffix}`, bed.as.CLIENT.token)).status).toBe(404);
    }
    expect((await call('GET', '/api/courses/favorites/my')).status).toBe(401);
    expect((await call('GET', '/api/courses/started/my')).status).toBe(401);
    expect(await bed.models.marks.countDocuments({ courseId: new Types.ObjectId(draft.id) })).toBe(0);
  });

  it('adds and removes a favourite idempotently, for the person only', async () => {
    const course = await seedCourse(bed, { isPublished: true });
    const candidate = bed.as.CANDIDATE;
    const added = await call<CourseSummary>('POST', `/api/courses/${course.id}/favorite`, candidate.token);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: course.id, isFavorite: true });
    expect((await call('POST', `/api/courses/${course.id}/favorite`, candidate.token)).body.isFavorite).toBe(true);
    expect(
      await bed.models.marks.countDocuments({
        userId: candidate.user.id,
        kind: 'favorite',
        courseId: new Types.ObjectId(course.id),
      }),
    ).toBe(1);
    expect((await call<Course>('GET', `/api/courses/${course.id}`, candidate.token)).body.isFavorite).toBe(true);
    expect((await call<Course>('GET', `/api/courses/${course.id}`, bed.as.CLIENT.token)).body.isFavorite).toBe(false);
    const mine = (await call<CourseSummary[]>('GET', '/api/courses/favorites/my', candidate.token)).body;
    expect(mine.map((c) => c.id)).toContain(course.id);

    const removed = await call<CourseSummary>('DELETE', `/api/courses/${course.id}/favorite`, candidate.token);
    expect(removed.body).toMatchObject({ isFavorite: false });
    expect((await call('DELETE', `/api/courses/${course.id}/favorite`, candidate.token)).status).toBe(200);
    expect(
      await bed.models.marks.countDocuments({
        userId: candidate.user.id,
        kind: 'favorite',
        courseId: new Types.ObjectId(course.id),
      }),
    ).toBe(0);
    expect(
      (await call<CourseSummary[]>('GET', '/api/courses/favorites/my', candidate.token)).body.map((c) => c.id),
    ).not.toContain(course.id);
    const events = (await auditEventsFor(bed.content, course.id)).filter((e) => e.actor?.id === candidate.user.id);
    expect(events.map((e) => e.action)).toEqual(['create', 'delete']);
  });

  it('marks a course started once and lists it under started/my', async () => {
    const course = await seedCourse(bed, { isPublished: true });
    const client = bed.as.CLIENT;
    const started = await call<CourseSummary>('POST', `/api/courses/${course.id}/start`, client.token);
    expect(started.body).toMatchObject({ id: course.id, isStarted: true });
    await call('POST', `/api/courses/${course.id}/start`, client.token);
    expect(
      await bed.models.marks.countDocuments({ userId: client.user.id, kind: 'started', courseId: new Types.ObjectId(course.id) }),
    ).toBe(1);
    expect((await call<CourseSummary[]>('GET', '/api/courses/started/my', client.token)).body[0]).toMatchObject({
      id: course.id,
      isStarted: true,
    });
    expect((await call<Course>('GET', `/api/courses/${course.id}`, bed.as.CANDIDATE.token)).body.isStarted).toBe(false);
    const events = (await auditEventsFor(bed.content, course.id)).filter((e) => e.entity === 'progress');
    expect(events).toHaveLength(1);
  });

  it('drops a favourite from favorites/my for a learner once the course is unpublished', async () => {
    const course = await seedCourse(bed, { isPublished: true });
    await call('POST', `/api/courses/${course.id}/favorite`, bed.as.CLIENT.token);
    await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, { isPublished: false });
    expect(
      (await call<CourseSummary[]>('GET', '/api/courses/favorites/my', bed.as.CLIENT.token)).body.map((c) => c.id),
    ).not.toContain(course.id);
  });
});
