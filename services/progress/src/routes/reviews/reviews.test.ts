import type { AttemptDetail, CourseProgress, NotificationPage, ResultsPage, ReviewPage, StartedAttempt } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { question, seedQuizCourse, startProgress, type ProgressTestBed } from '../../testing';

/** «Проверка ответов» (docs/decisions/033): rights, states and the score counted again. */
let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.progress.url, method, path, { token, body });

const QUESTIONS = [
  question({
    id: 'sc',
    type: 'single_choice',
    question: 'Сколько дней отпуска?',
    options: ['14', '28'],
    correctAnswers: [1],
    order: 0,
  }),
  question({ id: 'la', type: 'long_answer', question: 'Опишите порядок эвакуации', points: 2, order: 1 }),
  question({ id: 'fu', type: 'file_upload', question: 'Приложите акт', order: 2 }),
];
const FILE = '/api/files/0b6f6a52-2d7e-4c1a-9c55-1c1e2f3a4b5c.pdf';

async function submitted(answers: Record<string, unknown>) {
  const seeded = await seedQuizCourse(bed, { questions: QUESTIONS, settings: { passingScore: 70, maxAttempts: 3 } });
  const me = await bed.learner();
  const { body } = await call<StartedAttempt>('POST', '/api/attempts', me.token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
  const list = body.questions.map((q) => ({
    questionId: q.id,
    answer: q.id === 'sc' ? q.options.indexOf(String(answers.sc)) : (answers[q.id] ?? null),
  }));
  const result = await call<AttemptDetail>('POST', `/api/attempts/${body.attempt.id}/submit`, me.token, { answers: list });
  return {
    me,
    attemptId: body.attempt.id,
    result: result.body,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
    textLessonId: seeded.textLessonId,
    quizTitle: seeded.quiz.title,
  };
}
const queued = async (attemptId: string) =>
  (await call<ReviewPage>('GET', '/api/reviews?limit=50', bed.as.CURATOR.token)).body.data.filter(
    (r) => r.attemptId === attemptId,
  );

describe('manual grading of long answers and files', () => {
  it('keeps the attempt «на проверке» until each answer is graded, then final; the learner sees the comments', async () => {
    const { me, attemptId, result, courseId, lessonId, quizTitle } = await submitted({
      sc: '28',
      la: 'Выйти по плану, не пользоваться лифтом',
      fu: FILE,
    });
    expect(result).toMatchObject({ pendingReviews: 2, score: 1, maxScore: 4, percentage: 25, status: 'failed' });
    expect(result.questions.find((q) => q.questionId === 'la')?.review).toBeNull();

    expect((await queued(attemptId)).map((r) => [r.questionId, r.answerText, r.fileUrl, r.points])).toEqual([
      ['la', 'Выйти по плану, не пользоваться лифтом', null, 2],
      ['fu', `${FILE.split('/').pop()}`, FILE, 1],
    ]);

    const tooMuch = await call('POST', `/api/reviews/${attemptId}/la`, bed.as.CURATOR.token, { score: 3 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toBe('Оценка должна быть от 0 до 2');
    const first = await call<AttemptDetail>('POST', `/api/reviews/${attemptId}/la`, bed.as.CURATOR.token, {
      score: 1.5,
      comment: 'Не сказано про сбор на улице',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ pendingReviews: 1, score: 2.5, percentage: 63, status: 'failed' });
    expect((await queued(attemptId)).map((r) => r.questionId)).toEqual(['fu']);
    const row = async () => (await call<ResultsPage>('GET', '/api/results', me.token)).body.data.find((r) => r.id === attemptId);
    expect((await row())?.pendingReviews).toBe(1);
    const bell = async () => (await call<NotificationPage>('GET', '/api/notifications', me.token)).body.data;
    expect(await bell()).toEqual([]);

    const last = await call<AttemptDetail>('POST', `/api/reviews/${attemptId}/fu`, bed.as.ADMIN.token, {
      score: 1,
      comment: 'Акт верный',
    });
    expect(last.body).toMatchObject({ pendingReviews: 0, score: 3.5, maxScore: 4, percentage: 88, status: 'passed' });
    expect(await queued(attemptId)).toEqual([]);
    expect((await row())?.pendingReviews).toBeUndefined();
    // Final: the learner is told once, with the result, and led to their results; a re-grade tells nothing new.
    expect(await bell()).toMatchObject([
      {
        kind: 'attempt_reviewed',
        title: `Проверен тест «${quizTitle}»`,
        text: 'Итог: 88% — тест пройден.',
        link: '/results',
        read: false,
      },
    ]);
    await call('POST', `/api/reviews/${attemptId}/fu`, bed.as.ADMIN.token, { score: 1, comment: 'Акт верный, подпись есть' });
    expect(await bell()).toHaveLength(1);

    const seen = await call<AttemptDetail>('GET', `/api/attempts/${attemptId}`, me.token);
    expect(seen.body.questions.find((q) => q.questionId === 'la')?.review).toMatchObject({
      score: 1.5,
      comment: 'Не сказано про сбор на улице',
      reviewerName: expect.any(String),
    });
    expect(seen.body).toMatchObject({ status: 'passed', pendingReviews: 0 });
    // The pass, once final, completes the lesson the quiz stands in, as a pass at submit does.
    const lessons = await call<Array<{ lessonId: string }>>('GET', `/api/progress/course/${courseId}/lessons`, me.token);
    expect(lessons.body.map((l) => l.lessonId)).toContain(lessonId);
  });

  it('a pass once graded completes the course as its learner reads it, not as the grading author sees the draft', async () => {
    const { me, attemptId, courseId, textLessonId } = await submitted({ sc: '28', la: 'По плану эвакуации', fu: FILE });
    expect((await call('POST', `/api/progress/lesson/${textLessonId}/complete`, me.token, { courseId })).status).toBe(201);
    // The author starts a lesson learners do not see yet.
    const outline = await api<{ modules: Array<{ id: string }> }>(bed.content.url, 'GET', `/api/courses/${courseId}/outline`, {
      token: bed.as.CURATOR.token,
    });
    const draft = await api(bed.content.url, 'POST', '/api/blocks', {
      token: bed.as.CURATOR.token,
      body: { courseId, moduleId: outline.body.modules[0].id, title: 'Черновик урока', status: 'draft' },
    });
    expect(draft.status).toBe(201);

    await call('POST', `/api/reviews/${attemptId}/la`, bed.as.CURATOR.token, { score: 2 });
    const last = await call<AttemptDetail>('POST', `/api/reviews/${attemptId}/fu`, bed.as.CURATOR.token, { score: 1 });
    expect(last.body).toMatchObject({ pendingReviews: 0, status: 'passed' });
    // Both lessons the learner sees are done: the course is complete for them (the draft counts for no one).
    expect(await bed.store.courseCompletions.exists({ userId: me.user.id, courseId })).toBeTruthy();
    const progress = await call<CourseProgress>('GET', `/api/progress/course/${courseId}`, me.token);
    expect([progress.body.percentage, progress.body.isCompleted]).toEqual([100, true]);
  });

  it('is for ADMIN and CURATOR only; answers that wait for no one, or unknown ones, are 404; nothing changes', async () => {
    const { me, attemptId } = await submitted({ sc: '14', la: 'Эссе' });
    for (const role of ['MANAGER', 'CLIENT', 'CANDIDATE'] as const) {
      expect((await call('GET', '/api/reviews', bed.as[role].token)).status).toBe(403);
      expect((await call('POST', `/api/reviews/${attemptId}/la`, bed.as[role].token, { score: 2 })).status).toBe(403);
    }
    expect((await call('POST', `/api/reviews/${attemptId}/la`, me.token, { score: 2 })).status).toBe(403);
    expect((await call('GET', '/api/reviews')).status).toBe(401);
    for (const questionId of ['sc', 'fu', 'нет']) {
      const refused = await call('POST', `/api/reviews/${attemptId}/${encodeURIComponent(questionId)}`, bed.as.CURATOR.token, {
        score: 0,
      });
      expect(refused).toMatchObject({ status: 404, body: { message: 'Ответ для проверки не найден' } });
    }
    expect((await call('GET', '/api/reviews?limit=500', bed.as.CURATOR.token)).status).toBe(400);
    const still = await call<AttemptDetail>('GET', `/api/attempts/${attemptId}`, me.token);
    expect(still.body).toMatchObject({ pendingReviews: 1, score: 0 });
  });

  it("is for the course's own curators: another curator neither sees nor grades it until made a co-author", async () => {
    const { me, attemptId, courseId } = await submitted({ sc: '28', la: 'Эссе о безопасности' });
    const stranger = await userWithRole(bed.auth, 'CURATOR', 'Ольга Сторонняя');
    const strangerQueue = await call<ReviewPage>('GET', '/api/reviews?limit=50', stranger.token);
    expect(strangerQueue.status).toBe(200);
    expect(strangerQueue.body.data.some((r) => r.attemptId === attemptId)).toBe(false);
    const refused = await call('POST', `/api/reviews/${attemptId}/la`, stranger.token, { score: 2 });
    expect(refused).toMatchObject({
      status: 403,
      body: { message: 'Проверять ответы этого курса могут только его автор, соавторы и администратор' },
    });
    expect((await call<AttemptDetail>('GET', `/api/attempts/${attemptId}`, me.token)).body).toMatchObject({ pendingReviews: 1 });

    // The owner makes them a co-author: the answer is now in their queue and theirs to grade.
    const added = await api(bed.content.url, 'POST', `/api/courses/${courseId}/authors`, {
      token: bed.as.CURATOR.token,
      body: { userId: stranger.user.id },
    });
    expect(added.status).toBeLessThan(300);
    const queue = await call<ReviewPage>('GET', '/api/reviews?limit=50', stranger.token);
    expect(queue.body.data.filter((r) => r.attemptId === attemptId).map((r) => r.questionId)).toEqual(['la']);
    const graded = await call<AttemptDetail>('POST', `/api/reviews/${attemptId}/la`, stranger.token, { score: 2 });
    expect(graded.body).toMatchObject({ pendingReviews: 0, score: 3, status: 'passed' });
  });
});
