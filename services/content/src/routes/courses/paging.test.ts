import { COURSE_PAGE_SIZE, MAX_PAGE_SIZE, PAGING_MSG, TOTAL_COUNT_HEADER, type CourseSummary } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { startContent, uniqueTitle, type ContentTestBed } from '../../testing';

let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const list = (path: string, token = bed.as.CURATOR.token) => api<CourseSummary[]>(bed.content.url, 'GET', path, { token });
const totalOf = (answer: { headers: Headers }) => Number(answer.headers.get(TOTAL_COUNT_HEADER));
const limitMessage = PAGING_MSG.limitInvalid.replace('{max}', String(MAX_PAGE_SIZE));

/**
 * Stores `count` courses whose titles start with `tag`, all updated in the same millisecond (so
 * only the tie-breaker orders them), with counts as every write keeps them.
 */
async function storeCourses(tag: string, count: number, fields: Record<string, unknown> = {}): Promise<string[]> {
  const updatedAt = new Date();
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: new Types.ObjectId(),
    title: `${tag} ${String(i).padStart(3, '0')}`,
    description: 'Курс для проверки страниц',
    status: 'published',
    isPublished: true,
    counts: { modules: 2, lessons: 5, visibleModules: 1, visibleLessons: 3 },
    createdAt: updatedAt,
    updatedAt,
    ...fields,
  }));
  // Written as stored documents, so the shared updatedAt stays as given.
  await bed.models.courses.collection.insertMany(docs);
  return docs.map((d) => String(d._id));
}

/** Reads every page of a list and what each page said the total was. */
async function readAllPages(path: string, limit: number, token?: string) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const answer = await list(`${path}${path.includes('?') ? '&' : '?'}page=${page}&limit=${limit}`, token);
    expect(answer.status).toBe(200);
    totals.add(totalOf(answer));
    ids.push(...answer.body.map((c) => c.id));
    if (answer.body.length < limit) return { ids, totals };
  }
}

describe('GET /api/courses in pages', () => {
  it('answers the first page of the spec’s array by default, with the total in a header', async () => {
    const tag = uniqueTitle('Страницы');
    await storeCourses(tag, COURSE_PAGE_SIZE + 6);

    // Courses stored without an owner: an ADMIN's, who reads every course as its authors do.
    const first = await list(`/api/courses?search=${encodeURIComponent(tag)}`, bed.as.ADMIN.token);
    expect(first.status).toBe(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body).toHaveLength(COURSE_PAGE_SIZE);
    expect(totalOf(first)).toBe(COURSE_PAGE_SIZE + 6);
    expect(first.body[0]).toMatchObject({ modulesCount: 2, lessonsCount: 5, isFavorite: false, isStarted: false });

    const second = await list(`/api/courses?search=${encodeURIComponent(tag)}&page=2`);
    expect(second.body).toHaveLength(6);
    expect(totalOf(second)).toBe(COURSE_PAGE_SIZE + 6);
    const past = await list(`/api/courses?search=${encodeURIComponent(tag)}&page=3`);
    expect(past.body).toEqual([]);
    expect(totalOf(past)).toBe(COURSE_PAGE_SIZE + 6);
  });

  it('gives up to the maximum page size and refuses more, or a page below 1, with 400 in Russian', async () => {
    const tag = uniqueTitle('Максимум');
    await storeCourses(tag, MAX_PAGE_SIZE + 1);

    const max = await list(`/api/courses?search=${encodeURIComponent(tag)}&limit=${MAX_PAGE_SIZE}`);
    expect(max.body).toHaveLength(MAX_PAGE_SIZE);
    expect(totalOf(max)).toBe(MAX_PAGE_SIZE + 1);

    for (const query of [`limit=${MAX_PAGE_SIZE + 1}`, 'limit=0', 'limit=ten', 'limit=2.5']) {
      const refused = await list(`/api/courses?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(expect.objectContaining({ message: limitMessage, statusCode: 400 }));
    }
    for (const query of ['page=0', 'page=-1', 'page=x']) {
      const refused = await list(`/api/courses?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(expect.objectContaining({ message: PAGING_MSG.pageInvalid }));
    }
  });

  it('pages through courses updated in the same millisecond without losing or repeating one', async () => {
    const tag = uniqueTitle('Порядок');
    const stored = await storeCourses(tag, 23);

    const { ids, totals } = await readAllPages(`/api/courses?search=${encodeURIComponent(tag)}`, 5, bed.as.ADMIN.token);
    expect([...totals]).toEqual([23]);
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
    expect([...ids].sort()).toEqual([...stored].sort());
    // Same updatedAt: newest id first.
    expect(ids).toEqual([...stored].sort().reverse());
  });

  it('counts and pages what a learner may see, with the lessons a learner sees', async () => {
    const tag = uniqueTitle('Ученик');
    await storeCourses(tag, 7);
    await storeCourses(`${tag} черновик`, 4, { status: 'draft', isPublished: false });

    const learner = await list(`/api/courses?search=${encodeURIComponent(tag)}&limit=5`, bed.as.CANDIDATE.token);
    expect(learner.body).toHaveLength(5);
    expect(totalOf(learner)).toBe(7);
    expect(learner.body.every((c) => c.status === 'published' && c.lessonsCount === 3 && c.modulesCount === 1)).toBe(true);

    const author = await list(`/api/courses?search=${encodeURIComponent(tag)}&limit=5`, bed.as.ADMIN.token);
    expect(totalOf(author)).toBe(11);
    const drafts = await list(`/api/courses?search=${encodeURIComponent(tag)}&status=draft`, bed.as.ADMIN.token);
    expect(totalOf(drafts)).toBe(4);
    // A curator who is none of their authors finds the published ones only.
    expect(totalOf(await list(`/api/courses?search=${encodeURIComponent(tag)}&limit=5`))).toBe(7);
    expect(totalOf(await list(`/api/courses?search=${encodeURIComponent(tag)}&status=draft`))).toBe(0);
    expect(drafts.body.map((c) => c.status)).toEqual(['draft', 'draft', 'draft', 'draft']);
  });

  it('pages a person’s favourites, most recently marked first, under both the filter and favorites/my', async () => {
    const tag = uniqueTitle('Избранное');
    const ids = await storeCourses(tag, 9);
    const token = bed.as.CLIENT.token;
    for (const id of ids) {
      expect((await api(bed.content.url, 'POST', `/api/courses/${id}/favorite`, { token, body: {} })).status).toBe(200);
    }
    // One of them is no longer published: a learner does not see it in either list.
    await bed.models.courses.updateOne({ _id: ids[4] }, { $set: { status: 'hidden', isPublished: false } });

    const viaFilter = await readAllPages(`/api/courses?filter=favorites&search=${encodeURIComponent(tag)}`, 4, token);
    expect([...viaFilter.totals]).toEqual([8]);
    expect(new Set(viaFilter.ids)).toEqual(new Set(ids.filter((_, i) => i !== 4)));

    const mine = await readAllPages('/api/courses/favorites/my', 3, token);
    expect([...mine.totals]).toEqual([8]);
    expect(mine.ids).toEqual(ids.filter((_, i) => i !== 4).reverse());

    const refused = await list(`/api/courses/favorites/my?limit=${MAX_PAGE_SIZE + 1}`, token);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(expect.objectContaining({ message: limitMessage }));
  });

  it('pages started/my the same way', async () => {
    const tag = uniqueTitle('Начатые');
    const ids = await storeCourses(tag, 5);
    const token = bed.as.MANAGER.token;
    for (const id of ids) await api(bed.content.url, 'POST', `/api/courses/${id}/start`, { token, body: {} });

    const second = await list('/api/courses/started/my?page=2&limit=2', token);
    expect(second.body.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(second.body.every((c) => c.isStarted)).toBe(true);
    expect(totalOf(second)).toBe(5);
  });
});

describe('store work of the course list', () => {
  /** The store operations of one list request, read after a warm-up so the person is cached. */
  const operationsOf = async (path: string, token: string) => {
    await list(path, token);
    return storeOperationsDuring(bed.content, async () => {
      const answer = await list(path, token);
      expect(answer.status).toBe(200);
    });
  };

  it('is the same few reads for a page of 3 and a page of 100, marks and counts included', async () => {
    const small = uniqueTitle('Мало');
    const large = uniqueTitle('Много');
    const smallIds = await storeCourses(small, 3);
    const largeIds = await storeCourses(large, 120);
    const token = bed.as.CANDIDATE.token;
    for (const id of [...smallIds, ...largeIds.slice(0, 60)]) {
      expect((await api(bed.content.url, 'POST', `/api/courses/${id}/favorite`, { token, body: {} })).status).toBe(200);
    }
    const favourites = await list(`/api/courses?filter=favorites&search=${encodeURIComponent(large)}&limit=100`, token);
    expect(favourites.body).toHaveLength(60);

    for (const filter of ['all', 'favorites']) {
      const few = await operationsOf(`/api/courses?filter=${filter}&search=${encodeURIComponent(small)}&limit=100`, token);
      const many = await operationsOf(`/api/courses?filter=${filter}&search=${encodeURIComponent(large)}&limit=100`, token);
      expect(many).toEqual(few);
      expect(few.length).toBeLessThanOrEqual(4);
    }
    const fewMine = await operationsOf('/api/courses/favorites/my?limit=3', token);
    const manyMine = await operationsOf('/api/courses/favorites/my?limit=60', token);
    expect(manyMine).toEqual(fewMine);
    expect(fewMine.length).toBeLessThanOrEqual(4);
  });
});
