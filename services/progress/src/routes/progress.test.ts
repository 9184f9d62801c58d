import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { progressRouters } from '../app';
import { completionModel } from '../models/completion';

let auth: Awaited<ReturnType<typeof startAuth>>;
let progress: TestService;
beforeAll(async () => {
  auth = await startAuth();
  progress = await startTestService('progress', progressRouters, { env: { AUTH_URL: auth.url } });
  await completionModel(progress.ctx.store).syncIndexes();
});
afterAll(async () => {
  await progress.close();
  await auth.close();
});

describe('GET /api/progress/my', () => {
  it('needs a token', async () => {
    expect((await api(progress.url, 'GET', '/api/progress/my')).status).toBe(401);
  });

  it('answers only the caller’s own completed lessons, grouped by course', async () => {
    const me = await userWithRole(auth, 'CANDIDATE');
    const other = await userWithRole(auth, 'CANDIDATE');
    await completionModel(progress.ctx.store).create([
      { userId: me.user.id, courseId: 'c1', lessonId: 'l1' },
      { userId: me.user.id, courseId: 'c1', lessonId: 'l2' },
      { userId: other.user.id, courseId: 'c1', lessonId: 'l3' },
    ]);
    const answer = await api(progress.url, 'GET', '/api/progress/my', { token: me.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1);
    expect(answer.body[0].courseId).toBe('c1');
    expect([...answer.body[0].completedLessons].sort()).toEqual(['l1', 'l2']);
  });
});
