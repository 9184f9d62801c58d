import { gunzipSync } from 'node:zlib';
import type { BlockRecord } from '@portal/contracts';
import { api, rawGet, storeOperationsDuring } from '@portal/devstack/testing';
import { basedOnStored, seedCourse, startContent, startContentReplica, type ContentTestBed } from '../../testing';

// GET /api/blocks/{id} is kept per course version (src/commands/lessonCache.ts). A second content
// process on the same databases stands for another replica: every write through it is seen at once here.
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

const admin = () => bed.as.ADMIN.token;
const learner = () => bed.as.CLIENT.token;
const read = (token: string, id: string, headers: Record<string, string> = {}) =>
  api<BlockRecord>(bed.content.url, 'GET', `/api/blocks/${id}`, { token, headers });
// Each write is based on the version stored just before it, as the editor's is on what it read.
const write = async (path: string, body: Record<string, unknown>) =>
  api(replica.url, 'PATCH', path, { token: admin(), body: await basedOnStored(bed, path, body) });
const text = (answer: { body: BlockRecord }) => JSON.parse(answer.body.content as string)[0]?.content?.text;

it('a lesson asked again costs one store read, and every write through another replica is seen at once', async () => {
  const course = await seedCourse(bed, { token: admin(), modules: [2] });
  await write(`/api/courses/${course.id}`, { isPublished: true });
  const [lesson, other] = course.modules[0].lessons;
  await write(`/api/blocks/${lesson.id}`, { content: JSON.stringify([{ type: 'text', content: 'Первая редакция' }]) });

  const first = await read(learner(), lesson.id);
  expect(first.status).toBe(200);
  expect(text(first)).toBe('Первая редакция');
  const again = await storeOperationsDuring(bed.content, async () =>
    expect(text(await read(learner(), lesson.id))).toBe('Первая редакция'),
  );
  expect(again).toEqual(['courses.findOne']);

  // Edited, then its ETag names the new version.
  await write(`/api/blocks/${lesson.id}`, { content: JSON.stringify([{ type: 'text', content: 'Вторая редакция' }]) });
  const edited = await read(learner(), lesson.id);
  expect(text(edited)).toBe('Вторая редакция');
  expect(edited.headers.get('etag')).toBe(`"${edited.body.version}"`);
  expect(edited.body.version).toBe(first.body.version + 1);

  // Hidden (the lesson, then its module), the course unpublished: learners are told 404 at once, staff still read it.
  await write(`/api/blocks/${other.id}`, { status: 'hidden' });
  expect((await read(learner(), other.id)).status).toBe(404);
  expect((await read(admin(), other.id)).status).toBe(200);
  await write(`/api/blocks/${course.modules[0].id}`, { status: 'hidden' });
  expect((await read(learner(), lesson.id)).status).toBe(404);
  expect((await read(admin(), lesson.id)).status).toBe(200);
  await write(`/api/blocks/${course.modules[0].id}`, { status: 'published' });
  expect((await read(learner(), lesson.id)).status).toBe(200);
  await write(`/api/courses/${course.id}`, { isPublished: false });
  expect((await read(learner(), lesson.id)).status).toBe(404);

  // Deleted: gone for everyone, also from the process that kept it.
  await api(replica.url, 'DELETE', `/api/blocks/${lesson.id}`, { token: admin() });
  const deleted = await read(admin(), lesson.id);
  expect(deleted.status).toBe(404);
  expect(deleted.body).toMatchObject({ message: 'Блок не найден' });
});

it('is sent gzipped when asked (the same bytes), plain otherwise', async () => {
  const course = await seedCourse(bed, { token: admin(), modules: [1] });
  const lesson = course.modules[0].lessons[0];
  const long = Array.from({ length: 40 }, (_, i) => ({ type: 'text', content: `Абзац ${i} о технике безопасности` }));
  await write(`/api/blocks/${lesson.id}`, { content: JSON.stringify(long) });
  const path = `${bed.content.url}/api/blocks/${lesson.id}`;
  const plain = await rawGet(path, { authorization: `Bearer ${admin()}` });
  const zipped = await rawGet(path, { authorization: `Bearer ${admin()}`, 'accept-encoding': 'gzip, deflate, br' });
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(zipped.headers['content-encoding']).toBe('gzip');
  expect(zipped.headers['content-type']).toContain('application/json');
  expect(gunzipSync(zipped.bytes).toString()).toBe(plain.bytes.toString());
  expect(JSON.parse(plain.bytes.toString())).toMatchObject({ id: lesson.id, version: 1 });
});
