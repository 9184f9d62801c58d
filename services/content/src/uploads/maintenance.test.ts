import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UploadedFile } from '@portal/contracts';
import type { ManagedProcess } from '@portal/devstack/processes';
import { ferretdbPath, startFerretDB } from '@portal/devstack/store';
import { api } from '@portal/devstack/testing';
import { freePort } from '@portal/devstack/util';
import { createLogger } from '@portal/service-kit';
import { contentModels } from '../models';
import { seedCourse, startContent, startContentReplica, type ContentTestBed } from '../testing';
import { migrateLocalUploads } from './maintenance';
import { FILES_BUCKET, objectStoresOf } from '../storage';
import { UploadStore } from './store';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);

async function upload(
  url: string,
  token: string,
  data = PNG,
  filename = 'схема.png',
  route = 'file?accept=image',
): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', new Blob([data]), filename);
  const res = await fetch(`${url}/api/upload/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as UploadedFile;
}

const gridNames = async (bed: ContentTestBed) =>
  (await bed.content.ctx.store.db!.collection(`${FILES_BUCKET}.files`).find({}).project({ _id: 1 }).toArray()).map((f) =>
    String(f._id),
  );

describe('files no lesson refers to', () => {
  let bed: ContentTestBed;
  beforeAll(async () => {
    // A grace period and a sweep interval of a second, so the periodic sweep of the process is seen at work.
    bed = await startContent({ UPLOAD_ORPHAN_GRACE_SECONDS: '5', UPLOAD_SWEEP_INTERVAL_SECONDS: '1' });
  });
  afterAll(() => bed?.close());

  it('are deleted by the periodic sweep once older than the grace period; files in a lesson stay', async () => {
    const token = bed.as.CURATOR.token;
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    const lesson = course.modules[0].lessons[0];
    const quiz = await api(bed.content.url, 'POST', '/api/quizzes', { token, body: { title: 'Отчёт', courseId: course.id } });
    // Uploaded, then at once put in a lesson (well within the grace period), as the editor does.
    const used = await upload(bed.content.url, token, PNG, 'в уроке.png');
    const orphan = await upload(bed.content.url, token, PNG, 'забытый.png');
    const saved = await api(bed.content.url, 'PATCH', `/api/blocks/${lesson.id}`, {
      token,
      body: {
        content: JSON.stringify([
          { type: 'image', content: { src: used.url, alt: 'Схема' } },
          { type: 'quiz', content: { quizId: quiz.body.id } },
        ]),
        version: lesson.version,
      },
    });
    expect(saved.status).toBe(200);
    // A learner's answer to a file_upload question: no lesson names it, its attempt does.
    const answer = await upload(bed.content.url, bed.as.CLIENT.token, PNG, 'ответ.png', `answer?quizId=${quiz.body.id}`);
    const asUploader = (file: UploadedFile) => ({
      authorization: `Bearer ${file === answer ? bed.as.CLIENT.token : token}`,
    });

    // Within the grace period both are served (the author may not have saved the lesson yet).
    expect((await fetch(`${bed.content.url}${orphan.url}`, { headers: asUploader(orphan) })).status).toBe(200);
    // The sweep deletes the stored bytes, then the record: wait for the whole of it.
    // A file read while the sweep deletes its bytes ends with the connection cut: not swept yet, ask again.
    const statusOf = async (url: string) => {
      try {
        const res = await fetch(url, { headers: asUploader(orphan) });
        await res.arrayBuffer();
        return res.status;
      } catch {
        return 0;
      }
    };
    const swept = async () =>
      (await statusOf(`${bed.content.url}${orphan.url}`)) === 404 &&
      (await bed.models.uploads.exists({ _id: orphan.name })) === null &&
      !(await gridNames(bed)).includes(orphan.name);
    const deadline = Date.now() + 20_000;
    while (!(await swept())) {
      if (Date.now() > deadline) throw new Error('the orphan file was not swept');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const file of [used, answer]) {
      const kept = await fetch(`${bed.content.url}${file.url}`, { headers: asUploader(file) });
      expect(kept.status).toBe(200);
      expect(Buffer.from(await kept.arrayBuffer()).equals(PNG)).toBe(true);
    }
  });
});

describe('at start', () => {
  let bed: ContentTestBed;
  beforeAll(async () => {
    bed = await startContent();
  });
  afterAll(() => bed?.close());

  it('moves files left on the local upload folder into the store, once, and serves them', async () => {
    const name = `${randomUUID()}.png`;
    const stray = `${randomUUID()}.png`; // nobody described it: never served, left alone
    writeFileSync(path.join(bed.uploadDir, name), PNG);
    writeFileSync(path.join(bed.uploadDir, stray), PNG);
    await bed.models.uploads.create({
      _id: name,
      originalName: 'старая схема.png',
      mimeType: 'image/png',
      kind: 'image',
      size: PNG.length,
      uploadedBy: bed.as.CURATOR.user.id,
    });

    // A replica starting is what moves it.
    const replica = await startContentReplica(bed);
    try {
      expect(existsSync(path.join(bed.uploadDir, name))).toBe(false);
      expect(existsSync(path.join(bed.uploadDir, stray))).toBe(true);
      const served = await fetch(`${replica.url}/api/files/${name}`, {
        headers: { range: 'bytes=0-7', authorization: `Bearer ${bed.as.CURATOR.token}` },
      });
      expect(served.status).toBe(206);
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG.subarray(0, 8))).toBe(true);
      expect((await gridNames(bed)).filter((n) => n === name)).toHaveLength(1);
    } finally {
      await replica.close();
    }
    // Again: nothing left to move, nothing stored twice.
    const store = new UploadStore(
      { dir: bed.uploadDir, maxBytes: 1024, maxFiles: 1 },
      objectStoresOf(bed.content.ctx.config, bed.content.ctx.store).files,
    );
    const again = await migrateLocalUploads(bed.models, store, createLogger('test', 'silent'));
    expect(again).toEqual({ moved: [], unknown: 1 });
    expect((await gridNames(bed)).filter((n) => n === name)).toHaveLength(1);
  });

  it('creates its indexes and keeps those it does not know (another version of the service may need them)', async () => {
    const blocks = bed.content.ctx.store.db!.collection('blocks');
    await blocks.createIndex({ title: 1, position: 1 }, { name: 'next_version_index' });
    const replica = await startContentReplica(bed);
    await replica.close();
    const names = (await blocks.indexes()).map((i) => i.name);
    expect(names).toContain('next_version_index');
    expect(names).toContain('courseId_1_type_1_position_1');
  });
});

/*
 * GridFS on FerretDB's SQLite backend (the store of these tests is FerretDB on PostgreSQL: the other
 * tests prove that one). A FerretDB of our own, on a temporary folder.
 */
describe('on FerretDB with the SQLite backend', () => {
  const binary = ferretdbPath();
  let ferret: ManagedProcess;
  let dir: string;
  let bed: ContentTestBed;
  beforeAll(async () => {
    if (!binary) throw new Error('ferretdb is not installed: the launcher installs it (npm start)');
    dir = mkdtempSync(path.join(tmpdir(), 'ferret-sqlite-'));
    const port = await freePort();
    ferret = await startFerretDB(binary, port, dir, `ferretdb-sqlite-${port}`);
    bed = await startContent({ MONGO_URL: `mongodb://127.0.0.1:${port}/` });
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
    await ferret?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stores an upload in GridFS and serves it whole and by ranges', async () => {
    const data = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0]), Buffer.alloc(300 * 1024, 5)]);
    for (let i = 9; i < data.length; i += 997) data[i] = i % 251;
    const form = new FormData();
    form.append('file', new Blob([data]), 'лекция.mp3');
    const res = await fetch(`${bed.content.url}/api/upload/file?accept=audio`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bed.as.CURATOR.token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const file = (await res.json()) as UploadedFile;
    expect(readdirSync(bed.uploadDir).filter((n) => !n.startsWith('.'))).toEqual([]);
    const authorization = `Bearer ${bed.as.CURATOR.token}`;
    const whole = await fetch(`${bed.content.url}${file.url}`, { headers: { authorization } });
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
    const start = 255 * 1024 - 3;
    const part = await fetch(`${bed.content.url}${file.url}`, {
      headers: { range: `bytes=${start}-${start + 9}`, authorization },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(start, start + 10))).toBe(true);
    expect(await contentModels(bed.content.ctx.store).uploads.countDocuments({})).toBe(1);
  });
});
