import { CONTENT_MSG } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed } from '../../testing';

let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

const storedCourse = (id: string) => bed.models.courses.findById(id).lean();

describe('a learner’s work keeps a course from a curator’s delete', () => {
  it('after a learner’s attempt the curator’s delete archives the course; the attempt stays', async () => {
    const seeded = await seedQuizCourse(bed);
    const learner = await bed.learner();
    const started = await api(bed.progress.url, 'POST', '/api/attempts', {
      token: learner.token,
      body: { quizId: seeded.quiz.id, courseId: seeded.course.id, lessonId: seeded.quizLessonId },
    });
    expect(started.status).toBe(201);
    expect((await storedCourse(seeded.course.id))?.learnerActivity).toBe(true);

    const removed = await api(bed.content.url, 'DELETE', `/api/courses/${seeded.course.id}`, { token: bed.as.CURATOR.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ archived: true, message: CONTENT_MSG.courseArchivedInstead });
    expect(await storedCourse(seeded.course.id)).toMatchObject({ status: 'hidden' });
    expect(await bed.store.attempts.countDocuments({ courseId: seeded.course.id })).toBe(1);
  });

  it('after a learner (a MANAGER studying) completes a lesson the same holds; a course nobody studied is deleted', async () => {
    const seeded = await seedQuizCourse(bed);
    const complete = (token: string) =>
      api(bed.progress.url, 'POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, {
        token,
        body: { courseId: seeded.course.id },
      });
    const manager = await bed.learner('MANAGER');
    expect((await complete(manager.token)).status).toBe(201);
    expect((await storedCourse(seeded.course.id))?.learnerActivity).toBe(true);

    const untouched = await seedQuizCourse(bed);
    expect((await storedCourse(untouched.course.id))?.learnerActivity).toBe(false);
    expect(
      (await api(bed.content.url, 'DELETE', `/api/courses/${untouched.course.id}`, { token: bed.as.CURATOR.token })).status,
    ).toBe(204);
  });
});
