import type { AttemptDetail, QuizCard, StartedAttempt } from '@portal/contracts';
import { api, isBackgroundCollection } from '@portal/devstack/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/**
 * What the quiz path costs progress's store (under an exam storm the store is the bound: docs/capacity.md):
 * the commands progress sends for a start, a resume, a save and a submit, counted with the driver's
 * command monitoring on progress's own connection. Real services, nothing mocked.
 */
let bed: ProgressTestBed;
let seeded: SeededCourse;
beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed);
});
afterAll(() => bed.close());

const start = (token: string, s: SeededCourse = seeded) =>
  api<StartedAttempt>(bed.progress.url, 'POST', '/api/attempts', {
    token,
    body: { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId },
  });
const save = (token: string, id: string, answers: unknown[]) =>
  api(bed.progress.url, 'PUT', `/api/attempts/${id}/answers`, { token, body: { answers } });
const submit = (token: string, id: string, answers: unknown[]) =>
  api<AttemptDetail>(bed.progress.url, 'POST', `/api/attempts/${id}/submit`, { token, body: { answers } });

const rightAnswers = (started: StartedAttempt) =>
  started.questions.map((q) => ({
    questionId: q.id,
    answer: q.type === 'single_choice' ? q.options.indexOf('28') : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
    timeSpent: 5,
  }));
const wrongAnswers = (started: StartedAttempt) =>
  started.questions.map((q) => ({ questionId: q.id, answer: q.type === 'true_false' ? 'false' : null, timeSpent: 3 }));

/**
 * The store commands progress sent while `work` ran, as `command collection`, a read with the fields
 * it filters on (`find attempts _id`): which question was asked, not only how many.
 */
async function commandsDuring<T>(work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const commands: string[] = [];
  const onCommand = (event: { commandName: string; command: Record<string, unknown> }) => {
    const collection = String(event.command[event.commandName]);
    if (isBackgroundCollection(collection)) return;
    const filter = event.commandName === 'find' ? (event.command.filter as Record<string, unknown> | undefined) : undefined;
    commands.push([event.commandName, collection, ...(filter ? [Object.keys(filter).join(',')] : [])].join(' '));
  };
  const client = bed.progress.ctx.store.getClient();
  client.on('commandStarted', onCommand);
  try {
    return { result: await work(), commands };
  } finally {
    client.off('commandStarted', onCommand);
  }
}

/**
 * The program lock's question (assertCourseOpen): the assignments that reach the learner and lock the
 * course. Its answer is kept under the assignments' version (docs/decisions/112): asked once per
 * learner and course, then not again until an assignment is written.
 */
const LOCK = expect.stringMatching(/^find program_assignments /);

/**
 * The claim (`closeKey`) a submit and a save take, one at a time with other submits and with saves, is
 * held in Redis (docs/decisions/101): the store sees only the work done under it. (In the store it
 * was an insert and a delete of a claim around the work, on every save.)
 */
const claimed = (...work: string[]) => work;
/** The submit's close: the attempt's conditional write, and its saved answers (its draft) gone with it. */
const CLOSE = claimed('update attempts', 'delete attempt_drafts');
/** The saved answers' small document (docs/decisions/099), read by the attempt's id. */
const DRAFT = 'find attempt_drafts _id';

describe('the quiz path asks progress’s store little (the store is the bound under an exam storm)', () => {
  it('a start asks for the learner’s attempts at the quiz and the program lock, then writes the attempt; a resume only reads, its saved answers too', async () => {
    const me = await bed.learner();
    const first = await commandsDuring(() => start(me.token));
    expect(first.result.status).toBe(201);
    // Was 7: the activity (2), the lock, the expiry, the open attempt, the tries, the write.
    expect(first.commands).toHaveLength(3);
    expect(first.commands).toEqual(expect.arrayContaining(['find attempts userId,quizId', LOCK, 'insert attempts']));

    const resumed = await commandsDuring(() => start(me.token));
    expect(resumed.result.body).toMatchObject({ resumed: true, attempt: { id: first.result.body.attempt.id } });
    // Was 5; the lock is kept since the first start.
    expect(resumed.commands).toEqual(expect.arrayContaining(['find attempts userId,quizId', DRAFT]));
    expect(resumed.commands).toHaveLength(2);

    await submit(me.token, first.result.body.attempt.id, wrongAnswers(first.result.body));
    const retake = await commandsDuring(() => start(me.token));
    expect(retake.result.body.attempt).toMatchObject({ attemptNumber: 2 });
    expect(retake.commands).toEqual(expect.arrayContaining(['find attempts userId,quizId', 'insert attempts']));
    expect(retake.commands).toHaveLength(2);
  });

  it('a start after an attempt’s time ran out closes it on its saved answers and counts it as a try', async () => {
    const timed = await seedQuizCourse(bed, { settings: { timeLimit: 10, maxAttempts: 2 } });
    const me = await bed.learner();
    const { body } = await start(me.token, timed);
    await save(me.token, body.attempt.id, rightAnswers(body));
    // Its clock moved back past the deadline, the grace and the saves' margin, as the expiry tests do.
    const a = (await bed.store.attempts.findById(body.attempt.id).lean())!;
    const back = (d: Date) => new Date(d.getTime() - 11 * 60_000);
    await bed.store.attempts.updateOne({ _id: a._id }, { $set: { startedAt: back(a.startedAt), deadline: back(a.deadline!) } });

    const next = await commandsDuring(() => start(me.token, timed));

    expect(next.result.body).toMatchObject({ resumed: false, attempt: { attemptNumber: 2 } });
    // The close: its saved answers read, the attempt written, the answers' draft deleted (the lock is
    // kept since the first start).
    expect(next.commands).toHaveLength(5);
    expect(next.commands).toEqual(
      expect.arrayContaining([
        'find attempts userId,quizId',
        'find attempt_drafts _id',
        'update attempts',
        'delete attempt_drafts',
        'insert attempts',
      ]),
    );
    expect(await bed.store.attempts.findById(body.attempt.id).lean()).toMatchObject({ status: 'passed', score: 3 });
    const third = await start(me.token, timed);
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ resumed: true, attempt: { attemptNumber: 2 } });
    await submit(me.token, third.body.attempt.id, wrongAnswers(third.body));
    // The expired attempt counts against the limit of two.
    expect((await start(me.token, timed)).status).toBe(409);
  });

  it('the quiz card reads the learner’s attempts once; one whose time ran out is closed first and shown as used', async () => {
    const timed = await seedQuizCourse(bed, { settings: { timeLimit: 10 } });
    const me = await bed.learner();
    const { body } = await start(me.token, timed);
    const card = () => api<QuizCard>(bed.progress.url, 'GET', `/api/attempts/quiz/${timed.quiz.id}`, { token: me.token });
    const open = await commandsDuring(card);
    expect(open.result.body).toMatchObject({ attemptsUsed: 0, inProgress: { id: body.attempt.id } });
    // Was 2: the expiry's own query before the card's.
    expect(open.commands).toEqual(['find attempts userId,quizId']);

    const a = (await bed.store.attempts.findById(body.attempt.id).lean())!;
    const back = (d: Date) => new Date(d.getTime() - 11 * 60_000);
    await bed.store.attempts.updateOne({ _id: a._id }, { $set: { startedAt: back(a.startedAt), deadline: back(a.deadline!) } });
    const expired = await commandsDuring(card);
    expect(expired.result.body).toMatchObject({ attemptsUsed: 1, inProgress: null, latest: { status: 'failed' } });
    expect(expired.commands).toContain('update attempts');
  });

  it('a save is one conditional write of the small draft under the submit’s claim; the first reads the attempt once to write it', async () => {
    const me = await bed.learner();
    const { body } = await start(me.token);
    const first = await commandsDuring(() => save(me.token, body.attempt.id, wrongAnswers(body)));
    expect(first.result.status).toBe(200);
    expect(first.commands).toEqual(claimed('update attempt_drafts', 'find attempts _id', 'update attempt_drafts'));
    const next = await commandsDuring(() => save(me.token, body.attempt.id, rightAnswers(body)));
    expect(next.result.status).toBe(200);
    // The attempt (its questions, about five times the answers' size) is neither read nor rewritten.
    expect(next.commands).toEqual(claimed('update attempt_drafts'));
  });

  it('a submit reads the attempt once and closes it with one write; a failed one asks once more whether to name the right answers; a passed one completes the lesson on what it holds', async () => {
    const me = await bed.learner();
    const { body: first } = await start(me.token);
    const failed = await commandsDuring(() => submit(me.token, first.attempt.id, wrongAnswers(first)));
    expect(failed.result.body).toMatchObject({ status: 'failed', score: 0 });
    // Was 6: the attempt was read again after the write.
    expect(failed.commands).toEqual(['find attempts _id', ...CLOSE, 'find attempts userId,quizId,status']);
    expect(await bed.store.attempts.findById(first.attempt.id).lean()).toMatchObject({ status: 'failed', score: 0 });

    const { body: second } = await start(me.token);
    const passed = await commandsDuring(() => submit(me.token, second.attempt.id, rightAnswers(second)));
    expect(passed.result.body).toMatchObject({ status: 'passed', score: 3 });
    // Then the lesson's completion (completeLesson), handed the pass: the completion's write and the
    // course's progress (its completions, its attempts, whether it was completed before); the program
    // lock is kept since the starts. The completions are read before the write and again after it, so
    // that another lesson of the course completed at the same moment counts. Was 13: the lesson's
    // attempts read again, the learner's activity (two questions), the completion read back, the lock.
    expect(passed.commands).toHaveLength(8);
    expect(passed.commands.slice(0, 3)).toEqual(['find attempts _id', ...CLOSE]);
    expect(passed.commands.slice(3)).toEqual(
      expect.arrayContaining([
        'find completions userId,courseId,lessonId',
        'update completions',
        'find completions userId,courseId,lessonId',
        'find attempts userId,courseId',
        'find course_completions userId,courseId',
      ]),
    );
    expect(await bed.store.completions.exists({ userId: me.user.id, lessonId: seeded.quizLessonId })).toBeTruthy();
  });
});
