import type { IncomingMessage } from 'node:http';
import {
  CERTIFICATE_MSG,
  CONTENT_MSG,
  PROGRESS_MSG,
  QUIZ_MSG,
  type AttemptDetail,
  type QuizCard,
  type StartedAttempt,
} from '@portal/contracts';
import { AUDIT_OUTBOX } from '@portal/service-kit';
import { api, type ApiAnswer } from '@portal/devstack/testing';
import { basedOnStored, waitForVersion } from '@portal/svc-content/testing';
import { SAMPLE_QUESTIONS, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/**
 * An attempt's start asks the content service one question, with the service identity and the
 * learner as data (docs/decisions/096): under an exam storm the start must cost content little and never
 * relay the learner's token.
 */
let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

type Answer<T> = T & { message?: string; field?: string };
const start = (token: string, s: SeededCourse, where: Partial<Record<'quizId' | 'courseId' | 'lessonId', string>> = {}) =>
  api<Answer<StartedAttempt>>(bed.progress.url, 'POST', '/api/attempts', {
    token,
    body: { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId, ...where },
  });
const curatorCall = async (method: string, path: string, body: unknown) =>
  api(bed.content.url, method, path, { token: bed.as.CURATOR.token, body: await basedOnStored(bed, path, body) });
const internal = () => ({ 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN });

/** The course's first version, as its first learner's beginning takes it (docs/decisions/093). */
async function firstVersionOf(seeded: SeededCourse): Promise<void> {
  const began = await api(bed.content.url, 'POST', `/internal/courses/${seeded.course.id}/learner-activity`, {
    headers: internal(),
  });
  expect(began.status).toBe(204);
  await waitForVersion(bed, seeded.course.id);
}

interface ContentSeen {
  /** `METHOD path` of every request the content service received, and whether it carried a user's token. */
  requests: Array<{ line: string; userToken: boolean }>;
  /** The store commands the content service sent (the driver's command monitoring). */
  commands: string[];
}

/**
 * Until the content service has sent its store nothing for 300 ms (at most 5 s): the background work
 * of earlier writes (a course's counts kept up to date) is over before a request's own work is counted.
 */
async function contentQuiet(): Promise<void> {
  const client = bed.content.ctx.store.getClient();
  let last = Date.now();
  const onCommand = () => (last = Date.now());
  client.on('commandStarted', onCommand);
  try {
    for (const deadline = Date.now() + 5000; Date.now() - last < 300 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    client.off('commandStarted', onCommand);
  }
}

/** What the content service received and sent to its store while `work` ran: real traffic, nothing mocked. */
async function contentDuring(work: () => Promise<unknown>): Promise<ContentSeen> {
  await contentQuiet();
  const seen: ContentSeen = { requests: [], commands: [] };
  const onRequest = (req: IncomingMessage) =>
    seen.requests.push({ line: `${req.method} ${req.url?.split('?')[0]}`, userToken: !!req.headers.authorization });
  // The audit publisher looks at its outbox on a timer of its own, whatever requests come: not the request's work.
  const onCommand = (event: { commandName: string; command: Record<string, unknown> }) =>
    event.command[event.commandName] === AUDIT_OUTBOX ||
    seen.commands.push(`${event.commandName} ${String(event.command[event.commandName])}`);
  const client = bed.content.ctx.store.getClient();
  bed.content.server.on('request', onRequest);
  client.on('commandStarted', onCommand);
  try {
    await work();
  } finally {
    bed.content.server.off('request', onRequest);
    client.off('commandStarted', onCommand);
  }
  return seen;
}

const courseOf = (seeded: SeededCourse) =>
  bed.models.courses.findById(seeded.course.id).select({ learnerActivity: 1, published: 1 }).lean();

describe('POST /api/attempts asks the content service once', () => {
  it('with the service identity: a warm start costs content at most two store commands, and a passed submit reads the outline the same way', async () => {
    const seeded = await seedQuizCourse(bed);
    await firstVersionOf(seeded);
    const first = await bed.learner('CLIENT', 'Пётр Первый');
    const second = await bed.learner('CLIENT', 'Вера Вторая');
    expect((await start(first.token, seeded)).status).toBe(201);

    let started: ApiAnswer<Answer<StartedAttempt>> | undefined;
    const startSeen = await contentDuring(async () => {
      started = await start(second.token, seeded);
    });

    expect(started!.status).toBe(201);
    expect(startSeen.requests).toEqual([{ line: 'POST /internal/attempt-starts', userToken: false }]);
    expect(startSeen.commands.length).toBeLessThanOrEqual(2);
    const attempt = await bed.store.attempts.findById(started!.body.attempt.id).lean();
    expect(attempt).toMatchObject({ userId: second.user.id, courseVersion: 1, courseId: seeded.course.id });

    const answers = started!.body.questions.map((q) => ({
      questionId: q.id,
      answer: q.type === 'single_choice' ? q.options.indexOf('28') : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
    }));
    let submitted: ApiAnswer<AttemptDetail> | undefined;
    const submitSeen = await contentDuring(async () => {
      submitted = await api<AttemptDetail>(bed.progress.url, 'POST', `/api/attempts/${started!.body.attempt.id}/submit`, {
        token: second.token,
        body: { answers },
      });
    });
    expect(submitted!.body.status).toBe('passed');
    expect(submitSeen.requests).toEqual([{ line: `GET /internal/courses/${seeded.course.id}/outline`, userToken: false }]);
    expect(await bed.store.completions.exists({ userId: second.user.id, lessonId: seeded.quizLessonId })).toBeTruthy();
  });

  it('notes a first learner in the same call, and the course’s first version follows', async () => {
    const seeded = await seedQuizCourse(bed);
    const me = await bed.learner();
    const seen = await contentDuring(async () => expect((await start(me.token, seeded)).status).toBe(201));

    expect(seen.requests.map((r) => r.line)).toEqual(['POST /internal/attempt-starts']);
    expect((await courseOf(seeded))?.learnerActivity).toBe(true);
    await waitForVersion(bed, seeded.course.id);
  });

  it('a start refused after the content service answered (an empty quiz) notes no learner', async () => {
    const seeded = await seedQuizCourse(bed, { questions: [] });
    const me = await bed.learner();
    const refused = await start(me.token, seeded);

    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(PROGRESS_MSG.quizEmpty);
    expect(await courseOf(seeded)).toMatchObject({ learnerActivity: false });
    expect((await courseOf(seeded))?.published ?? null).toBeNull();
  });
});

describe('POST /api/attempts refuses as the learner’s own reads did', () => {
  it('a quiz of a course the learner cannot see (unpublished): 404 naming the course, nothing stored or noted', async () => {
    const seeded = await seedQuizCourse(bed);
    expect((await curatorCall('PATCH', `/api/courses/${seeded.course.id}`, { status: 'draft' })).status).toBe(200);
    const me = await bed.learner();
    const refused = await start(me.token, seeded);

    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(CONTENT_MSG.courseNotFound);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(0);
    expect(await courseOf(seeded)).toMatchObject({ learnerActivity: false });
  });

  it('an unknown quiz in a course the learner cannot see is told as an unknown quiz', async () => {
    const seeded = await seedQuizCourse(bed);
    await curatorCall('PATCH', `/api/courses/${seeded.course.id}`, { status: 'draft' });
    const refused = await start((await bed.learner()).token, seeded, { quizId: '64b7f0c2a1b2c3d4e5f60718' });

    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(QUIZ_MSG.quizNotFound);
  });

  it('a lesson a learner does not see (a draft) or of another course: 404 naming the lesson', async () => {
    const seeded = await seedQuizCourse(bed);
    const other = await seedQuizCourse(bed);
    const me = await bed.learner();
    const elsewhere = await start(me.token, seeded, { lessonId: other.quizLessonId });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe(PROGRESS_MSG.lessonNotFound);

    expect((await curatorCall('PATCH', `/api/blocks/${seeded.quizLessonId}`, { status: 'draft' })).status).toBe(200);
    const hidden = await start(me.token, seeded);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(PROGRESS_MSG.lessonNotFound);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('a quiz the lesson does not hold (another course’s quiz): 404, in a course with a published version too', async () => {
    const seeded = await seedQuizCourse(bed);
    const other = await seedQuizCourse(bed);
    const me = await bed.learner();
    const live = await start(me.token, seeded, { quizId: other.quiz.id });
    expect(live.status).toBe(404);
    expect(live.body.message).toBe(PROGRESS_MSG.quizNotInLesson);

    await firstVersionOf(seeded);
    const versioned = await start(me.token, seeded, { quizId: other.quiz.id });
    expect(versioned.status).toBe(404);
    expect(versioned.body.message).toBe(PROGRESS_MSG.quizNotInLesson);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(0);
  });
});

describe('POST /api/attempts on a course with a published version', () => {
  it('a quiz that draws from the bank of a published version: a warm start still costs content at most two store commands', async () => {
    const seeded = await seedQuizCourse(bed);
    const bank = `/api/courses/${seeded.course.id}/bank`;
    for (let i = 0; i < 4; i++) {
      const added = await api(bed.content.url, 'POST', bank, {
        token: bed.as.CURATOR.token,
        body: {
          tags: ['охрана труда'],
          question: { type: 'single_choice', question: `Банк ${i}`, options: ['Да', 'Нет'], correctAnswers: [0] },
        },
      });
      expect(added.status).toBe(201);
    }
    const drawing = await curatorCall('PATCH', `/api/quizzes/${seeded.quiz.id}`, { draws: [{ tag: 'охрана труда', count: 2 }] });
    expect(drawing.status).toBe(200);
    await firstVersionOf(seeded);
    expect((await start((await bed.learner()).token, seeded)).status).toBe(201);

    let started: ApiAnswer<Answer<StartedAttempt>> | undefined;
    const seen = await contentDuring(async () => {
      started = await start((await bed.learner()).token, seeded);
    });
    expect(started!.status).toBe(201);
    // The fixed questions and two drawn from the version's bank, whose snapshots this process keeps.
    expect(started!.body.questions.filter((q) => q.question.startsWith('Банк '))).toHaveLength(2);
    // Named in a failure: which commands a start sent.
    expect({ atMostTwo: seen.commands.length <= 2, commands: seen.commands }).toEqual({
      atMostTwo: true,
      commands: seen.commands,
    });
  });

  it('gives a learner the published quiz while the author edits the draft, and keeps that version', async () => {
    const seeded = await seedQuizCourse(bed);
    await firstVersionOf(seeded);
    const edited = SAMPLE_QUESTIONS.map((q) => ({ ...q, question: `Черновик: ${q.question}` }));
    expect((await curatorCall('PATCH', `/api/quizzes/${seeded.quiz.id}`, { questions: edited })).status).toBe(200);
    const me = await bed.learner();
    const started = await start(me.token, seeded);

    expect(started.status).toBe(201);
    const shown = started.body.questions.map((q) => q.question).sort();
    expect(shown).toEqual(SAMPLE_QUESTIONS.map((q) => q.question).sort());
    expect(await bed.store.attempts.findById(started.body.attempt.id).lean()).toMatchObject({ courseVersion: 1 });
    const version = await bed.models.versions.findOne({ courseId: seeded.course.id, number: 1 }).lean<{ pinned: boolean }>();
    expect(version?.pinned).toBe(true);
  });
});

describe("the learner's token never goes on to the content service", () => {
  it("a lesson completed, a course's progress and a certificate read the outline with the service identity", async () => {
    const seeded = await seedQuizCourse(bed);
    const me = await bed.learner();
    const courseId = seeded.course.id;
    const seen = await contentDuring(async () => {
      const done = await api(bed.progress.url, 'POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, {
        token: me.token,
        body: { courseId },
      });
      expect(done.status).toBe(201);
      expect((await api(bed.progress.url, 'GET', `/api/progress/course/${courseId}`, { token: me.token })).status).toBe(200);
      // Not complete yet: refused in Russian, after the outline was read.
      const certificate = await api(bed.progress.url, 'POST', '/api/certificates', { token: me.token, body: { courseId } });
      expect([certificate.status, certificate.body.message]).toEqual([400, CERTIFICATE_MSG.notCompleted]);
    });
    expect(seen.requests.length).toBeGreaterThanOrEqual(3);
    expect(seen.requests.filter((r) => r.userToken)).toEqual([]);
  });

  it('the quiz card is one call to the content service, with the service identity and the learner as data', async () => {
    const seeded = await seedQuizCourse(bed);
    const me = await bed.learner();
    const card = () =>
      api<Answer<QuizCard>>(bed.progress.url, 'GET', `/api/attempts/quiz/${seeded.quiz.id}`, { token: me.token });

    let shown: ApiAnswer<Answer<QuizCard>> | undefined;
    const seen = await contentDuring(async () => {
      shown = await card();
    });

    expect(shown!.status).toBe(200);
    expect(shown!.body).toMatchObject({ quiz: { id: seeded.quiz.id }, canStart: true });
    expect(seen.requests).toEqual([{ line: `GET /internal/quizzes/${seeded.quiz.id}`, userToken: false }]);
    // The quiz and its course; with no version published yet, the lessons holding it and the module of
    // the one the learner sees (each read once for both the learner's sight and the card).
    expect(seen.commands).toEqual(['find quizzes', 'find courses', 'find blocks', 'find blocks']);
  });

  it('the quiz card of a quiz in a course the learner cannot see, or in a lesson hidden from them, is 404 with nothing shown', async () => {
    const seeded = await seedQuizCourse(bed);
    const me = await bed.learner();
    const card = () =>
      api<Answer<QuizCard>>(bed.progress.url, 'GET', `/api/attempts/quiz/${seeded.quiz.id}`, { token: me.token });
    expect((await card()).status).toBe(200);

    expect((await curatorCall('PATCH', `/api/blocks/${seeded.quizLessonId}`, { status: 'draft' })).status).toBe(200);
    const hiddenLesson = await card();
    expect(hiddenLesson.status).toBe(404);
    expect(hiddenLesson.body.message).toBe(QUIZ_MSG.quizNotFound);

    expect((await curatorCall('PATCH', `/api/blocks/${seeded.quizLessonId}`, { status: 'published' })).status).toBe(200);
    expect((await curatorCall('PATCH', `/api/courses/${seeded.course.id}`, { status: 'draft' })).status).toBe(200);
    const unseen = await card();
    expect(unseen.status).toBe(404);
    expect(unseen.body).toEqual({ message: QUIZ_MSG.quizNotFound, statusCode: 404 });
    expect(JSON.stringify(unseen.body)).not.toContain(seeded.quiz.title);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(0);
  });
});
