import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { courseCompletionModel } from '../../models/courseCompletion';
import { internalRouter } from '.';

let progress: TestService;
let internal: Record<string, string>;
beforeAll(async () => {
  progress = await startTestService('progress', (ctx) => [internalRouter(ctx)]);
  await courseCompletionModel(progress.ctx.store).init();
  internal = { 'x-internal-token': progress.ctx.config.INTERNAL_TOKEN };
});
afterAll(() => progress.close());

const DAY = 86_400_000;

describe('GET /internal/stats', () => {
  it('is for other services only: no or a wrong internal token is refused', async () => {
    expect((await api(progress.url, 'GET', '/internal/stats?userId=u1')).status).toBe(403);
    expect(
      (
        await api(progress.url, 'GET', '/internal/stats?userId=u1', {
          headers: { 'x-internal-token': 'wrong-token-of-enough-length' },
        })
      ).status,
    ).toBe(403);
  });

  it('needs the person it is asked about', async () => {
    const answer = await api(progress.url, 'GET', '/internal/stats', { headers: internal });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('userId');
  });

  it('counts one learner’s completed courses, and how many in the last 30 days against the 30 before', async () => {
    const ago = (days: number) => new Date(Date.now() - days * DAY);
    await courseCompletionModel(progress.ctx.store).create([
      { userId: 'learner', courseId: 'c1', courseTitle: 'Основы HR', completedAt: ago(1) },
      { userId: 'learner', courseId: 'c2', courseTitle: 'Охрана труда', completedAt: ago(10) },
      { userId: 'learner', courseId: 'c3', courseTitle: 'Этика', completedAt: ago(45) },
      { userId: 'someone-else', courseId: 'c1', courseTitle: 'Основы HR', completedAt: ago(2) },
    ]);
    const answer = await api(progress.url, 'GET', '/internal/stats?userId=learner', { headers: internal });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ completedCourses: 3, change: { last30: 2, prev30: 1 } });
    const nobody = await api(progress.url, 'GET', '/internal/stats?userId=new-learner', { headers: internal });
    expect(nobody.body).toEqual({ completedCourses: 0, change: { last30: 0, prev30: 0 } });
  });
});
