import type { Course, CourseOutline, CourseSummary } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { basedOnStored, startContent, uniqueTitle, type ContentTestBed } from '../../testing';

// The course list answers from counts stored on each course, and the outline from figures stored on
// each lesson; every kind of write must move them. After each write below, the card and the outline
// of every role must show what the course page shows that role.
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

// Every edit here is based on the version stored just before it, as the editor's is on what it read.
const call = async <T = any>(method: string, path: string, token: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
  });
const as = (role: 'ADMIN' | 'CURATOR' | 'CANDIDATE') => bed.as[role].token;

async function cardAndPage(courseId: string, title: string, role: 'CURATOR' | 'CANDIDATE') {
  const list = await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent(title)}`, as(role));
  expect(list.status).toBe(200);
  const card = list.body.find((c) => c.id === courseId);
  const page = await call<Course>('GET', `/api/courses/${courseId}`, as(role));
  expect(page.status).toBe(200);
  const fromPage = {
    modulesCount: page.body.modules.length,
    lessonsCount: page.body.modules.reduce((sum, m) => sum + m.lessons.length, 0),
  };
  const outline = await call<CourseOutline>('GET', `/api/courses/${courseId}/outline`, as(role));
  expect(outline.status).toBe(200);
  const structure = {
    fromPage: page.body.modules.map((m) => [
      m.id,
      m.lessons.map((l) => [l.id, l.blocks.length, l.blocks.some((b) => b.type === 'quiz')]),
    ]),
    fromOutline: outline.body.modules.map((m) => [m.id, m.lessons.map((l) => [l.id, l.blocksCount, l.hasQuiz])]),
  };
  return {
    card: card && { modulesCount: card.modulesCount, lessonsCount: card.lessonsCount },
    fromPage,
    fromOutline: { modulesCount: outline.body.modulesCount, lessonsCount: outline.body.lessonsCount },
    structure,
  };
}

it('the list counts follow every kind of write, for an author and for a learner', async () => {
  const title = uniqueTitle('Счётчики');
  const created = await call<Course>('POST', '/api/courses', as('CURATOR'), { title, status: 'published' });
  expect(created.status).toBe(201);
  const courseId = created.body.id;
  const ids: Record<string, string> = {};
  const block = async (key: string, body: Record<string, unknown>) => {
    const answer = await call<{ id: string }>('POST', '/api/blocks', as('CURATOR'), { courseId, ...body });
    expect(answer.status).toBe(201);
    ids[key] = answer.body.id;
  };
  const otherCourse = await call<Course>('POST', '/api/courses', as('CURATOR'), { title: uniqueTitle('Источник') });
  const otherModule = await call<{ id: string }>('POST', '/api/blocks', as('CURATOR'), {
    courseId: otherCourse.body.id,
    type: 'MODULE',
    title: 'Чужой модуль',
  });
  const otherLesson = await call<{ id: string }>('POST', '/api/blocks', as('CURATOR'), {
    courseId: otherCourse.body.id,
    moduleId: otherModule.body.id,
    title: 'Чужой урок',
    status: 'published',
    content: [{ type: 'text', content: { text: 'Импортируется' } }],
  });

  const writes: Array<[string, () => Promise<unknown>, { author: [number, number]; learner: [number, number] }]> = [
    [
      'a module is added',
      () => block('m1', { type: 'MODULE', title: 'Модуль 1', status: 'published' }),
      { author: [1, 0], learner: [1, 0] },
    ],
    [
      'a lesson is added',
      () =>
        block('l1', {
          moduleId: ids.m1,
          title: 'Урок 1',
          status: 'published',
          content: [
            { type: 'heading', content: { text: 'Заголовок' } },
            { type: 'quiz', content: { quizId: 'quiz-1', questionsCount: 1 } },
          ],
        }),
      { author: [1, 1], learner: [1, 1] },
    ],
    [
      'a second module with a lesson',
      async () => {
        await block('m2', { type: 'MODULE', title: 'Модуль 2', status: 'published' });
        await block('l2', { moduleId: ids.m2, title: 'Урок 2', status: 'published' });
      },
      { author: [2, 2], learner: [2, 2] },
    ],
    [
      'a lesson’s content is edited',
      () =>
        call('PATCH', `/api/blocks/${ids.l2}`, as('CURATOR'), {
          content: [1, 2, 3].map((n) => ({ type: 'text', content: { text: `Абзац ${n}` } })),
        }),
      { author: [2, 2], learner: [2, 2] },
    ],
    [
      'a lesson is hidden',
      () => call('PATCH', `/api/blocks/${ids.l1}`, as('CURATOR'), { status: 'hidden' }),
      { author: [2, 2], learner: [2, 1] },
    ],
    [
      'a module is hidden',
      () => call('PATCH', `/api/blocks/${ids.m2}`, as('CURATOR'), { status: 'hidden' }),
      { author: [2, 2], learner: [1, 0] },
    ],
    [
      'the lesson is shown again',
      () => call('PATCH', `/api/blocks/${ids.l1}`, as('CURATOR'), { status: 'published' }),
      { author: [2, 2], learner: [1, 1] },
    ],
    // Copies and imports are drafts: a learner does not see them (nor count them) until they are published.
    ['a lesson is copied', () => call('POST', `/api/blocks/${ids.l1}/copy`, as('CURATOR')), { author: [2, 3], learner: [1, 1] }],
    [
      'a lesson is moved into the hidden module',
      () => call('POST', '/api/blocks/reorder', as('CURATOR'), { blocks: [{ id: ids.l1, position: 1, moduleId: ids.m2 }] }),
      { author: [2, 3], learner: [1, 0] },
    ],
    [
      'lessons are imported from another course',
      () => call('POST', '/api/blocks/import', as('CURATOR'), { courseId, moduleId: ids.m1, lessonIds: [otherLesson.body.id] }),
      { author: [2, 4], learner: [1, 0] },
    ],
    ['a lesson is deleted', () => call('DELETE', `/api/blocks/${ids.l2}`, as('CURATOR')), { author: [2, 3], learner: [1, 0] }],
    [
      'a module with its lessons is deleted',
      () => call('DELETE', `/api/blocks/${ids.m2}`, as('CURATOR')),
      { author: [1, 2], learner: [1, 0] },
    ],
  ];

  for (const [name, write, expected] of writes) {
    await write();
    const author = await cardAndPage(courseId, title, 'CURATOR');
    const learner = await cardAndPage(courseId, title, 'CANDIDATE');
    expect({ name, author: author.card, learner: learner.card }).toEqual({
      name,
      author: { modulesCount: expected.author[0], lessonsCount: expected.author[1] },
      learner: { modulesCount: expected.learner[0], lessonsCount: expected.learner[1] },
    });
    expect({ name, author: author.fromPage, learner: learner.fromPage }).toEqual({
      name,
      author: author.card,
      learner: learner.card,
    });
    expect({ name, author: author.fromOutline, learner: learner.fromOutline }).toEqual({
      name,
      author: author.card,
      learner: learner.card,
    });
    expect({ name, author: author.structure.fromOutline, learner: learner.structure.fromOutline }).toEqual({
      name,
      author: author.structure.fromPage,
      learner: learner.structure.fromPage,
    });
  }

  // A copy of the course carries the same counts.
  const copy = await call<Course>('POST', `/api/courses/${courseId}/copy`, as('CURATOR'));
  expect(copy.status).toBe(201);
  const copied = await cardAndPage(copy.body.id, copy.body.title, 'CURATOR');
  expect(copied.card).toEqual({ modulesCount: 1, lessonsCount: 2 });
  expect(copied.structure.fromOutline).toEqual(copied.structure.fromPage);
  expect(copied.structure.fromOutline[0][1]).toEqual([
    [expect.any(String), 2, true],
    [expect.any(String), 1, false],
  ]);
});

it('overlapping writes by two authors leave the counts of everything written, not of a moment between', async () => {
  const title = uniqueTitle('Одновременно');
  const created = await call<Course>('POST', '/api/courses', as('CURATOR'), { title, status: 'published' });
  const courseId = created.body.id;
  const mod = await call<{ id: string }>('POST', '/api/blocks', as('CURATOR'), { courseId, type: 'MODULE', title: 'М' });
  // Twelve lessons and two more modules written at once, by its author and an administrator.
  const writes = await Promise.all([
    ...Array.from({ length: 12 }, (_, i) =>
      call('POST', '/api/blocks', as(i % 2 ? 'ADMIN' : 'CURATOR'), {
        courseId,
        moduleId: mod.body.id,
        title: `Урок ${i + 1}`,
        status: 'published',
      }),
    ),
    call('POST', '/api/blocks', as('CURATOR'), { courseId, type: 'MODULE', title: 'М2' }),
    call('POST', '/api/blocks', as('ADMIN'), { courseId, type: 'MODULE', title: 'М3' }),
  ]);
  expect(writes.map((w) => w.status)).toEqual(Array(14).fill(201));

  const seen = await cardAndPage(courseId, title, 'CANDIDATE');
  expect(seen.card).toEqual({ modulesCount: 3, lessonsCount: 12 });
  expect(seen.card).toEqual(seen.fromPage);
});

it('a course stored before counts existed is counted on its first listing, and keeps the counts', async () => {
  const title = uniqueTitle('Старый');
  const created = await call<Course>('POST', '/api/courses', as('ADMIN'), { title, status: 'published' });
  const courseId = created.body.id;
  const mod = await call<{ id: string }>('POST', '/api/blocks', as('ADMIN'), { courseId, type: 'MODULE', title: 'М' });
  await call('POST', '/api/blocks', as('ADMIN'), { courseId, moduleId: mod.body.id, title: 'У', status: 'published' });
  await bed.models.courses.updateOne({ _id: courseId }, { $unset: { counts: 1 } }, { timestamps: false });

  expect((await cardAndPage(courseId, title, 'CURATOR')).card).toEqual({ modulesCount: 1, lessonsCount: 1 });
  const stored = await bed.models.courses.findById(courseId).lean();
  expect(stored?.counts).toEqual({ modules: 1, lessons: 1, visibleModules: 1, visibleLessons: 1 });
});

it('the course list answers its counts without reading a single lesson or module', async () => {
  const title = uniqueTitle('Без уроков');
  const created = await call<Course>('POST', '/api/courses', as('ADMIN'), { title });
  const mod = await call<{ id: string }>('POST', '/api/blocks', as('ADMIN'), {
    courseId: created.body.id,
    type: 'MODULE',
    title: 'М',
  });
  await call('POST', '/api/blocks', as('ADMIN'), { courseId: created.body.id, moduleId: mod.body.id, title: 'У' });
  const reads: string[] = [];
  const find = bed.models.blocks.find.bind(bed.models.blocks);
  bed.models.blocks.find = ((...args: Parameters<typeof find>) => {
    reads.push(JSON.stringify(args[0]));
    return find(...args);
  }) as typeof find;
  try {
    const list = await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent(title)}`, as('ADMIN'));
    expect(list.body.map((c) => [c.title, c.modulesCount, c.lessonsCount])).toEqual([[title, 1, 1]]);
    expect(reads).toEqual([]);
  } finally {
    bed.models.blocks.find = find;
  }
});
