import { TOTAL_COUNT_HEADER, type ContentStats, type Role } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { startContent, uniqueTitle, type ContentTestBed } from '../../testing';

let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const DAY = 86_400_000;

describe('GET /internal/stats', () => {
  it('is for other services only: 403 without the internal token, with a wrong one or with a user token', async () => {
    expect((await api(bed.content.url, 'GET', '/internal/stats')).status).toBe(403);
    expect((await api(bed.content.url, 'GET', '/internal/stats', { token: bed.as.ADMIN.token })).status).toBe(403);
    expect(
      (await api(bed.content.url, 'GET', '/internal/stats', { headers: { 'x-internal-token': 'wrong-token-of-some-length' } }))
        .status,
    ).toBe(403);
  });

  const statsFor = (role: Role, userId = bed.as[role].user.id) =>
    api<ContentStats & { message?: string; field?: string }>(
      bed.content.url,
      'GET',
      `/internal/stats?${new URLSearchParams({ role, userId })}`,
      { headers: { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN } },
    );

  it('needs to know whose figures they are: 400 naming the field without a role or with an unknown one', async () => {
    const headers = { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN };
    const bare = await api(bed.content.url, 'GET', '/internal/stats', { headers });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ statusCode: 400, field: 'role' });
    const unknown = await api(bed.content.url, 'GET', '/internal/stats?role=ROOT&userId=u1', { headers });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('role');
  });

  it('counts what each reader can see: authors every course and the published ones; learners the published ones and those they started', async () => {
    const { courses, marks } = bed.models;
    const ago = (days: number) => new Date(Date.now() - days * DAY);
    // Timestamps are set by hand, as if the courses had been made earlier.
    const made = await courses.collection.insertMany([
      { title: uniqueTitle(), status: 'published', isPublished: true, publishedAt: ago(1), createdAt: ago(2), updatedAt: ago(1) },
      {
        title: uniqueTitle(),
        status: 'published',
        isPublished: true,
        publishedAt: ago(40),
        createdAt: ago(45),
        updatedAt: ago(40),
      },
      { title: uniqueTitle(), status: 'draft', isPublished: false, publishedAt: null, createdAt: ago(10), updatedAt: ago(10) },
      { title: uniqueTitle(), status: 'hidden', isPublished: false, publishedAt: null, createdAt: ago(50), updatedAt: ago(50) },
      { title: uniqueTitle(), status: 'draft', isPublished: false, publishedAt: null, createdAt: ago(90), updatedAt: ago(90) },
    ]);
    const [recent, older, , hidden] = Object.values(made.insertedIds);
    // The client starts the recent course now, started the older one 40 days ago, and a course
    // since hidden 5 days ago: the hidden one is no longer theirs to see.
    const client = bed.as.CLIENT;
    expect(
      (await api(bed.content.url, 'POST', `/api/courses/${String(recent)}/start`, { token: client.token })).status,
    ).toBeLessThan(300);
    await marks.collection.insertMany([
      { userId: client.user.id, courseId: older, kind: 'started', createdAt: ago(40) },
      { userId: client.user.id, courseId: hidden, kind: 'started', createdAt: ago(5) },
    ]);

    for (const role of ['ADMIN', 'CURATOR'] as const) {
      const staff = await statsFor(role);
      expect(staff.status).toBe(200);
      expect(staff.body).toEqual({
        totalCourses: 5,
        activeCourses: 2,
        change: { totalCourses: { last30: 2, prev30: 2 }, activeCourses: { last30: 1, prev30: 1 } },
      });
    }
    const learner = await statsFor('CLIENT');
    expect(learner.status).toBe(200);
    expect(learner.body).toEqual({
      totalCourses: 2,
      activeCourses: 2,
      change: { totalCourses: { last30: 1, prev30: 1 }, activeCourses: { last30: 1, prev30: 1 } },
    });
    // The catalogue a learner browses says the same: two courses, two of them started.
    const totalOf = async (query: string) =>
      Number(
        (await api(bed.content.url, 'GET', `/api/courses${query}`, { token: client.token })).headers.get(TOTAL_COUNT_HEADER),
      );
    expect(await totalOf('')).toBe(learner.body.totalCourses);
    expect(await totalOf('?filter=started')).toBe(learner.body.activeCourses);
    for (const role of ['MANAGER', 'CANDIDATE'] as const)
      expect((await statsFor(role)).body).toEqual({
        totalCourses: 2,
        activeCourses: 0,
        change: { totalCourses: { last30: 1, prev30: 1 }, activeCourses: { last30: 0, prev30: 0 } },
      });
  });
});
