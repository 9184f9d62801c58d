import type { AttemptDetail, CourseProgress, CourseVersionSummary, StartedAttempt } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { basedOnStored, waitForVersion } from '@portal/svc-content/testing';
import {
  SAMPLE_QUESTIONS,
  question,
  seedQuizCourse,
  startProgress,
  type ProgressTestBed,
  type SeededCourse,
} from '../../testing';

/**
 * Learners across a publish (docs/decisions/093): an attempt finishes on the version it started on,
 * completions carry over by lesson, and «требует повторного прохождения» asks for the lesson again.
 */
let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

const curator = () => bed.as.CURATOR.token;
const content = async <T = any>(method: string, path: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token: curator(),
    body: method === 'PATCH' ? await basedOnStored(bed, path, body) : body,
  });
const progress = <T = any>(method: string, path: string, token: string, body?: unknown) =>
  api<T>(bed.progress.url, method, path, { token, body });

const publish = async (courseId: string, basedOn: number | null, retakeLessonIds: string[] = []) => {
  const answer = await content<CourseVersionSummary>('POST', `/api/courses/${courseId}/versions`, {
    summary: 'Правки',
    basedOn,
    retakeLessonIds,
  });
  if (answer.status !== 201) throw new Error(`publish: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};
const percent = async (token: string, seeded: SeededCourse) =>
  (await progress<CourseProgress>('GET', `/api/progress/course/${seeded.course.id}`, token)).body;
const complete = (token: string, seeded: SeededCourse, lessonId = seeded.textLessonId) =>
  progress('POST', `/api/progress/lesson/${lessonId}/complete`, token, { courseId: seeded.course.id });

it('an attempt started on version 1 is graded on it after version 2 changed the answer, and says so; the next starts on version 2', async () => {
  const seeded = await seedQuizCourse(bed, { settings: { maxAttempts: 5 } });
  const first = await bed.learner('CLIENT');
  // The first learner begins: version 1 is taken.
  expect((await complete(first.token, seeded)).status).toBe(201);
  await waitForVersion(bed, seeded.course.id);
  const started = await progress<StartedAttempt>('POST', '/api/attempts', first.token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
  expect(started.status).toBe(201);

  // The author changes the right answer of the first question and publishes while the attempt is open.
  const changed = SAMPLE_QUESTIONS.map((q) =>
    q.id === 'q1' ? question({ ...q, options: ['14', '28', '56'], correctAnswers: [2] }) : q,
  );
  expect((await content('PATCH', `/api/quizzes/${seeded.quiz.id}`, { questions: changed })).status).toBe(200);
  expect((await publish(seeded.course.id, 1)).number).toBe(2);

  const answers = (picked: string) =>
    started.body.questions.map((q) => ({
      questionId: q.id,
      answer: q.type === 'single_choice' ? q.options.indexOf(picked) : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
      timeSpent: 3,
    }));
  const done = await progress<AttemptDetail>('POST', `/api/attempts/${started.body.attempt.id}/submit`, first.token, {
    answers: answers('28'),
  });
  expect(done.status).toBe(200);
  expect(done.body).toMatchObject({ status: 'passed', percentage: 100, courseVersion: 1 });

  const second = await bed.learner('CLIENT');
  const next = await progress<StartedAttempt>('POST', '/api/attempts', second.token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
  const graded = await progress<AttemptDetail>('POST', `/api/attempts/${next.body.attempt.id}/submit`, second.token, {
    answers: next.body.questions.map((q) => ({
      questionId: q.id,
      answer: q.type === 'single_choice' ? q.options.indexOf('56') : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
      timeSpent: 3,
    })),
  });
  expect(graded.body).toMatchObject({ status: 'passed', courseVersion: 2 });
  // Both versions are pinned: a result refers to each, so pruning keeps them.
  const history = await content<{ data: CourseVersionSummary[] }>('GET', `/api/courses/${seeded.course.id}/versions`);
  expect(history.body.data.map((v) => [v.number, v.pinned])).toEqual([
    [2, true],
    [1, true],
  ]);
});

it('completions carry over a publish; «требует повторного прохождения» takes the lesson back until it is completed again', async () => {
  const seeded = await seedQuizCourse(bed);
  const learner = await bed.learner('CLIENT');
  expect((await complete(learner.token, seeded)).status).toBe(201);
  await waitForVersion(bed, seeded.course.id);
  const before = await percent(learner.token, seeded);
  expect(before.completedLessonIds).toContain(seeded.textLessonId);

  // A changed lesson, published without the requirement: still complete.
  const edit = (text: string) =>
    content('PATCH', `/api/blocks/${seeded.textLessonId}`, { content: [{ type: 'text', content: { text } }] });
  expect((await edit('Введение, вторая редакция')).status).toBe(200);
  await publish(seeded.course.id, 1);
  expect((await percent(learner.token, seeded)).completedLessonIds).toContain(seeded.textLessonId);

  // Changed again, and this time learners must take it again.
  expect((await edit('Введение, третья редакция: новые правила')).status).toBe(200);
  await publish(seeded.course.id, 2, [seeded.textLessonId]);
  const after = await percent(learner.token, seeded);
  expect(after.completedLessonIds).not.toContain(seeded.textLessonId);
  expect(after.percentage).toBeLessThan(before.percentage);

  // Completed again: it counts once more.
  const again = await complete(learner.token, seeded);
  expect(again.status).toBe(201);
  expect(again.body.created).toBe(true);
  expect((await percent(learner.token, seeded)).completedLessonIds).toContain(seeded.textLessonId);

  // Only a lesson this publish changed may be required again.
  expect(
    (
      await content('POST', `/api/courses/${seeded.course.id}/versions`, {
        summary: 'x',
        basedOn: 3,
        retakeLessonIds: [seeded.quizLessonId],
      })
    ).status,
  ).toBe(409);
});
