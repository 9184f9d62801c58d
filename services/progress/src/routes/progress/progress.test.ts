import {
  MSG,
  PROGRESS_MSG,
  type AuditEvent,
  type CourseProgress,
  type LessonCompleteResult,
  invalidIdMessage,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { question, seedQuizCourse, startProgress, takeSampleQuiz, type ProgressTestBed, type SeededCourse } from '../../testing';

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
const complete = (lessonId: string, token: string, courseId = seeded.course.id) =>
  call<LessonCompleteResult>('POST', `/api/progress/lesson/${lessonId}/complete`, token, { courseId });

async function auditEvents(entityId: string): Promise<AuditEvent[]> {
  await bed.progress.ctx.audit.flush();
  const jobs = await bed.progress.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs.map((j) => j.data as AuditEvent).filter((e) => e.entityId === entityId);
}

describe('POST /api/progress/lesson/{lessonId}/complete', () => {
  it('answers 401 without a token and 403 to course authors', async () => {
    expect(
      (await call('POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, undefined, { courseId: seeded.course.id }))
        .status,
    ).toBe(401);
    for (const role of ['ADMIN', 'CURATOR'] as const) {
      const refused = await complete(seeded.textLessonId, bed.as[role].token);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
      expect(await bed.store.completions.countDocuments({ userId: bed.as[role].user.id })).toBe(0);
    }
  });

  it('answers 400 naming the field for a missing or malformed course id, and for a malformed lesson id', async () => {
    const me = await bed.learner();
    const missing = await call('POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, me.token, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      field: 'courseId',
      message: invalidIdMessage('courseId'),
    });
    const badLesson = await complete(encodeURIComponent('no such lesson!'), me.token);
    expect(badLesson.status).toBe(400);
    expect(badLesson.body.message).toBe(invalidIdMessage('lessonId'));
    expect(await bed.store.completions.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('answers 404 for a lesson outside the course and a course the learner cannot see', async () => {
    const me = await bed.learner();
    const other = await seedQuizCourse(bed);
    const elsewhere = await complete(other.textLessonId, me.token);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe(PROGRESS_MSG.lessonNotFound);
    const draft = await api(bed.content.url, 'POST', '/api/courses', {
      token: bed.as.CURATOR.token,
      body: { title: 'Черновик' },
    });
    const hidden = await complete(seeded.textLessonId, me.token, draft.body.id);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Курс не найден');
    expect(await bed.store.completions.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('completes a lesson once: 201, then 200 with nothing changed, one record and one audit event', async () => {
    const me = await bed.learner('CLIENT');
    const first = await complete(seeded.textLessonId, me.token);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ lessonId: seeded.textLessonId, courseId: seeded.course.id, created: true });
    expect(first.body.progress).toMatchObject({
      totalLessons: 2,
      completedLessons: 1,
      percentage: 50,
      isCompleted: false,
      completedLessonIds: [seeded.textLessonId],
    });

    const again = await complete(seeded.textLessonId, me.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, completedAt: first.body.completedAt });
    expect(await bed.store.completions.countDocuments({ userId: me.user.id, lessonId: seeded.textLessonId })).toBe(1);

    const events = (await auditEvents(seeded.textLessonId)).filter((e) => e.actor?.id === me.user.id);
    expect(events).toEqual([
      expect.objectContaining({ action: 'create', entity: 'progress', details: expect.stringContaining('Введение') }),
    ]);
  });

  it('completing two at once still gives one record', async () => {
    const me = await bed.learner();
    const answers = await Promise.all([complete(seeded.textLessonId, me.token), complete(seeded.textLessonId, me.token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(await bed.store.completions.countDocuments({ userId: me.user.id })).toBe(1);
  });

  it('the last lesson completes the course: a course-completion record the dashboard counts, written once', async () => {
    const me = await bed.learner();
    await complete(seeded.textLessonId, me.token);
    await takeSampleQuiz(bed, me.token, seeded); // the pass completes the quiz's lesson
    const last = await complete(seeded.quizLessonId, me.token);
    expect(last.status).toBe(200);
    expect(last.body.progress).toMatchObject({
      completedLessons: 2,
      percentage: 100,
      isCompleted: true,
      completedAt: expect.any(String),
    });
    expect(last.body.progress.modules).toEqual([
      { moduleId: seeded.course.modules[0].id, totalLessons: 2, completedLessons: 2, isCompleted: true },
    ]);
    await complete(seeded.quizLessonId, me.token);
    const stored = await bed.store.courseCompletions.find({ userId: me.user.id }).lean();
    expect(stored).toEqual([
      expect.objectContaining({
        courseId: seeded.course.id,
        courseTitle: seeded.course.title,
        completedAt: new Date(last.body.progress.completedAt!),
      }),
    ]);
    const events = (await auditEvents(seeded.course.id)).filter((e) => e.actor?.id === me.user.id);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'progress',
        details: `Курс «${seeded.course.title}» пройден полностью`,
      }),
    ]);
  });
});

describe('GET /api/progress/course/{courseId} and /lessons', () => {
  it('answers 401, 403 and 400', async () => {
    expect((await call('GET', `/api/progress/course/${seeded.course.id}`)).status).toBe(401);
    expect((await call('GET', `/api/progress/course/${seeded.course.id}/lessons`)).status).toBe(401);
    expect((await call('GET', `/api/progress/course/${seeded.course.id}`, bed.as.ADMIN.token)).status).toBe(403);
    expect((await call('GET', `/api/progress/course/${seeded.course.id}/lessons`, bed.as.CURATOR.token)).status).toBe(403);
    const bad = await call('GET', `/api/progress/course/${encodeURIComponent('плохой id')}`, bed.as.CANDIDATE.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(invalidIdMessage('courseId'));
    expect(
      (await call('GET', `/api/progress/course/${encodeURIComponent('плохой id')}/lessons`, bed.as.CANDIDATE.token)).status,
    ).toBe(400);
  });

  it('gives the learner’s own progress: 0 of 2 before, 1 of 2 after, and the completed-lesson records', async () => {
    const me = await bed.learner();
    const before = await call<CourseProgress>('GET', `/api/progress/course/${seeded.course.id}`, me.token);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      courseId: seeded.course.id,
      totalLessons: 2,
      completedLessons: 0,
      percentage: 0,
      completedLessonIds: [],
      isCompleted: false,
      completedAt: null,
    });
    await takeSampleQuiz(bed, me.token, seeded);
    const someoneElse = await bed.learner();
    await complete(seeded.textLessonId, someoneElse.token);
    const after = await call<CourseProgress>('GET', `/api/progress/course/${seeded.course.id}`, me.token);
    expect(after.body).toMatchObject({ completedLessons: 1, percentage: 50, completedLessonIds: [seeded.quizLessonId] });
    const records = await call('GET', `/api/progress/course/${seeded.course.id}/lessons`, me.token);
    expect(records.status).toBe(200);
    expect(records.body).toEqual([
      { lessonId: seeded.quizLessonId, courseId: seeded.course.id, completedAt: expect.any(String) },
    ]);
  });
});

describe('GET /api/progress/my', () => {
  it('answers 401 and 403', async () => {
    expect((await call('GET', '/api/progress/my')).status).toBe(401);
    expect((await call('GET', '/api/progress/my', bed.as.CURATOR.token)).status).toBe(403);
  });

  it('answers only the caller’s own completed lessons, grouped by course, with the course’s completion', async () => {
    const me = await bed.learner('MANAGER');
    await complete(seeded.textLessonId, me.token);
    await takeSampleQuiz(bed, me.token, seeded);
    const other = await bed.learner();
    await complete(seeded.textLessonId, other.token);
    const answer = await call('GET', '/api/progress/my', me.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1);
    expect(answer.body[0]).toMatchObject({ courseId: seeded.course.id, isCompleted: true, completedAt: expect.any(String) });
    expect([...answer.body[0].completedLessons].sort()).toEqual([seeded.textLessonId, seeded.quizLessonId].sort());
  });
});

describe('one rule of completion: a lesson with a quiz is complete when its quiz is passed', () => {
  it('«Завершить урок» is 409 in Russian before the pass and stores nothing; the course is not 100 % and no certificate is issued', async () => {
    const me = await bed.learner();
    await complete(seeded.textLessonId, me.token);
    const early = await complete(seeded.quizLessonId, me.token);
    expect(early).toMatchObject({ status: 409, body: { message: PROGRESS_MSG.lessonNeedsQuiz } });
    expect(await bed.store.completions.countDocuments({ userId: me.user.id, lessonId: seeded.quizLessonId })).toBe(0);

    await takeSampleQuiz(bed, me.token, seeded, false);
    const failed = await call<CourseProgress>('GET', `/api/progress/course/${seeded.course.id}`, me.token);
    expect(failed.body).toMatchObject({
      completedLessonIds: [seeded.textLessonId],
      percentage: 50,
      isCompleted: false,
      awaitingReviewLessonIds: [],
      attemptedLessonIds: [seeded.quizLessonId],
    });
    expect((await complete(seeded.quizLessonId, me.token)).status).toBe(409);
    const refused = await call('POST', '/api/certificates', me.token, { courseId: seeded.course.id });
    expect(refused.status).toBe(400);
    expect(await bed.store.courseCompletions.countDocuments({ userId: me.user.id })).toBe(0);

    await takeSampleQuiz(bed, me.token, seeded, true);
    const passed = await call<CourseProgress>('GET', `/api/progress/course/${seeded.course.id}`, me.token);
    expect(passed.body).toMatchObject({ percentage: 100, isCompleted: true, attemptedLessonIds: [] });
    expect((await call('POST', '/api/certificates', me.token, { courseId: seeded.course.id })).status).toBe(201);
  });

  it('while an answer awaits grading the lesson is «ожидает проверки», not complete; a passing grade completes it and the course', async () => {
    const course = await seedQuizCourse(bed, {
      questions: [question({ id: 'la', type: 'long_answer', question: 'Опишите порядок эвакуации' })],
      settings: { passingScore: 100 },
    });
    const me = await bed.learner();
    await complete(course.textLessonId, me.token, course.course.id);
    const started = await call('POST', '/api/attempts', me.token, {
      quizId: course.quiz.id,
      courseId: course.course.id,
      lessonId: course.quizLessonId,
    });
    const attemptId = started.body.attempt.id as string;
    await call('POST', `/api/attempts/${attemptId}/submit`, me.token, { answers: [{ questionId: 'la', answer: 'По плану' }] });
    const waiting = await call<CourseProgress>('GET', `/api/progress/course/${course.course.id}`, me.token);
    expect(waiting.body).toMatchObject({
      completedLessonIds: [course.textLessonId],
      isCompleted: false,
      awaitingReviewLessonIds: [course.quizLessonId],
      attemptedLessonIds: [],
    });
    const early = await complete(course.quizLessonId, me.token, course.course.id);
    expect(early).toMatchObject({ status: 409, body: { message: PROGRESS_MSG.lessonNeedsReview } });

    const graded = await call('POST', `/api/reviews/${attemptId}/la`, bed.as.CURATOR.token, { score: 1 });
    expect(graded.status).toBe(200);
    const done = await call<CourseProgress>('GET', `/api/progress/course/${course.course.id}`, me.token);
    expect(done.body).toMatchObject({
      isCompleted: true,
      percentage: 100,
      awaitingReviewLessonIds: [],
      completedAt: expect.any(String),
    });
  });
});
