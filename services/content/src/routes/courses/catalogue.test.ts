import type { Course, CourseSummary } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { startContent, startContentReplica, uniqueTitle, type ContentTestBed } from '../../testing';

// The course list keeps pages of the catalogue stamped with its version (src/commands/catalogueCache.ts).
// A second content process on the same databases stands for another replica: a write through one
// is seen at once through the other.
let bed: ContentTestBed;
let replica: Awaited<ReturnType<typeof startContentReplica>>;
beforeAll(async () => {
  bed = await startContent();
  replica = await startContentReplica(bed);
});
afterAll(async () => {
  await replica.close();
  await bed.close();
});

const token = (role: 'ADMIN' | 'CANDIDATE') => bed.as[role].token;
const list = (url: string, role: 'ADMIN' | 'CANDIDATE', search: string) =>
  api<CourseSummary[]>(url, 'GET', `/api/courses?search=${encodeURIComponent(search)}&limit=20`, { token: token(role) });
const titles = (answer: { body: CourseSummary[] }) => answer.body.map((c) => c.title);

it('a page asked again is answered without reading the courses, and every write is seen at once on every replica', async () => {
  const tag = uniqueTitle('Каталог');
  const create = (title: string, status = 'published') =>
    api<Course>(bed.content.url, 'POST', '/api/courses', { token: token('ADMIN'), body: { title: `${tag} ${title}`, status } });
  const first = await create('один');
  await create('два');
  expect(titles(await list(bed.content.url, 'CANDIDATE', tag))).toEqual([`${tag} два`, `${tag} один`]);

  // Asked again: the version is read, the page is not (no find or count of courses).
  const again = await storeOperationsDuring(bed.content, async () => {
    expect(titles(await list(bed.content.url, 'CANDIDATE', tag))).toEqual([`${tag} два`, `${tag} один`]);
  });
  expect(again.filter((op) => op.startsWith('courses.'))).toEqual([]);

  // A course created through the other replica is listed here at once.
  await api(replica.url, 'POST', '/api/courses', { token: token('ADMIN'), body: { title: `${tag} три`, status: 'published' } });
  expect(titles(await list(bed.content.url, 'CANDIDATE', tag))).toEqual([`${tag} три`, `${tag} два`, `${tag} один`]);

  // Renamed, unpublished and deleted through the replica: each is seen here on the next request.
  const renamed = await api(replica.url, 'PATCH', `/api/courses/${first.body.id}`, {
    token: token('ADMIN'),
    body: { title: `${tag} первый`, version: first.body.version },
  });
  expect(renamed.status).toBe(200);
  expect(titles(await list(bed.content.url, 'CANDIDATE', tag))).toEqual([`${tag} первый`, `${tag} три`, `${tag} два`]);
  await api(replica.url, 'PATCH', `/api/courses/${first.body.id}`, {
    token: token('ADMIN'),
    body: { status: 'draft', version: renamed.body.version },
  });
  expect(titles(await list(bed.content.url, 'CANDIDATE', tag))).toEqual([`${tag} три`, `${tag} два`]);
  expect(titles(await list(bed.content.url, 'ADMIN', tag))).toEqual([`${tag} первый`, `${tag} три`, `${tag} два`]);
  await api(replica.url, 'DELETE', `/api/courses/${first.body.id}`, { token: token('ADMIN') });
  expect(titles(await list(bed.content.url, 'ADMIN', tag))).toEqual([`${tag} три`, `${tag} два`]);
});

it('a lesson added through another replica moves the counts on the cached card', async () => {
  const title = uniqueTitle('Счётчик каталога');
  const course = await api<Course>(bed.content.url, 'POST', '/api/courses', {
    token: token('ADMIN'),
    body: { title, status: 'published' },
  });
  const card = async () => (await list(bed.content.url, 'CANDIDATE', title)).body.map((c) => [c.modulesCount, c.lessonsCount]);
  expect(await card()).toEqual([[0, 0]]);
  const mod = await api<{ id: string }>(replica.url, 'POST', '/api/blocks', {
    token: token('ADMIN'),
    body: { courseId: course.body.id, type: 'MODULE', title: 'М' },
  });
  await api(replica.url, 'POST', '/api/blocks', {
    token: token('ADMIN'),
    body: { courseId: course.body.id, moduleId: mod.body.id, title: 'У', status: 'published' },
  });
  expect(await card()).toEqual([[1, 1]]);
});

it('the person’s own favourites are never answered from the shared pages', async () => {
  const title = uniqueTitle('Избранное каталога');
  const course = await api<Course>(bed.content.url, 'POST', '/api/courses', {
    token: token('ADMIN'),
    body: { title, status: 'published' },
  });
  expect((await list(bed.content.url, 'CANDIDATE', title)).body.map((c) => c.isFavorite)).toEqual([false]);
  const marked = await api(replica.url, 'POST', `/api/courses/${course.body.id}/favorite`, { token: token('CANDIDATE') });
  expect(marked.status).toBeLessThan(300);
  expect((await list(bed.content.url, 'CANDIDATE', title)).body.map((c) => c.isFavorite)).toEqual([true]);
  const favourites = await api<CourseSummary[]>(
    bed.content.url,
    'GET',
    `/api/courses?filter=favorites&search=${encodeURIComponent(title)}`,
    { token: token('CANDIDATE') },
  );
  expect(favourites.body.map((c) => c.title)).toEqual([title]);
  // Another learner's list of the same page does not carry the first one's mark.
  expect((await list(bed.content.url, 'ADMIN', title)).body.map((c) => c.isFavorite)).toEqual([false]);
});
