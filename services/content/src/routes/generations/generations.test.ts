import { GENERATION_MSG, MSG, type Course, type GenerationJob, type Quiz } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import {
  basedOnStored,
  auditEventsFor,
  countAll,
  quizIdsOf,
  startContent,
  storedCourse,
  waitForJob,
  type ContentTestBed,
} from '../../testing';

let bed: ContentTestBed;
beforeAll(async () => {
  // No provider configured: the built-in template builds. A high limit: this file generates often.
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
const GOALS = ['Распознавать фишинговые письма', 'Создавать надёжные пароли', 'Сообщать об инцидентах'];
const REQUEST = { topic: 'Информационная безопасность', audience: 'Новые сотрудники офиса', goals: GOALS };
const UNKNOWN_JOB = '0b6a4a8e-7d7c-4d6e-9a55-5b2f5e0c1f11';

async function generated(
  token = curator(),
  body: Record<string, unknown> = REQUEST,
): Promise<{ job: GenerationJob; course: Course }> {
  const started = await call<GenerationJob>('POST', '/api/courses/generate', token, body);
  if (started.status !== 202) throw new Error(`generate failed: ${started.status} ${JSON.stringify(started.body)}`);
  const job = await waitForJob(bed, token, started.body.id);
  if (job.status !== 'succeeded' || !job.courseId) throw new Error(`job ended ${job.status}: ${job.error}`);
  const course = await call<Course>('GET', `/api/courses/${job.courseId}`, token);
  return { job, course: course.body };
}

async function proposalFor(target: 'lesson' | 'module' | 'quiz', id: string, token = curator()): Promise<GenerationJob> {
  const started = await call<GenerationJob>('POST', '/api/generations/regenerate', token, { target, id });
  if (started.status !== 202) throw new Error(`regenerate failed: ${started.status} ${JSON.stringify(started.body)}`);
  expect(started.body).toMatchObject({ kind: target, status: 'running', targetId: id, proposal: null });
  const job = await waitForJob(bed, token, started.body.id);
  if (job.status !== 'succeeded' || !job.proposal) throw new Error(`regeneration ended ${job.status}: ${job.error}`);
  return job;
}

describe('GET /api/generations/config', () => {
  it('refuses anonymous callers and non-authors', async () => {
    expect((await call('GET', '/api/generations/config')).status).toBe(401);
    for (const role of ['MANAGER', 'CLIENT', 'CANDIDATE'] as const) {
      const refused = await call('GET', '/api/generations/config', bed.as[role].token);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
    }
  });

  it('tells authors plainly that the template builds when no provider is configured', async () => {
    const answer = await call('GET', '/api/generations/config', bed.as.ADMIN.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ source: 'template', notice: GENERATION_MSG.templateAhead });
  });
});

describe('POST /api/courses/generate', () => {
  it('refuses anonymous callers with 401 and MANAGER, CLIENT, CANDIDATE with 403, creating nothing', async () => {
    const before = await countAll(bed);
    expect((await call('POST', '/api/courses/generate', undefined, REQUEST)).status).toBe(401);
    for (const role of ['MANAGER', 'CLIENT', 'CANDIDATE'] as const) {
      expect((await call('POST', '/api/courses/generate', bed.as[role].token, REQUEST)).status).toBe(403);
    }
    expect(await countAll(bed)).toEqual(before);
  });

  it('answers 400 naming the field for a bad request, creating nothing', async () => {
    const before = await countAll(bed);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...REQUEST, topic: '  ' }, 'topic', GENERATION_MSG.topicRequired],
      [{ ...REQUEST, audience: undefined }, 'audience', GENERATION_MSG.audienceRequired],
      [{ ...REQUEST, goals: ['', ' '] }, 'goals', GENERATION_MSG.goalsRequired],
      [{ ...REQUEST, goals: Array.from({ length: 11 }, (_, i) => `Цель ${i}`) }, 'goals', GENERATION_MSG.tooManyGoals],
      [{ ...REQUEST, modulesCount: 13 }, 'modulesCount', GENERATION_MSG.modulesRange],
      [{ ...REQUEST, lessonsPerModule: 0 }, 'lessonsPerModule', GENERATION_MSG.lessonsRange],
    ];
    for (const [body, field, message] of cases) {
      const refused = await call('POST', '/api/courses/generate', curator(), body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, message, field });
    }
    const unknown = await call('POST', '/api/courses/generate', curator(), { ...REQUEST, price: 10 });
    expect(unknown.status).toBe(400);
    expect(await countAll(bed)).toEqual(before);
  });

  it('builds a draft from three goals by the template: five modules, the goal modules titled as the goals, quizzes', async () => {
    const started = await call<GenerationJob>('POST', '/api/courses/generate', curator(), { ...REQUEST, level: 'Средний' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      kind: 'course',
      status: 'running',
      source: 'template',
      notice: GENERATION_MSG.templateNotice,
      courseId: null,
      error: null,
    });
    const job = await waitForJob(bed, curator(), started.body.id);
    expect(job).toMatchObject({ status: 'succeeded', stage: 'done', progress: 100, source: 'template', error: null });
    expect(job.notice).toBe(GENERATION_MSG.templateNotice);

    const { body: course } = await call<Course>('GET', `/api/courses/${job.courseId}`, curator());
    expect(course).toMatchObject({ title: REQUEST.topic, status: 'draft', isPublished: false, level: 'Средний' });
    expect(course.modules.map((m) => m.title)).toEqual(['Введение', ...GOALS, 'Итоговая аттестация']);
    // Each goal module: two lessons and the lesson holding its quiz.
    for (const m of course.modules.slice(1, 4)) {
      expect(m.lessons.map((l) => l.title)).toEqual([expect.any(String), expect.any(String), `Проверка знаний: ${m.title}`]);
      expect(m.lessons[0].blocks.map((b) => b.type)).toEqual(expect.arrayContaining(['heading', 'text']));
    }
    const quizIds = quizIdsOf(course);
    expect(quizIds).toHaveLength(4);
    const stored = await storedCourse(bed, String(job.courseId));
    expect(stored.quizzes.map((q) => String(q._id)).sort()).toEqual([...quizIds].sort());
    for (const lesson of course.modules.flatMap((m) => m.lessons)) {
      for (const block of lesson.blocks.filter((b) => b.type === 'quiz')) {
        const quiz = stored.quizzes.find((q) => String(q._id) === (block.content as { quizId: string }).quizId);
        expect((block.content as { questionsCount: number }).questionsCount).toBe(quiz?.questions.length);
      }
    }
    expect(stored.course?.createdBy).toBe(bed.as.CURATOR.user.id);
    const events = await auditEventsFor(bed.content, String(job.courseId));
    expect(events).toEqual([
      expect.objectContaining({ action: 'create', entity: 'course', details: expect.stringContaining('по шаблону') }),
    ]);
    expect(events[0].details).toContain(REQUEST.topic);
  });

  it('makes an ordinary course: the existing routes edit its lessons and quizzes', async () => {
    const { course } = await generated();
    const lesson = course.modules[1].lessons[0];
    const patched = await call('PATCH', `/api/blocks/${lesson.id}`, curator(), { title: 'Мой урок' });
    expect(patched.status).toBe(200);
    expect((await bed.models.blocks.findById(lesson.id).lean())?.title).toBe('Мой урок');
    const [quizId] = quizIdsOf(course);
    const quiz = await call<Quiz>('GET', `/api/quizzes/${quizId}`, curator());
    const edited = await call<Quiz>('PATCH', `/api/quizzes/${quizId}`, curator(), { questions: quiz.body.questions.slice(0, 1) });
    expect(edited.status).toBe(200);
    expect((await bed.models.quizzes.findById(quizId).lean())?.questions).toHaveLength(1);
  });

  it('without quizzes holds no quiz lessons', async () => {
    const { course } = await generated(curator(), { ...REQUEST, withQuizzes: false, lessonsPerModule: 1 });
    expect(course.modules).toHaveLength(5);
    expect(quizIdsOf(course)).toEqual([]);
    expect(course.modules[1].lessons).toHaveLength(1);
    expect(await bed.models.quizzes.countDocuments({ courseId: course.id })).toBe(0);
  });
});

describe('the job routes', () => {
  it('refuse anonymous callers, non-authors, and ids that break the id rule', async () => {
    const { job } = await generated();
    for (const [method, path] of [
      ['GET', `/api/generations/${job.id}`],
      ['DELETE', `/api/generations/${job.id}`],
      ['POST', `/api/generations/${job.id}/accept`],
      ['POST', '/api/generations/regenerate'],
    ] as const) {
      expect((await call(method, path)).status).toBe(401);
      for (const role of ['MANAGER', 'CLIENT', 'CANDIDATE'] as const)
        expect((await call(method, path, bed.as[role].token)).status).toBe(403);
    }
    for (const method of ['GET', 'DELETE'] as const) {
      const bad = await call(method, `/api/generations/${encodeURIComponent('bad id!')}`, curator());
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'id' });
      expect((await call(method, `/api/generations/${UNKNOWN_JOB}`, curator())).body).toMatchObject({
        statusCode: 404,
        message: GENERATION_MSG.jobNotFound,
      });
    }
    expect((await call('POST', `/api/generations/${encodeURIComponent('bad id!')}/accept`, curator())).status).toBe(400);
  });

  it('keep a job to its owner: another curator gets 404 reading, cancelling or accepting it; an ADMIN may read it', async () => {
    const { course } = await generated();
    const lesson = course.modules[1].lessons[0];
    const job = await proposalFor('lesson', lesson.id);
    const other = await userWithRole(bed.auth, 'CURATOR', 'Другой Куратор');
    for (const [method, path] of [
      ['GET', `/api/generations/${job.id}`],
      ['DELETE', `/api/generations/${job.id}`],
      ['POST', `/api/generations/${job.id}/accept`],
    ] as const) {
      const refused = await call(method, path, other.token);
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe(GENERATION_MSG.jobNotFound);
    }
    expect((await bed.models.blocks.findById(lesson.id).lean())?.title).toBe(lesson.title);
    expect((await call('GET', `/api/generations/${job.id}`, curator())).body.proposal).not.toBeNull();
    expect((await call('GET', `/api/generations/${job.id}`, bed.as.ADMIN.token)).status).toBe(200);
  });

  it('a finished course job cannot be cancelled or accepted', async () => {
    const { job } = await generated();
    const cancel = await call('DELETE', `/api/generations/${job.id}`, curator());
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe(GENERATION_MSG.alreadyFinished);
    const accept = await call('POST', `/api/generations/${job.id}/accept`, curator());
    expect(accept.status).toBe(409);
    expect(accept.body.message).toBe(GENERATION_MSG.notAProposal);
    expect(await bed.models.courses.exists({ _id: job.courseId })).toBeTruthy();
  });
});

describe('POST /api/generations/regenerate', () => {
  it('answers 400 naming the field and 404 for a node that is not there', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ target: 'course', id: 'x' }, 'target'],
      [{ target: 'lesson' }, 'id'],
      [{ target: 'lesson', id: 'x', extra: 1 }, ''],
      [{ target: 'lesson', id: 'bad id!' }, 'id'],
      [{ target: 'quiz', id: 'x', instructions: 'я'.repeat(1001) }, 'instructions'],
    ];
    for (const [body, field] of cases) {
      const refused = await call('POST', '/api/generations/regenerate', curator(), body);
      expect(refused.status).toBe(400);
      if (field) expect(refused.body.field).toBe(field);
    }
    const missing = await call('POST', '/api/generations/regenerate', curator(), {
      target: 'lesson',
      id: '64b7f0c2a1b2c3d4e5f60718',
    });
    expect(missing.status).toBe(404);
    const { course } = await generated();
    // A module's id is not a lesson.
    const wrongKind = await call('POST', '/api/generations/regenerate', curator(), {
      target: 'lesson',
      id: course.modules[0].id,
    });
    expect(wrongKind.status).toBe(404);
  });

  it('a lesson proposal changes nothing until accepted; rejecting it leaves the lesson as it was', async () => {
    const { course } = await generated();
    const lesson = course.modules[1].lessons[0];
    const before = await storedCourse(bed, course.id);
    const job = await proposalFor('lesson', lesson.id);
    expect(job).toMatchObject({ kind: 'lesson', courseId: course.id, targetId: lesson.id, source: 'template' });
    expect(job.proposal?.kind).toBe('lesson');
    if (job.proposal?.kind !== 'lesson') return;
    // Visibly different from what the lesson says now, so accept and reject are told apart,
    // and never a neighbour's title.
    expect(JSON.stringify(job.proposal.blocks)).not.toBe(JSON.stringify(lesson.blocks));
    expect(course.modules[1].lessons.map((l) => l.title)).not.toContain(job.proposal.title);
    expect(await storedCourse(bed, course.id)).toEqual(before);

    const rejected = await call<GenerationJob>('DELETE', `/api/generations/${job.id}`, curator());
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'succeeded', proposal: null });
    expect(await storedCourse(bed, course.id)).toEqual(before);
    const late = await call('POST', `/api/generations/${job.id}/accept`, curator());
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(GENERATION_MSG.notAProposal);
    expect(await storedCourse(bed, course.id)).toEqual(before);
  });

  it('accepting a lesson proposal changes that lesson only', async () => {
    const { course } = await generated();
    const lesson = course.modules[2].lessons[1];
    const before = await storedCourse(bed, course.id);
    const job = await proposalFor('lesson', lesson.id);
    if (job.proposal?.kind !== 'lesson') throw new Error('lesson proposal expected');

    const accepted = await call<Course>('POST', `/api/generations/${job.id}/accept`, curator());
    expect(accepted.status).toBe(200);
    const shown = accepted.body.modules[2].lessons[1];
    expect(shown.id).toBe(lesson.id);
    expect(shown.title).toBe(job.proposal.title);
    expect(shown.blocks.map((b) => b.type)).toEqual(job.proposal.blocks.map((b) => b.type));
    expect(shown.blocks[0].content).toMatchObject({ text: (job.proposal.blocks[0] as { text: string }).text });

    const after = await storedCourse(bed, course.id);
    const others = (s: typeof before) => s.blocks.filter((b) => String(b._id) !== lesson.id);
    expect(others(after)).toEqual(others(before));
    expect(after.quizzes).toEqual(before.quizzes);
    expect((await call('GET', `/api/generations/${job.id}`, curator())).body.proposal).toBeNull();
    const events = await auditEventsFor(bed.content, lesson.id);
    expect(events.map((e) => [e.action, e.entity])).toEqual([
      ['update', 'lesson'],
      ['update', 'lesson'],
    ]);
  });

  it('a proposal for a lesson changed since is refused with 409 and the change stays', async () => {
    const { course } = await generated();
    const lesson = course.modules[1].lessons[1];
    const job = await proposalFor('lesson', lesson.id);
    expect((await call('PATCH', `/api/blocks/${lesson.id}`, curator(), { title: 'Правка автора' })).status).toBe(200);
    const stale = await call('POST', `/api/generations/${job.id}/accept`, curator());
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(GENERATION_MSG.staleProposal);
    const stored = await bed.models.blocks.findById(lesson.id).lean();
    expect(stored?.title).toBe('Правка автора');
    expect(stored?.content).toBe(JSON.stringify(lesson.blocks));
  });

  it('a quiz proposal replaces its questions and the count shown by the lessons holding it', async () => {
    const { course } = await generated();
    const [quizId] = quizIdsOf(course);
    const full = await call<Quiz>('GET', `/api/quizzes/${quizId}`, curator());
    // One question first, so the accepted version changes the count the lesson shows.
    await call('PATCH', `/api/quizzes/${quizId}`, curator(), { questions: full.body.questions.slice(0, 1) });
    const before = await storedCourse(bed, course.id);
    const job = await proposalFor('quiz', quizId);
    if (job.proposal?.kind !== 'quiz') throw new Error('quiz proposal expected');
    expect(job.courseId).toBe(course.id);
    expect(await storedCourse(bed, course.id)).toEqual(before);

    const accepted = await call<Course>('POST', `/api/generations/${job.id}/accept`, curator());
    expect(accepted.status).toBe(200);
    const quiz = await bed.models.quizzes.findById(quizId).lean();
    expect(quiz?.questions.map((q) => q.question)).toEqual(job.proposal.questions.map((q) => q.question));
    expect(quiz?.questions.length).toBeGreaterThan(1);
    const holder = accepted.body.modules
      .flatMap((m) => m.lessons)
      .find((l) => l.blocks.some((b) => b.type === 'quiz' && b.content.quizId === quizId));
    const block = holder?.blocks.find((b) => b.type === 'quiz');
    expect(block?.content).toMatchObject({ quizId, questionsCount: quiz?.questions.length });
    // Nothing else changed: other lessons and the other quizzes.
    const after = await storedCourse(bed, course.id);
    const notHolder = (s: typeof before) => s.blocks.filter((b) => String(b._id) !== holder?.id);
    expect(notHolder(after)).toEqual(notHolder(before));
    expect(after.quizzes.filter((q) => String(q._id) !== quizId)).toEqual(before.quizzes.filter((q) => String(q._id) !== quizId));
  });

  it('a module proposal replaces the module’s lessons but keeps the lesson holding its quiz, after the new ones', async () => {
    const { course } = await generated();
    const mod = course.modules[3];
    const oldQuizIds = quizIdsOf({ ...course, modules: [mod] });
    expect(oldQuizIds).toHaveLength(1);
    const quizLesson = mod.lessons.find((l) => l.blocks.some((b) => b.type === 'quiz'))!;
    const before = await storedCourse(bed, course.id);
    const job = await proposalFor('module', mod.id);
    if (job.proposal?.kind !== 'module') throw new Error('module proposal expected');
    expect(await storedCourse(bed, course.id)).toEqual(before);

    const accepted = await call<Course>('POST', `/api/generations/${job.id}/accept`, curator());
    expect(accepted.status).toBe(200);
    const shown = accepted.body.modules[3];
    expect(shown.id).toBe(mod.id);
    expect(shown.title).toBe(job.proposal.title);
    expect(shown.description).toBe(job.proposal.description);
    expect(shown.lessons.map((l) => l.title)).toEqual([...job.proposal.lessons.map((l) => l.title), quizLesson.title]);
    expect(shown.lessons.map((l) => l.position)).toEqual(shown.lessons.map((_, i) => i));
    expect(shown.lessons.at(-1)).toMatchObject({ id: quizLesson.id, blocks: quizLesson.blocks });
    for (const old of mod.lessons.filter((l) => l.id !== quizLesson.id))
      expect(await bed.models.blocks.exists({ _id: old.id })).toBeNull();
    expect(await bed.models.quizzes.exists({ _id: oldQuizIds[0] })).not.toBeNull();

    const after = await storedCourse(bed, course.id);
    const elsewhere = (s: typeof before) => s.blocks.filter((b) => String(b._id) !== mod.id && String(b.moduleId) !== mod.id);
    expect(elsewhere(after)).toEqual(elsewhere(before));
    expect(after.quizzes).toEqual(before.quizzes);
  });
});
