import {
  MSG,
  PROGRESS_MSG,
  QUIZ_MSG,
  type AttemptDetail,
  type AuthResponse,
  type QuizCard,
  type StartedAttempt,
  invalidIdMessage,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { question, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

let bed: ProgressTestBed;
let seeded: SeededCourse;
beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed);
});
afterAll(() => bed.close());

/** An answer of ours: the body, or the refusal's message and field. */
type Answer<T> = T & { message?: string; field?: string };
const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body });
const start = (token: string, s: SeededCourse = seeded) =>
  call<StartedAttempt>('POST', '/api/attempts', token, { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId });
const submit = (token: string, id: string, answers: unknown[]) =>
  call<AttemptDetail>('POST', `/api/attempts/${id}/submit`, token, { answers });

/** The answers, in the order the attempt showed the options, that get the sample quiz all right. */
function rightAnswers(started: StartedAttempt) {
  return started.questions.map((q) => {
    if (q.type === 'single_choice') return { questionId: q.id, answer: q.options.indexOf('28'), timeSpent: 12 };
    if (q.type === 'true_false') return { questionId: q.id, answer: 'true', timeSpent: 5 };
    return { questionId: q.id, answer: ' трудовой КОДЕКС ', timeSpent: 20 };
  });
}
const wrongAnswers = (started: StartedAttempt) =>
  started.questions.map((q) => ({ questionId: q.id, answer: q.type === 'true_false' ? 'false' : null, timeSpent: 3 }));

describe('POST /api/attempts (start)', () => {
  it('answers 401 without a token and 403 to course authors', async () => {
    expect((await call('POST', '/api/attempts', undefined, { quizId: seeded.quiz.id })).status).toBe(401);
    for (const role of ['ADMIN', 'CURATOR'] as const) {
      const refused = await start(bed.as[role].token);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
    }
    expect(await bed.store.attempts.countDocuments({})).toBe(0);
  });

  it('answers 400 naming the missing field', async () => {
    const me = await bed.learner();
    const noQuiz = await call('POST', '/api/attempts', me.token, { courseId: seeded.course.id, lessonId: seeded.quizLessonId });
    expect(noQuiz.status).toBe(400);
    expect(noQuiz.body).toMatchObject({ field: 'quizId', message: 'Укажите квиз (quizId)' });
    const noLesson = await call('POST', '/api/attempts', me.token, { quizId: seeded.quiz.id, courseId: seeded.course.id });
    expect(noLesson.body).toMatchObject({
      field: 'lessonId',
      message: invalidIdMessage('lessonId'),
    });
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('answers 404 for an unknown quiz, or a quiz the named lesson does not hold', async () => {
    const me = await bed.learner();
    const unknown = await call('POST', '/api/attempts', me.token, {
      quizId: '64b7f0c2a1b2c3d4e5f60718',
      courseId: seeded.course.id,
      lessonId: seeded.quizLessonId,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(QUIZ_MSG.quizNotFound);
    const wrongLesson = await call('POST', '/api/attempts', me.token, {
      quizId: seeded.quiz.id,
      courseId: seeded.course.id,
      lessonId: seeded.textLessonId,
    });
    expect(wrongLesson.status).toBe(404);
    expect(wrongLesson.body.message).toBe(PROGRESS_MSG.quizNotInLesson);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('records startedAt and attempt 1, and sends the questions without a single correct answer', async () => {
    const me = await bed.learner('CLIENT', 'Ольга Иванова');
    const before = Date.now();
    const answer = await start(me.token);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      resumed: false,
      deadline: null,
      quiz: {
        id: seeded.quiz.id,
        title: seeded.quiz.title,
        questionsCount: 3,
        passingScore: 70,
        maxAttempts: 3,
        timeLimit: null,
      },
      attempt: {
        attemptNumber: 1,
        status: 'in_progress',
        userName: 'Ольга Иванова',
        courseTitle: seeded.course.title,
        quizTitle: seeded.quiz.title,
      },
    });
    expect(answer.body.questions.map((q) => q.id).sort()).toEqual(['q1', 'q2', 'q3']);
    const text = JSON.stringify(answer.body);
    for (const secret of ['correctAnswer', 'Трудовой кодекс', 'explanation', 'Статья 115']) expect(text).not.toContain(secret);

    const stored = await bed.store.attempts.findById(answer.body.attempt.id).lean();
    expect(stored).toMatchObject({
      userId: me.user.id,
      attemptNumber: 1,
      status: 'in_progress',
      lessonId: seeded.quizLessonId,
      courseId: seeded.course.id,
    });
    expect(stored!.startedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('resumes the unfinished attempt instead of spending another (same questions, same number)', async () => {
    const me = await bed.learner();
    const first = await start(me.token);
    const again = await start(me.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ resumed: true, attempt: { id: first.body.attempt.id, attemptNumber: 1 } });
    expect(again.body.questions).toEqual(first.body.questions);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(1);
  });

  it('two starts at once make one attempt', async () => {
    const me = await bed.learner();
    const both = await Promise.all([start(me.token), start(me.token)]);
    expect(new Set(both.map((a) => a.body.attempt.id)).size).toBe(1);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(1);
  });
});

describe('POST /api/attempts/{id}/submit (graded on the server)', () => {
  it('answers 401, 403, 400 for a malformed answer, and 404 for someone else’s attempt', async () => {
    const me = await bed.learner();
    const { body } = await start(me.token);
    const id = body.attempt.id;
    expect((await call('POST', `/api/attempts/${id}/submit`, undefined, { answers: [] })).status).toBe(401);
    expect((await submit(bed.as.CURATOR.token, id, [])).status).toBe(403);
    const bad = await submit(me.token, id, [{ questionId: 'q1', answer: { nested: { deep: true } } }]);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('answers.0.answer');
    const outOfRange = await submit(me.token, id, [{ questionId: 'q1', answer: 7 }]);
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.field).toBe('answers.0.answer');
    const stranger = await bed.learner();
    const foreign = await submit(stranger.token, id, []);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(PROGRESS_MSG.attemptNotFound);
    expect(await bed.store.attempts.findById(id).lean()).toMatchObject({ status: 'in_progress', answers: [] });
  });

  it('grades a pass: score, rounded percentage, per-question results, and completes the lesson', async () => {
    const me = await bed.learner();
    const { body: started } = await start(me.token);
    const result = await submit(me.token, started.attempt.id, rightAnswers(started));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      status: 'passed',
      score: 3,
      maxScore: 3,
      percentage: 100,
      questionsRevealed: true,
      lateAnswers: 0,
    });
    const q1 = result.body.questions.find((q) => q.questionId === 'q1')!;
    expect(q1).toMatchObject({
      isCorrect: true,
      answerText: '28',
      correctAnswerText: null,
      explanation: 'Статья 115 ТК РФ',
      timeSpent: expect.any(Number),
    });

    const stored = await bed.store.attempts.findById(started.attempt.id).lean();
    expect(stored).toMatchObject({ status: 'passed', score: 3, percentage: 100, completedAt: expect.any(Date) });
    expect(stored!.answers.find((a) => a.questionId === 'q1')).toMatchObject({ answer: 1, isCorrect: true });
    expect(await bed.store.completions.countDocuments({ userId: me.user.id, lessonId: seeded.quizLessonId })).toBe(1);
  });

  it('grades a fail, naming no right answer on a first attempt (the default); a second submit answers the same result', async () => {
    const me = await bed.learner();
    const { body: started } = await start(me.token);
    const result = await submit(me.token, started.attempt.id, wrongAnswers(started));
    expect(result.body).toMatchObject({ status: 'failed', score: 0, maxScore: 3, percentage: 0 });
    expect(result.body.correctAnswersRevealed).toBe(false);
    expect(result.body.questions.find((q) => q.questionId === 'q2')).toMatchObject({
      isCorrect: false,
      answerText: 'Неверно',
      correctAnswerText: null,
    });
    expect(result.body.questions.find((q) => q.questionId === 'q3')).toMatchObject({
      answerText: null,
      correctAnswerText: null,
    });
    const again = await submit(me.token, started.attempt.id, rightAnswers(started));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'failed', score: 0 });
    expect(await bed.store.completions.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('two submits at once with different answers (two tabs): both are told the one result that is stored', async () => {
    const me = await bed.learner();
    const { body: started } = await start(me.token);
    const both = await Promise.all([
      submit(me.token, started.attempt.id, rightAnswers(started)),
      submit(me.token, started.attempt.id, wrongAnswers(started)),
    ]);
    const stored = await bed.store.attempts.findById(started.attempt.id).lean();
    for (const answer of both) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: stored!.status, score: stored!.score });
    }
    const passed = stored!.status === 'passed' ? 1 : 0;
    expect(await bed.store.completions.countDocuments({ userId: me.user.id })).toBe(passed);
  });
});

describe('attempt limits', () => {
  it('refuses an attempt beyond maxAttempts and numbers the ones before', async () => {
    const limited = await seedQuizCourse(bed, { settings: { maxAttempts: 2 } });
    const me = await bed.learner();
    for (const n of [1, 2]) {
      const { body } = await start(me.token, limited);
      expect(body.attempt.attemptNumber).toBe(n);
      await submit(me.token, body.attempt.id, wrongAnswers(body));
    }
    const refused = await start(me.token, limited);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Попытки закончились: использовано 2 из 2');
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id, quizId: limited.quiz.id })).toBe(2);
    const card = await call<QuizCard>('GET', `/api/attempts/quiz/${limited.quiz.id}`, me.token);
    expect(card.body).toMatchObject({
      attemptsUsed: 2,
      canStart: false,
      blockedReason: 'Попытки закончились: использовано 2 из 2',
      latest: { attemptNumber: 2, status: 'failed' },
    });
  });

  it('with a single attempt, a pass is final', async () => {
    const once = await seedQuizCourse(bed, { settings: { maxAttempts: 1 } });
    const me = await bed.learner();
    const { body } = await start(me.token, once);
    await submit(me.token, body.attempt.id, rightAnswers(body));
    const refused = await start(me.token, once);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(PROGRESS_MSG.alreadyPassed);
    const card = await call<QuizCard>('GET', `/api/attempts/quiz/${once.quiz.id}`, me.token);
    expect(card.body).toMatchObject({
      canStart: false,
      blockedReason: PROGRESS_MSG.alreadyPassed,
      latest: { status: 'passed', percentage: 100 },
    });
  });

  it('after a pass with attempts left, another attempt may start', async () => {
    const me = await bed.learner();
    const { body } = await start(me.token);
    await submit(me.token, body.attempt.id, rightAnswers(body));
    const next = await start(me.token);
    expect(next.status).toBe(201);
    expect(next.body.attempt.attemptNumber).toBe(2);
  });

  it('refuses to start a quiz without questions', async () => {
    const empty = await seedQuizCourse(bed, { questions: [] });
    const me = await bed.learner();
    const refused = await start(me.token, empty);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(PROGRESS_MSG.quizEmpty);
  });
});

describe('time limit', () => {
  let timed: SeededCourse;
  let me: AuthResponse;
  beforeAll(async () => {
    timed = await seedQuizCourse(bed, { settings: { timeLimit: 10 } });
  });
  beforeEach(async () => {
    me = await bed.learner();
  });
  /** Moves an attempt's clock back, as if it had started `seconds` earlier. */
  const age = async (id: string, seconds: number) => {
    const a = (await bed.store.attempts.findById(id).lean())!;
    await bed.store.attempts.updateOne(
      { _id: a._id },
      {
        $set: {
          startedAt: new Date(a.startedAt.getTime() - seconds * 1000),
          deadline: new Date(a.deadline!.getTime() - seconds * 1000),
        },
      },
    );
  };

  it('sets the deadline from the time limit in minutes', async () => {
    const { body } = await start(me.token, timed);
    expect(new Date(body.deadline!).getTime() - new Date(body.attempt.startedAt).getTime()).toBe(10 * 60_000);
    expect(body.quiz.timeLimit).toBe(10);
  });

  it('accepts answers within the small grace after the deadline', async () => {
    const { body } = await start(me.token, timed);
    await age(body.attempt.id, 10 * 60 + 2);
    const result = await submit(me.token, body.attempt.id, rightAnswers(body));
    expect(result.body).toMatchObject({ status: 'passed', score: 3, lateAnswers: 0 });
  });

  it('counts answers past the deadline and its grace as unanswered', async () => {
    const { body } = await start(me.token, timed);
    await age(body.attempt.id, 10 * 60 + 30);
    const result = await submit(me.token, body.attempt.id, rightAnswers(body));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'failed', score: 0, percentage: 0, lateAnswers: 3 });
    expect(result.body.questions.every((q) => q.answerText === null && !q.isCorrect)).toBe(true);
    const stored = (await bed.store.attempts.findById(body.attempt.id).lean())!;
    expect(stored.completedAt!.getTime()).toBe(stored.deadline!.getTime());
    expect(stored.answers.every((a) => a.late && !a.isCorrect)).toBe(true);
  });

  it('a learner who closed the player resumes the same attempt, with its questions and its deadline, until time runs out', async () => {
    const { body: first } = await start(me.token, timed);
    await age(first.attempt.id, 3 * 60);
    const card = await call<QuizCard>('GET', `/api/attempts/quiz/${timed.quiz.id}`, me.token);
    const deadline = (await bed.store.attempts.findById(first.attempt.id).lean())!.deadline!.toISOString();
    expect(card.body).toMatchObject({ attemptsUsed: 0, inProgress: { id: first.attempt.id, deadline }, canStart: true });

    const again = await start(me.token, timed);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ resumed: true, deadline, attempt: { id: first.attempt.id, attemptNumber: 1 } });
    expect(again.body.questions).toEqual(first.questions);
    // Seven of the ten minutes are left, on the server's clock.
    const left = new Date(again.body.deadline!).getTime() - new Date(again.body.serverNow).getTime();
    expect(left).toBeGreaterThan(6.9 * 60_000);
    expect(left).toBeLessThanOrEqual(7 * 60_000);
    expect(await bed.store.attempts.countDocuments({ userId: me.user.id })).toBe(1);
  });

  it('the card shows the best result: an attempt abandoned after a pass never hides the pass', async () => {
    const twice = await seedQuizCourse(bed, { settings: { timeLimit: 10, maxAttempts: 2 } });
    const { body: passed } = await start(me.token, twice);
    await submit(me.token, passed.attempt.id, rightAnswers(passed));
    const { body: abandoned } = await start(me.token, twice);
    await age(abandoned.attempt.id, 11 * 60);

    const card = await call<QuizCard>('GET', `/api/attempts/quiz/${twice.quiz.id}`, me.token);
    expect(card.body).toMatchObject({
      attemptsUsed: 2,
      latest: { id: abandoned.attempt.id, status: 'failed', percentage: 0 },
      best: { id: passed.attempt.id, status: 'passed', percentage: 100 },
      inProgress: null,
      canStart: false,
      blockedReason: 'Попытки закончились: использовано 2 из 2',
    });
  });

  it('closes an abandoned attempt once its time is up, so the next start is a new attempt', async () => {
    const { body } = await start(me.token, timed);
    await age(body.attempt.id, 11 * 60);
    const next = await start(me.token, timed);
    expect(next.status).toBe(201);
    expect(next.body.attempt.attemptNumber).toBe(2);
    expect(await bed.store.attempts.findById(body.attempt.id).lean()).toMatchObject({ status: 'failed', score: 0 });
  });
});

describe('GET /api/attempts/quiz/{quizId} (the quiz card)', () => {
  it('answers 401, 403, 400 and 404', async () => {
    expect((await call('GET', `/api/attempts/quiz/${seeded.quiz.id}`)).status).toBe(401);
    expect((await call('GET', `/api/attempts/quiz/${seeded.quiz.id}`, bed.as.ADMIN.token)).status).toBe(403);
    expect((await call('GET', `/api/attempts/quiz/${encodeURIComponent('не id!')}`, bed.as.CANDIDATE.token)).status).toBe(400);
    const unknown = await call('GET', '/api/attempts/quiz/64b7f0c2a1b2c3d4e5f60718', bed.as.CANDIDATE.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(QUIZ_MSG.quizNotFound);
  });

  it('shows the quiz without answers and no attempt before the first, then the latest and an open one', async () => {
    const me = await bed.learner();
    const fresh = await call<QuizCard>('GET', `/api/attempts/quiz/${seeded.quiz.id}`, me.token);
    expect(fresh.body).toEqual({
      quiz: {
        id: seeded.quiz.id,
        title: seeded.quiz.title,
        description: 'Проверка знаний',
        questionsCount: 3,
        passingScore: 70,
        maxAttempts: 3,
        timeLimit: null,
        showExplanations: 'after_submission',
        showCorrectAnswers: 'after_pass_or_last',
      },
      attemptsUsed: 0,
      latest: null,
      best: null,
      inProgress: null,
      canStart: true,
      blockedReason: null,
    });
    const { body } = await start(me.token);
    await submit(me.token, body.attempt.id, wrongAnswers(body));
    const { body: second } = await start(me.token);
    const card = await call<QuizCard>('GET', `/api/attempts/quiz/${seeded.quiz.id}`, me.token);
    expect(card.body).toMatchObject({
      attemptsUsed: 1,
      latest: { id: body.attempt.id, status: 'failed' },
      inProgress: { id: second.attempt.id, deadline: null },
      canStart: true,
    });
  });
});

describe('GET /api/attempts/{id}', () => {
  it('answers 401 and 400; another learner’s attempt is 404, staff see it', async () => {
    const me = await bed.learner();
    const { body } = await start(me.token);
    await submit(me.token, body.attempt.id, rightAnswers(body));
    expect((await call('GET', `/api/attempts/${body.attempt.id}`)).status).toBe(401);
    expect((await call('GET', `/api/attempts/${encodeURIComponent('плохой!')}`, me.token)).status).toBe(400);
    expect((await call('GET', `/api/attempts/${body.attempt.id}`, (await bed.learner()).token)).status).toBe(404);
    const mine = await call<AttemptDetail>('GET', `/api/attempts/${body.attempt.id}`, me.token);
    expect(mine.body).toMatchObject({
      id: body.attempt.id,
      status: 'passed',
      questions: expect.arrayContaining([expect.objectContaining({ questionId: 'q1', isCorrect: true })]),
    });
    for (const role of ['ADMIN', 'CURATOR'] as const) {
      expect((await call('GET', `/api/attempts/${body.attempt.id}`, bed.as[role].token)).body).toMatchObject({
        id: body.attempt.id,
        userId: me.user.id,
      });
    }
  });

  it('a curator who neither owns nor co-authors the course gets 404 and none of the answers', async () => {
    const me = await bed.learner();
    const { body } = await start(me.token);
    await submit(me.token, body.attempt.id, rightAnswers(body));
    const other = await userWithRole(bed.auth, 'CURATOR', 'Ольга Сторонняя');
    const answer = await call('GET', `/api/attempts/${body.attempt.id}`, other.token);
    expect(answer).toMatchObject({ status: 404, body: { message: PROGRESS_MSG.attemptNotFound } });
    expect(JSON.stringify(answer.body)).not.toMatch(/кодекс/i);
  });

  it('keeps per-question results from the learner until the course is completed when the quiz says after_course', async () => {
    const later = await seedQuizCourse(bed, {
      settings: { showExplanations: 'after_course', showCorrectAnswers: 'after_each_attempt' },
      questions: [question({ id: 'only', type: 'true_false', correctAnswer: 'true', explanation: 'потому что' })],
    });
    const me = await bed.learner();
    const { body } = await call<StartedAttempt>('POST', '/api/attempts', me.token, {
      quizId: later.quiz.id,
      courseId: later.course.id,
      lessonId: later.quizLessonId,
    });
    const result = await submit(me.token, body.attempt.id, [{ questionId: 'only', answer: 'false' }]);
    expect(result.body).toMatchObject({ status: 'failed', questionsRevealed: false, questions: [] });
    expect(JSON.stringify(result.body)).not.toContain('потому что');
    const staff = await call<AttemptDetail>('GET', `/api/attempts/${body.attempt.id}`, bed.as.CURATOR.token);
    expect(staff.body).toMatchObject({
      questionsRevealed: true,
      questions: [expect.objectContaining({ explanation: 'потому что' })],
    });
    // Completing the course (its text lesson, and its quiz passed at the next attempt) reveals them.
    await call('POST', `/api/progress/lesson/${later.textLessonId}/complete`, me.token, { courseId: later.course.id });
    const next = await call<StartedAttempt>('POST', '/api/attempts', me.token, {
      quizId: later.quiz.id,
      courseId: later.course.id,
      lessonId: later.quizLessonId,
    });
    expect((await submit(me.token, next.body.attempt.id, [{ questionId: 'only', answer: 'true' }])).body.status).toBe('passed');
    const after = await call<AttemptDetail>('GET', `/api/attempts/${body.attempt.id}`, me.token);
    expect(after.body).toMatchObject({
      questionsRevealed: true,
      questions: [expect.objectContaining({ explanation: 'потому что', correctAnswerText: 'Верно' })],
    });
  });
});

describe('authors previewing a course as a learner', () => {
  it('write nothing: starting and submitting attempts and completing lessons are refused, and nothing is stored', async () => {
    for (const role of ['ADMIN', 'CURATOR'] as const) {
      const { token, user } = bed.as[role];
      const started = await start(token);
      expect(started.status).toBe(403);
      expect(started.body.message).toBe(MSG.forbidden);
      const completed = await call('POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, token, {
        courseId: seeded.course.id,
      });
      expect(completed.status).toBe(403);
      expect(await bed.store.attempts.countDocuments({ userId: user.id })).toBe(0);
      expect(await bed.store.completions.countDocuments({ userId: user.id })).toBe(0);
      expect(await bed.store.courseCompletions.countDocuments({ userId: user.id })).toBe(0);
    }
  });
});
