import {
  CANDIDATE_LINK_MSG,
  CONTENT_MSG,
  PROGRESS_MSG,
  type InternalAttemptStart,
  type InternalAttemptStartInput,
} from '@portal/contracts';
import { api, isBackgroundCollection } from '@portal/devstack/testing';
import { newQuestion } from '@portal/quiz-engine';
import { basedOnStored, seedCourse, startContent, waitForVersion, type ContentTestBed } from '../../testing';

/**
 * POST /internal/attempt-starts: an attempt's start in one question, the learner as data. It checks
 * what the learner's own reads (outline, lesson, quiz) checked, and costs the store little.
 */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const internal = () => ({ 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN });
const curatorCall = async <T = any>(method: string, path: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token: bed.as.CURATOR.token,
    body: method === 'PATCH' ? await basedOnStored(bed, path, body) : body,
  });

/** A published course of the bed's CURATOR whose one lesson holds a quiz of one question. */
async function quizCourse(question = 'Сколько дней отпуска?') {
  const course = await seedCourse(bed, { modules: [1], status: 'published' });
  const lessonId = course.modules[0].lessons[0].id;
  const quiz = await curatorCall<{ id: string }>('POST', '/api/quizzes', {
    title: 'Итоговый тест',
    courseId: course.id,
    questions: [{ ...newQuestion('single_choice', 'q1', 0), question }],
  });
  await curatorCall('PATCH', `/api/blocks/${lessonId}`, {
    content: [{ id: 'qz', type: 'quiz', content: { quizId: quiz.body.id, questionsCount: 1 } }],
  });
  return { courseId: course.id, lessonId, quizId: quiz.body.id };
}

type Where = Awaited<ReturnType<typeof quizCourse>>;
const ask = (where: Where, learner: InternalAttemptStartInput['learner'], extra: Partial<InternalAttemptStartInput> = {}) =>
  api<InternalAttemptStart & { message?: string; field?: string }>(bed.content.url, 'POST', '/internal/attempt-starts', {
    headers: internal(),
    body: { ...where, drawSeed: '00112233aabbccdd', learner, ...extra },
  });
const asLearner = () => ({ id: bed.as.CLIENT.user.id, role: bed.as.CLIENT.user.role });

/**
 * The store commands the service sends while `work` runs (the driver's command monitoring), but for
 * its audit outbox: the publisher's timer looks at it on its own, not as the request's work (a run of
 * the test command once caught that look inside the window).
 */
async function commandsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const onCommand = (event: { commandName: string; command: Record<string, unknown> }) => {
    const collection = String(event.command[event.commandName]);
    if (!isBackgroundCollection(collection)) seen.push(`${event.commandName} ${collection}`);
  };
  const client = bed.content.ctx.store.getClient();
  client.on('commandStarted', onCommand);
  try {
    await work();
  } finally {
    client.off('commandStarted', onCommand);
  }
  return seen;
}

describe('POST /internal/attempt-starts', () => {
  it('is for other services only: 403 without the internal token or with a user token', async () => {
    const where = await quizCourse();
    const body = { ...where, drawSeed: '00112233aabbccdd', learner: asLearner() };
    expect((await api(bed.content.url, 'POST', '/internal/attempt-starts', { body })).status).toBe(403);
    expect((await api(bed.content.url, 'POST', '/internal/attempt-starts', { body, token: bed.as.ADMIN.token })).status).toBe(
      403,
    );
  });

  it('needs to know who starts: 400 naming the field for an unknown role', async () => {
    const where = await quizCourse();
    const answer = await ask(where, { id: 'u1', role: 'ROOT' as never });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('learner.role');
  });

  it('answers the quiz, the course and the lesson’s entry; a second learner’s start reads at most two documents', async () => {
    const where = await quizCourse();
    expect((await ask(where, asLearner())).status).toBe(200);

    let answer: Awaited<ReturnType<typeof ask>> | undefined;
    const commands = await commandsDuring(async () => {
      answer = await ask(where, { id: bed.as.MANAGER.user.id, role: 'MANAGER' });
    });

    expect(answer!.status).toBe(200);
    expect(answer!.body).toMatchObject({
      quiz: { id: where.quizId, courseId: where.courseId, lessonId: where.lessonId, courseVersion: null },
      course: { id: where.courseId },
      lesson: { id: where.lessonId, hasQuiz: true },
    });
    expect(answer!.body.quiz.questions.map((q) => q.correctAnswers)).toEqual([[0]]);
    expect(commands.slice(2)).toEqual([]); // at most two, and any more named
    // Not asked to note the learner: the course knows of none.
    expect(await bed.models.courses.findById(where.courseId).select({ learnerActivity: 1 }).lean()).toMatchObject({
      learnerActivity: false,
    });
  });

  it('notes the first learner when asked, and the course’s first version follows', async () => {
    const where = await quizCourse();
    expect((await ask(where, asLearner(), { noteActivity: true })).status).toBe(200);
    await waitForVersion(bed, where.courseId);
    expect(await bed.models.courses.findById(where.courseId).select({ learnerActivity: 1 }).lean()).toMatchObject({
      learnerActivity: true,
    });
  });

  it('gives a learner of a versioned course the published quiz and its authors the draft', async () => {
    const where = await quizCourse('Старый вопрос');
    expect((await ask(where, asLearner(), { noteActivity: true })).status).toBe(200);
    await waitForVersion(bed, where.courseId);
    await curatorCall('PATCH', `/api/quizzes/${where.quizId}`, {
      questions: [{ ...newQuestion('single_choice', 'q1', 0), question: 'Новый вопрос' }],
    });

    const learner = await ask(where, asLearner());
    const author = await ask(where, { id: bed.as.CURATOR.user.id, role: 'CURATOR' });

    expect(learner.body.quiz.questions.map((q) => q.question)).toEqual(['Старый вопрос']);
    expect(learner.body.quiz.courseVersion).toBe(1);
    expect(author.body.quiz.questions.map((q) => q.question)).toEqual(['Новый вопрос']);
    expect(author.body.quiz.courseVersion).toBeNull();
  });

  it('refuses as the learner’s reads did: a course they cannot see, a hidden lesson, and a link session beyond its quiz', async () => {
    const where = await quizCourse();
    const other = await quizCourse();
    const elsewhere = await ask({ ...where, lessonId: other.lessonId }, asLearner());
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe(PROGRESS_MSG.lessonNotFound);
    const notHeld = await ask({ ...where, quizId: other.quizId }, asLearner());
    expect(notHeld.body.message).toBe(PROGRESS_MSG.quizNotInLesson);

    const scope = { linkId: 'link1', courseId: where.courseId, lessonId: where.lessonId, quizId: other.quizId };
    const beyond = await ask(where, { ...asLearner(), role: 'CANDIDATE', linkScope: scope });
    expect(beyond.status).toBe(403);
    expect(beyond.body.message).toBe(CANDIDATE_LINK_MSG.scopeOnly);

    await curatorCall('PATCH', `/api/blocks/${where.lessonId}`, { status: 'draft' });
    const hidden = await ask(where, asLearner(), { noteActivity: true });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(PROGRESS_MSG.lessonNotFound);

    await curatorCall('PATCH', `/api/courses/${where.courseId}`, { status: 'draft' });
    const unseen = await ask(where, asLearner(), { noteActivity: true });
    expect(unseen.status).toBe(404);
    expect(unseen.body.message).toBe(CONTENT_MSG.courseNotFound);
    expect(await bed.models.courses.findById(where.courseId).select({ learnerActivity: 1 }).lean()).toMatchObject({
      learnerActivity: false,
    });
  });
});

describe('GET /internal/courses/{id}/outline', () => {
  it('answers the outline as the person given reads it: a learner not the draft lessons, and 404 for a course they cannot see', async () => {
    const course = await seedCourse(bed, { modules: [2], status: 'published', lessonStatus: 'draft' });
    const outline = (userId: string, role: string) =>
      api(bed.content.url, 'GET', `/internal/courses/${course.id}/outline?${new URLSearchParams({ userId, role })}`, {
        headers: internal(),
      });

    const learner = await outline(bed.as.CLIENT.user.id, 'CLIENT');
    const author = await outline(bed.as.CURATOR.user.id, 'CURATOR');
    expect(learner.status).toBe(200);
    expect(learner.body).toMatchObject({ id: course.id, isFavorite: false, isStarted: false });
    expect(learner.body.modules.flatMap((m: { lessons: unknown[] }) => m.lessons)).toEqual([]);
    expect(author.body.modules.flatMap((m: { lessons: unknown[] }) => m.lessons)).toHaveLength(2);

    await curatorCall('PATCH', `/api/courses/${course.id}`, { status: 'draft' });
    const unseen = await outline(bed.as.CLIENT.user.id, 'CLIENT');
    expect(unseen.status).toBe(404);
    expect(unseen.body.message).toBe(CONTENT_MSG.courseNotFound);
    expect((await outline('', 'CLIENT')).status).toBe(400);
  });
});
