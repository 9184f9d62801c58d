import type { Course, CourseSummary } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { basedOnStored, startContent, startContentReplica, uniqueTitle, type ContentTestBed } from '../../testing';

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

it('a person’s marks are read once and kept: another person’s mark leaves them kept, their own change shows at once on every replica', async () => {
  const tag = uniqueTitle('Отметки');
  const create = async (title: string) =>
    (
      await api<Course>(bed.content.url, 'POST', '/api/courses', {
        token: token('ADMIN'),
        body: { title: `${tag} ${title}`, status: 'published' },
      })
    ).body;
  const one = await create('один');
  const two = await create('два');
  const marks = async (url = bed.content.url) =>
    Object.fromEntries((await list(url, 'CANDIDATE', tag)).body.map((c) => [c.title.slice(tag.length + 1), c.isFavorite]));
  const marksRead = async (work: () => Promise<unknown>) =>
    (await storeOperationsDuring(bed.content, work)).filter((op) => op.startsWith('course_marks.'));
  const favourite = (as: 'ADMIN' | 'CANDIDATE', course: Course, method = 'POST') =>
    api(replica.url, method, `/api/courses/${course.id}/favorite`, { token: token(as) });

  expect(await marks()).toEqual({ один: false, два: false });
  // Asked again, and a course page of the same person: their marks are not read again.
  expect(await marksRead(() => marks())).toEqual([]);
  expect(await marksRead(() => api(bed.content.url, 'GET', `/api/courses/${one.id}`, { token: token('CANDIDATE') }))).toEqual([]);

  // Someone else's mark, through the other replica, does not outdate this person's.
  expect((await favourite('ADMIN', one)).status).toBeLessThan(300);
  expect(await marksRead(async () => expect(await marks()).toEqual({ один: false, два: false }))).toEqual([]);

  // Their own mark, added and removed through the other replica, shows at once here, on the list and on the page.
  expect((await favourite('CANDIDATE', two)).status).toBeLessThan(300);
  expect(await marks()).toEqual({ один: false, два: true });
  const page = await api<Course>(bed.content.url, 'GET', `/api/courses/${two.id}`, { token: token('CANDIDATE') });
  expect(page.body.isFavorite).toBe(true);
  expect((await favourite('CANDIDATE', two, 'DELETE')).status).toBeLessThan(300);
  expect(await marks()).toEqual({ один: false, два: false });
  expect(await marks(replica.url)).toEqual({ один: false, два: false });

  // A course deleted with everyone's marks on it outdates what is kept of everyone's.
  expect((await favourite('CANDIDATE', one)).status).toBeLessThan(300);
  expect(await marks()).toEqual({ один: true, два: false });
  expect((await api(bed.content.url, 'DELETE', `/api/courses/${one.id}`, { token: token('ADMIN') })).status).toBeLessThan(300);
  expect(await marksRead(async () => expect(await marks()).toEqual({ два: false }))).toEqual(['course_marks.find']);
});

it('a course page asked again reads nothing of the course, and a change or an unpublishing through another replica shows at once', async () => {
  const title = uniqueTitle('Страница курса');
  const course = (
    await api<Course>(bed.content.url, 'POST', '/api/courses', { token: token('ADMIN'), body: { title, status: 'published' } })
  ).body;
  const page = (url = bed.content.url) => api<Course>(url, 'GET', `/api/courses/${course.id}`, { token: token('CANDIDATE') });
  const change = async (body: Record<string, unknown>) => {
    const path = `/api/courses/${course.id}`;
    const answer = await api(replica.url, 'PATCH', path, { token: token('ADMIN'), body: await basedOnStored(bed, path, body) });
    expect(answer.status).toBe(200);
  };
  expect((await page()).body.title).toBe(title);
  const again = await storeOperationsDuring(bed.content, async () => expect((await page()).body.title).toBe(title));
  expect(again.filter((op) => op.startsWith('courses.'))).toEqual([]);

  await change({ title: `${title} (новое)` });
  expect((await page()).body.title).toBe(`${title} (новое)`);
  // Unpublished, it is gone for the learner here at once, and the outline the progress service asks for too.
  await change({ status: 'draft' });
  expect((await page()).status).toBe(404);
  expect((await api(bed.content.url, 'GET', `/api/courses/${course.id}/outline`, { token: token('CANDIDATE') })).status).toBe(
    404,
  );
  await change({ status: 'published' });
  expect((await page()).status).toBe(200);
});
