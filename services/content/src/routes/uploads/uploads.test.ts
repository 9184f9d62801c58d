import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONSENT_MSG, CONTENT_MSG, MSG, type UploadedFile } from '@portal/contracts';
import { userWithRole } from '@portal/svc-auth/testing';
import { api } from '@portal/devstack/testing';
import { auditEventsFor, seedCourse, startContent, type ContentTestBed } from '../../testing';
import { FILES_BUCKET, objectStoresOf } from '../../storage';
import { UploadStore } from '../../uploads/store';
import { parseRange } from '.';

let bed: ContentTestBed;
const MAX_BYTES = 64 * 1024;
beforeAll(async () => {
  bed = await startContent({ UPLOAD_MAX_BYTES: String(MAX_BYTES), UPLOAD_MAX_FILES: '3' });
});
afterAll(() => bed.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0]), Buffer.alloc(300, 1)]);
const TEXT = Buffer.from('Просто текст, а не картинка');

type Part = { name: string; data: Buffer; filename: string; type?: string };
async function upload(
  route: 'file' | 'files' | 'answer',
  parts: Part[],
  { token = bed.as.CURATOR.token, accept, query = '' }: { token?: string | null; accept?: string; query?: string } = {},
) {
  const form = new FormData();
  for (const p of parts)
    form.append(p.name, new Blob([new Uint8Array(p.data)], { type: p.type ?? 'application/octet-stream' }), p.filename);
  const res = await fetch(`${bed.content.url}/api/upload/${route}${accept ? `?accept=${accept}` : query}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const fetchFile = (url: string, headers: Record<string, string> = {}) => fetch(`${bed.content.url}${url}`, { headers });
/** A file read as its uploader, the test bed's curator (a file no published lesson shows needs a token). */
const asCurator = () => ({ authorization: `Bearer ${bed.as.CURATOR.token}` });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A published course whose published lesson holds a quiz a learner may take: `?quizId=` of an answer. */
async function answerableQuiz() {
  const course = await seedCourse(bed, { modules: [1], status: 'published' });
  const quiz = await api(bed.content.url, 'POST', '/api/quizzes', {
    token: bed.as.CURATOR.token,
    body: { title: 'Отчёт', courseId: course.id },
  });
  const lesson = course.modules[0].lessons[0];
  const held = await api(bed.content.url, 'PATCH', `/api/blocks/${lesson.id}`, {
    token: bed.as.CURATOR.token,
    body: { content: [{ type: 'quiz', content: { quizId: quiz.body.id } }], version: lesson.version },
  });
  expect(held.status).toBe(200);
  return { course, quizId: quiz.body.id as string, lessonId: lesson.id };
}
/** The names of the files in the store (GridFS), as any replica sees them. */
const storedFiles = async () =>
  (await bed.content.ctx.store.db!.collection(`${FILES_BUCKET}.files`).find({}).project({ _id: 1 }).toArray()).map((f) =>
    String(f._id),
  );

describe('POST /api/upload/answer (a learner’s file for a file_upload question)', () => {
  it('keeps a learner’s file like any upload, served only as a download; refuses authors and anonymous callers', async () => {
    const { quizId } = await answerableQuiz();
    const given = await upload('answer', [{ name: 'file', data: TEXT, filename: 'акт.txt', type: 'text/plain' }], {
      token: bed.as.CANDIDATE.token,
      query: `?quizId=${quizId}`,
    });
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({
      url: expect.stringMatching(/^\/api\/files\/[0-9a-f-]{36}\.txt$/),
      originalName: 'акт.txt',
    });
    const served = await fetchFile(given.body.url, bearer(bed.as.CANDIDATE.token));
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
    const before = (await storedFiles()).length;
    expect((await upload('answer', [{ name: 'file', data: TEXT, filename: 'a.txt' }], { token: null })).status).toBe(401);
    const staff = await upload('answer', [{ name: 'file', data: TEXT, filename: 'a.txt' }], { token: bed.as.CURATOR.token });
    expect(staff).toEqual({ status: 403, body: expect.objectContaining({ message: MSG.forbidden }) });
    const empty = await upload('answer', [{ name: 'file', data: Buffer.alloc(0), filename: 'a.txt' }], {
      token: bed.as.CLIENT.token,
      query: `?quizId=${quizId}`,
    });
    expect(empty.body).toMatchObject({ statusCode: 400, message: CONTENT_MSG.uploadEmpty });
    expect(await storedFiles()).toHaveLength(before);
  });

  it('refuses anyone without the consent in force, whatever their role, before looking at the quiz', async () => {
    const { quizId } = await answerableQuiz();
    const before = (await storedFiles()).length;
    const file = [{ name: 'file', data: TEXT, filename: 'акт.txt', type: 'text/plain' }];
    const learner = await userWithRole(bed.auth, 'CLIENT', 'Учащийся Без Согласия', { consent: false });
    const curator = await userWithRole(bed.auth, 'CURATOR', 'Куратор Без Согласия', { consent: false });

    const refused = [
      await upload('answer', file, { token: learner.token, query: `?quizId=${quizId}` }),
      await upload('answer', file, { token: curator.token, query: `?quizId=${quizId}` }),
    ];

    for (const answer of refused)
      expect(answer).toEqual({ status: 403, body: expect.objectContaining({ message: CONSENT_MSG.neededToStudy }) });
    expect(await storedFiles()).toHaveLength(before);
  });
});

describe('POST /api/upload/file', () => {
  it('answers 401 without a token and 403 to learners, keeping nothing', async () => {
    const before = (await storedFiles()).length;
    expect((await upload('file', [{ name: 'file', data: PNG, filename: 'a.png' }], { token: null })).status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      const refused = await upload('file', [{ name: 'file', data: PNG, filename: 'a.png' }], { token: bed.as[role].token });
      expect(refused).toEqual({ status: 403, body: expect.objectContaining({ message: MSG.forbidden }) });
    }
    expect(await storedFiles()).toHaveLength(before);
  });

  it('answers 400 without a file, with the wrong field, with an empty file or a bad accept value', async () => {
    const before = (await storedFiles()).length;
    const none = await upload('file', []);
    expect(none).toEqual({ status: 400, body: expect.objectContaining({ message: CONTENT_MSG.uploadMissing, field: 'file' }) });
    const wrongField = await upload('file', [{ name: 'image', data: PNG, filename: 'a.png' }]);
    expect(wrongField.body).toMatchObject({ statusCode: 400, message: 'Ошибка загрузки файла: ожидается поле «file»' });
    const empty = await upload('file', [{ name: 'file', data: Buffer.alloc(0), filename: 'a.png' }]);
    expect(empty.body).toMatchObject({ statusCode: 400, message: CONTENT_MSG.uploadEmpty });
    expect((await upload('file', [{ name: 'file', data: PNG, filename: 'a.png' }], { accept: 'pdf' })).status).toBe(400);
    expect(await storedFiles()).toHaveLength(before);
    expect(readdirSync(path.join(bed.uploadDir, '.incoming'))).toEqual([]);
  });

  it('stores an image in the store (GridFS) and serves it back inline with its detected type', async () => {
    const answer = await upload('file', [{ name: 'file', data: PNG, filename: 'схема.png', type: 'image/png' }], {
      accept: 'image',
    });
    expect(answer.status).toBe(201);
    const body = answer.body as UploadedFile;
    expect(body).toMatchObject({
      url: expect.stringMatching(/^\/api\/files\/[0-9a-f-]{36}\.png$/),
      originalName: 'схема.png',
      size: PNG.length,
      mimeType: 'image/png',
    });
    expect(await storedFiles()).toContain(body.name);
    // Nothing stays on the local disk: another replica could not serve it.
    expect(readdirSync(bed.uploadDir).filter((n) => !n.startsWith('.'))).toEqual([]);
    expect(await bed.models.uploads.findById(body.name).lean()).toMatchObject({
      kind: 'image',
      mimeType: 'image/png',
      uploadedBy: bed.as.CURATOR.user.id,
    });

    const served = await fetchFile(body.url, asCurator());
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await auditEventsFor(bed.content, body.name))[0]).toMatchObject({
      action: 'create',
      actor: expect.objectContaining({ id: bed.as.CURATOR.user.id }),
    });
  });

  it('checks the content, not the name: text named .png is refused for an image block with 415', async () => {
    const before = (await storedFiles()).length;
    const answer = await upload('file', [{ name: 'file', data: TEXT, filename: 'photo.png', type: 'image/png' }], {
      accept: 'image',
    });
    expect(answer).toEqual({ status: 415, body: expect.objectContaining({ message: CONTENT_MSG.uploadBadType }) });
    expect(answer.body.message.startsWith(CONTENT_MSG.uploadFailed)).toBe(true);
    const audioAsVideo = await upload('file', [{ name: 'file', data: MP3, filename: 'clip.mp4' }], { accept: 'video' });
    expect(audioAsVideo.status).toBe(415);
    expect((await upload('file', [{ name: 'file', data: MP3, filename: 'track' }], { accept: 'audio' })).body.mimeType).toBe(
      'audio/mpeg',
    );
    expect(await storedFiles()).toHaveLength(before + 1);
  });

  it('takes any type for a file block and serves it only as a download', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const answer = await upload('file', [{ name: 'file', data: html, filename: 'Отчёт 2026.html', type: 'text/html' }]);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      mimeType: 'application/octet-stream',
      originalName: 'Отчёт 2026.html',
      url: expect.stringMatching(/\.html$/),
    });
    const served = await fetchFile(answer.body.url, asCurator());
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toMatch(
      /^attachment; .*filename\*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%202026\.html$/,
    );
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(await served.text()).toBe(html.toString());
  });

  it('refuses a file over the size limit with 413 and keeps no part of it', async () => {
    const before = (await storedFiles()).length;
    const answer = await upload('file', [{ name: 'file', data: Buffer.alloc(MAX_BYTES + 1, 1), filename: 'big.bin' }]);
    expect(answer).toEqual({ status: 413, body: expect.objectContaining({ message: CONTENT_MSG.uploadTooLarge }) });
    expect(await storedFiles()).toHaveLength(before);
    expect(readdirSync(path.join(bed.uploadDir, '.incoming'))).toEqual([]);
    expect((await upload('file', [{ name: 'file', data: Buffer.alloc(MAX_BYTES, 1), filename: 'exact.bin' }])).status).toBe(201);
  });
});

describe('POST /api/upload/files', () => {
  it('answers 401, 403 and 400', async () => {
    expect((await upload('files', [{ name: 'files', data: PNG, filename: 'a.png' }], { token: null })).status).toBe(401);
    expect(
      (await upload('files', [{ name: 'files', data: PNG, filename: 'a.png' }], { token: bed.as.CLIENT.token })).status,
    ).toBe(403);
    expect((await upload('files', [{ name: 'file', data: PNG, filename: 'a.png' }])).body).toMatchObject({
      statusCode: 400,
      field: 'files',
    });
  });

  it('stores several files and answers a list of urls', async () => {
    const answer = await upload(
      'files',
      [
        { name: 'files', data: PNG, filename: 'one.png' },
        { name: 'files', data: MP3, filename: 'two.mp3' },
      ],
      { accept: 'media' },
    );
    expect(answer.status).toBe(201);
    expect((answer.body as UploadedFile[]).map((f) => [f.originalName, f.mimeType])).toEqual([
      ['one.png', 'image/png'],
      ['two.mp3', 'audio/mpeg'],
    ]);
    for (const f of answer.body as UploadedFile[]) expect((await fetchFile(f.url, asCurator())).status).toBe(200);
  });

  it('keeps none when one file is of the wrong type, or when there are too many', async () => {
    const before = (await storedFiles()).length;
    const mixed = await upload(
      'files',
      [
        { name: 'files', data: PNG, filename: 'one.png' },
        { name: 'files', data: TEXT, filename: 'two.png' },
      ],
      { accept: 'image' },
    );
    expect(mixed.status).toBe(415);
    const tooMany = await upload(
      'files',
      Array.from({ length: 4 }, (_, i) => ({ name: 'files', data: PNG, filename: `${i}.png` })),
    );
    expect(tooMany).toEqual({ status: 413, body: expect.objectContaining({ message: CONTENT_MSG.uploadTooMany }) });
    expect(await storedFiles()).toHaveLength(before);
  });
});

describe('who reads a stored file (docs/decisions/027)', () => {
  it('a learner’s answer file: 401 without a token; the learner, the course’s authors and ADMIN read it, never cached; nobody else', async () => {
    const { course, quizId } = await answerableQuiz();
    const given = await upload('answer', [{ name: 'file', data: TEXT, filename: 'ответ.txt' }], {
      token: bed.as.CLIENT.token,
      query: `?quizId=${quizId}`,
    });
    expect(given.status).toBe(201);
    const url = given.body.url as string;
    const anonymous = await fetchFile(url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('Просто текст');
    const otherCurator = await userWithRole(bed.auth, 'CURATOR', 'Чужой Куратор');
    for (const token of [bed.as.CANDIDATE.token, bed.as.MANAGER.token, otherCurator.token]) {
      const refused = await fetchFile(url, bearer(token));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ message: CONTENT_MSG.fileForbidden });
    }
    for (const token of [bed.as.CLIENT.token, bed.as.CURATOR.token, bed.as.ADMIN.token]) {
      const read = await fetchFile(url, bearer(token));
      expect(read.status).toBe(200);
      expect(read.headers.get('cache-control')).toBe('private, no-store');
      expect(await read.text()).toBe(TEXT.toString());
    }
    expect(await bed.models.uploads.findById(given.body.name).lean()).toMatchObject({
      purpose: 'answer',
      quizId,
      courseId: course.id,
    });
  });

  it('an answer names a quiz the learner may take: none is 400, one they cannot see is 404, and nothing is kept', async () => {
    const before = (await storedFiles()).length;
    const none = await upload('answer', [{ name: 'file', data: TEXT, filename: 'a.txt' }], { token: bed.as.CLIENT.token });
    expect(none.body).toMatchObject({ statusCode: 400, message: CONTENT_MSG.answerQuizRequired });
    const draft = await seedCourse(bed, { modules: [1] });
    const hidden = await api(bed.content.url, 'POST', '/api/quizzes', {
      token: bed.as.CURATOR.token,
      body: { title: 'Черновой', courseId: draft.id },
    });
    const unseen = await upload('answer', [{ name: 'file', data: TEXT, filename: 'a.txt' }], {
      token: bed.as.CLIENT.token,
      query: `?quizId=${hidden.body.id}`,
    });
    expect(unseen.status).toBe(404);
    expect(await storedFiles()).toHaveLength(before);
  });

  it('a lesson’s file is public and briefly cacheable only while a learner of a published course is shown it', async () => {
    const { body: image } = await upload('file', [{ name: 'file', data: PNG, filename: 'схема.png' }], { accept: 'image' });
    // Just uploaded, held by no lesson: its uploader's (and ADMIN's) only.
    expect((await fetchFile(image.url)).status).toBe(401);
    expect((await fetchFile(image.url, bearer(bed.as.CLIENT.token))).status).toBe(403);
    expect((await fetchFile(image.url, asCurator())).headers.get('cache-control')).toBe('private, no-store');

    const course = await seedCourse(bed, { modules: [1] });
    const lesson = course.modules[0].lessons[0];
    const held = await api(bed.content.url, 'PATCH', `/api/blocks/${lesson.id}`, {
      token: bed.as.CURATOR.token,
      body: { content: [{ type: 'image', content: { src: image.url, alt: 'Схема' } }], version: lesson.version },
    });
    expect(held.status).toBe(200);
    // A draft course: its authors read the file, a learner does not.
    expect((await fetchFile(image.url)).status).toBe(401);
    expect((await fetchFile(image.url, bearer(bed.as.CLIENT.token))).status).toBe(403);
    expect((await fetchFile(image.url, bearer(bed.as.ADMIN.token))).status).toBe(200);

    const courseVersion = (await bed.models.courses.findById(course.id).lean())?.version;
    await api(bed.content.url, 'PATCH', `/api/courses/${course.id}`, {
      token: bed.as.CURATOR.token,
      body: { status: 'published', version: courseVersion },
    });
    const open = await fetchFile(image.url);
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await open.arrayBuffer()).equals(PNG)).toBe(true);

    await api(bed.content.url, 'PATCH', `/api/courses/${course.id}`, {
      token: bed.as.CURATOR.token,
      body: { status: 'draft', version: (courseVersion ?? 0) + 1 },
    });
    expect((await fetchFile(image.url)).status).toBe(401);
  });
});

describe('GET /api/files/{name}', () => {
  it('answers 404 for unknown or malformed names', async () => {
    expect((await fetchFile('/api/files/00000000-0000-4000-8000-000000000000.png')).status).toBe(404);
    expect((await fetchFile('/api/files/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await fetchFile('/api/files/readme.txt')).status).toBe(404);
  });

  it('serves byte ranges so media can seek', async () => {
    const { body } = await upload('file', [{ name: 'file', data: MP3, filename: 'track.mp3' }], { accept: 'audio' });
    const part = await fetchFile(body.url, { range: 'bytes=0-9', ...asCurator() });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${MP3.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(MP3.subarray(0, 10))).toBe(true);
    const tail = await fetchFile(body.url, { range: 'bytes=-5', ...asCurator() });
    expect(Buffer.from(await tail.arrayBuffer()).equals(MP3.subarray(-5))).toBe(true);
    const beyond = await fetchFile(body.url, { range: `bytes=${MP3.length}-`, ...asCurator() });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${MP3.length}`);
  });

  it('parses the range forms it supports', () => {
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=2-100', 10)).toEqual({ start: 2, end: 9 });
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseRange('bytes=8-2', 10)).toBe('unsatisfiable');
    expect(parseRange(undefined, 10)).toBeNull();
  });
});

describe('unfinished uploads', () => {
  it('are swept from the scratch folder when they are old, and left alone while they may be in flight', async () => {
    const store = new UploadStore(
      { dir: bed.uploadDir, maxBytes: MAX_BYTES, maxFiles: 3 },
      objectStoresOf(bed.content.ctx.config, bed.content.ctx.store).files,
    );
    const incoming = path.join(bed.uploadDir, '.incoming');
    writeFileSync(path.join(incoming, 'stale'), 'x');
    writeFileSync(path.join(incoming, 'fresh'), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(path.join(incoming, 'stale'), twoHoursAgo, twoHoursAgo);
    expect(await store.sweepIncoming()).toBe(1);
    expect(readdirSync(incoming)).toEqual(['fresh']);
    expect(await store.sweepIncoming(-1)).toBe(1); // any age at all
  });
});
