import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed } from '../../testing';

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
    expect(firstOps.filter((op) => op.startsWith('completions.'))).toEqual(['completions.find', 'completions.updateOne']);

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
    expect(againOps.length).toBeLessThanOrEqual(4);
  });
});
