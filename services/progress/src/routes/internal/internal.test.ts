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

describe('POST /internal/clock (the e2e stack’s clock seam)', () => {
  it('is not there unless CLOCK_SEAM is on', async () => {
    const answer = await api(progress.url, 'POST', '/internal/clock', { headers: internal, body: { reset: true } });
    expect(answer.status).toBe(404);
  });

  it('moves this service’s clock only with the internal token, and refuses to exist in production', async () => {
    const config = { ...progress.ctx.config, CLOCK_SEAM: 'on' as const };
    const seam = await startTestService('progress', (ctx) => [
      internalRouter({ ...ctx, config: { ...ctx.config, CLOCK_SEAM: 'on' } }),
    ]);
    try {
      expect((await api(seam.url, 'POST', '/internal/clock', { body: { reset: true } })).status).toBe(403);
      const moved = await api<{ now: string }>(seam.url, 'POST', '/internal/clock', {
        headers: { 'x-internal-token': seam.ctx.config.INTERNAL_TOKEN },
        body: { at: '2031-03-01T09:00:00.000Z' },
      });
      expect(moved.status).toBe(200);
      expect(Date.parse(moved.body.now) - Date.parse('2031-03-01T09:00:00.000Z')).toBeLessThan(5_000);
      const wrong = await api(seam.url, 'POST', '/internal/clock', {
        headers: { 'x-internal-token': seam.ctx.config.INTERNAL_TOKEN },
        body: { at: 'завтра' },
      });
      expect(wrong.status).toBe(400);
      const reset = await api<{ now: string }>(seam.url, 'POST', '/internal/clock', {
        headers: { 'x-internal-token': seam.ctx.config.INTERNAL_TOKEN },
        body: { reset: true },
      });
      expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(5_000);
    } finally {
      await seam.close();
    }
    expect(() => internalRouter({ ...progress.ctx, config: { ...config, NODE_ENV: 'production' } })).toThrow(
      'CLOCK_SEAM: the clock cannot be moved in production',
    );
  });
});
