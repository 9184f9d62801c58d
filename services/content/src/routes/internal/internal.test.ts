import type { ContentStats } from '@portal/contracts';
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

  it('counts all and published courses, with the last 30 days against the 30 before', async () => {
    const { courses } = bed.models;
    const ago = (days: number) => new Date(Date.now() - days * DAY);
    // Timestamps are set by hand, as if the courses had been made earlier.
    await courses.collection.insertMany([
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
    const answer = await api<ContentStats>(bed.content.url, 'GET', '/internal/stats', {
      headers: { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      totalCourses: 5,
      activeCourses: 2,
      change: { totalCourses: { last30: 2, prev30: 2 }, activeCourses: { last30: 1, prev30: 1 } },
    });
  });
});
