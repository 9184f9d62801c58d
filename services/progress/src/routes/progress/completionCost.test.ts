import type { CourseProgress } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { seedQuizCourse, startProgress, takeSampleQuiz, type ProgressTestBed } from '../../testing';

let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

describe('what completing a lesson costs the store', () => {
  it('reads the learner’s completions in the course once: a first completion writes one record, a second writes nothing', async () => {
    const seeded = await seedQuizCourse(bed);
    const learner = await bed.learner();
    const complete = () =>
      api(bed.progress.url, 'POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, {
        token: learner.token,
        body: { courseId: seeded.course.id },
      });
    // The learner's principal and the course's outline are kept after a first call.
    await api(bed.progress.url, 'GET', `/api/progress/course/${seeded.course.id}`, { token: learner.token });

    let first: Awaited<ReturnType<typeof complete>> | undefined;
    const firstOps = await storeOperationsDuring(bed.progress, async () => {
      first = await complete();
    });
    expect(first?.status).toBe(201);
    expect(first?.body).toMatchObject({ created: true, progress: { completedLessons: 1 } });
    // The completions are read again after the write: another lesson completed at the same moment counts.
    expect(firstOps.filter((op) => op.startsWith('completions.'))).toEqual([
      'completions.find',
      'completions.updateOne',
      'completions.find',
    ]);

    let again: Awaited<ReturnType<typeof complete>> | undefined;
    const againOps = await storeOperationsDuring(bed.progress, async () => {
      again = await complete();
    });
    expect(again?.status).toBe(200);
    expect(again?.body).toMatchObject({
      created: false,
      completedAt: first?.body.completedAt,
      progress: { completedLessons: 1 },
    });
    expect(againOps.filter((op) => !/\.(find|findOne|countDocuments|aggregate|distinct)$/.test(op))).toEqual([]);
    expect(againOps.filter((op) => op.startsWith('completions.'))).toEqual(['completions.find']);
    // That no program keeps the course locked was found by the first call and is kept.
    expect(againOps.filter((op) => op.startsWith('program_assignments.'))).toEqual([]);
    expect(againOps.length).toBeLessThanOrEqual(3);
  });

  it('the last two lessons completed at the same moment complete the course', async () => {
    const seeded = await seedQuizCourse(bed);
    const second = await api<{ id: string }>(bed.content.url, 'POST', '/api/blocks', {
      token: bed.as.CURATOR.token,
      body: {
        courseId: seeded.course.id,
        moduleId: seeded.course.modules[0].id,
        title: 'Права работника',
        content: [{ type: 'text', content: { text: 'Отпуск и больничный' } }],
        status: 'published',
      },
    });
    expect(second.status).toBe(201);
    // Several learners, so that the two calls of at least one of them overlap on a busy host too.
    const learners = await Promise.all([1, 2, 3, 4].map(() => bed.learner()));
    for (const learner of learners) await takeSampleQuiz(bed, learner.token, seeded);

    await Promise.all(
      learners.flatMap((learner) =>
        [seeded.textLessonId, second.body.id].map((lessonId) =>
          api(bed.progress.url, 'POST', `/api/progress/lesson/${lessonId}/complete`, {
            token: learner.token,
            body: { courseId: seeded.course.id },
          }),
        ),
      ),
    );
    for (const learner of learners) {
      const progress = await api<CourseProgress>(bed.progress.url, 'GET', `/api/progress/course/${seeded.course.id}`, {
        token: learner.token,
      });
      expect(progress.body).toMatchObject({ completedLessons: 3, isCompleted: true, completedAt: expect.any(String) });
      expect(await bed.store.courseCompletions.countDocuments({ userId: learner.user.id, courseId: seeded.course.id })).toBe(1);
    }
  });
});
