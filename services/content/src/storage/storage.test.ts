import { Readable } from 'node:stream';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CONTENT_MSG } from '@portal/contracts';
import { restartS3Server, startS3Server, type S3Server } from '@portal/devstack/objectStorage';
import { startContent, type ContentTestBed } from '../testing';
import { FILES_BUCKET, objectStoresOf, type ObjectStore } from '.';

/**
 * The object-store interface against its two real backends: GridFS in the test store, and the S3 API
 * of a real SeaweedFS server started here. The same checks run on both; then the content service
 * itself runs on S3 (an upload stored and served, a package played), and the S3 server is stopped
 * mid-upload.
 */
let s3: S3Server;
let gridBed: ContentTestBed;
let s3Bed: ContentTestBed;
const BUCKET = 'portal-test';

const s3Env = (server: S3Server) => ({
  STORAGE_BACKEND: 's3',
  S3_ENDPOINT: server.endpoint,
  S3_BUCKET: BUCKET,
  S3_ACCESS_KEY_ID: server.accessKeyId,
  S3_SECRET_ACCESS_KEY: server.secretAccessKey,
});
const rawClient = () =>
  new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });

beforeAll(async () => {
  // The GridFS bed starts while the S3 server does.
  [gridBed, s3Bed] = await Promise.all([
    startContent(),
    (async () => {
      s3 = await startS3Server();
      await rawClient().send(new CreateBucketCommand({ Bucket: BUCKET }));
      return startContent(s3Env(s3));
    })(),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([gridBed?.close(), s3Bed?.close()]);
  await s3?.process.stop('SIGKILL');
});

const bytes = (n: number, seed = 1) => {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) % 251;
  return out;
};
const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};
/** A source that sends `head`, then fails: a client that went away, a disk that failed. */
const failingAfter = (head: Buffer) =>
  Readable.from(
    (async function* () {
      yield head;
      throw new Error('the source broke off');
    })(),
    { objectMode: false },
  );

describe.each([
  ['GridFS', () => objectStoresOf(gridBed.content.ctx.config, gridBed.content.ctx.store).files],
  ['S3 (SeaweedFS)', () => objectStoresOf(s3Bed.content.ctx.config, s3Bed.content.ctx.store).files],
])('the %s backend', (_name, storeOf: () => ObjectStore) => {
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

  it('keeps an object whole: its size, type, bytes, and any byte range', async () => {
    const store = storeOf();
    const data = bytes(300_000);
    await store.put(`${run}/a.bin`, Readable.from([data]), 'image/png');
    const stored = await store.get(`${run}/a.bin`);
    expect({ size: stored?.size, type: stored?.contentType }).toEqual({ size: data.length, type: 'image/png' });
    expect((await readAll(stored!.stream())).equals(data)).toBe(true);
    expect((await readAll(stored!.stream({ start: 1000, end: 1999 }))).equals(data.subarray(1000, 2000))).toBe(true);
    expect(await store.get(`${run}/none.bin`)).toBeNull();
  });

  it('lists keys in order, page by page after a key, under a prefix; removes several, a missing one too', async () => {
    const store = storeOf();
    const keys = ['b', 'a', 'd', 'c', 'e'].map((k) => `${run}/list/${k}.txt`);
    for (const key of keys) await store.put(key, Readable.from([Buffer.from(key)]), 'text/plain');
    await store.put(`${run}/other.txt`, Readable.from([Buffer.from('x')]), 'text/plain');
    const first = await store.list({ prefix: `${run}/list/`, limit: 2 });
    const second = await store.list({ prefix: `${run}/list/`, startAfter: first[1].key, limit: 10 });
    expect([...first, ...second].map((o) => o.key)).toEqual([...keys].sort());
    expect(first[0].modifiedAt.getTime()).toBeGreaterThan(Date.now() - 5 * 60_000);
    await store.remove([keys[0], keys[1], `${run}/list/never.txt`]);
    expect((await store.list({ prefix: `${run}/list/`, limit: 10 })).map((o) => o.key)).toEqual(keys.slice(2).sort());
  });

  it('a write whose source breaks off leaves nothing under its key', async () => {
    const store = storeOf();
    // Past S3's 5 MB part: the first part is sent before the source fails.
    await expect(store.put(`${run}/broken.bin`, failingAfter(bytes(6 * 1024 * 1024)), 'application/zip')).rejects.toThrow();
    expect(await store.get(`${run}/broken.bin`)).toBeNull();
    expect(await store.list({ prefix: `${run}/broken`, limit: 10 })).toEqual([]);
  });
});

describe('the content service on S3', () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), bytes(5000)]);
  const uploadPng = async (bed: ContentTestBed) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'схема.png');
    const res = await fetch(`${bed.content.url}/api/upload/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bed.as.CURATOR.token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { url: string; name: string; message?: string } };
  };
  const bucketKeys = async (prefix: string) =>
    ((await rawClient().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key);

  it('stores an upload in the bucket (not in the store) and serves it, whole and by range', async () => {
    const uploaded = await uploadPng(s3Bed);
    expect(uploaded.status).toBe(201);
    expect(await bucketKeys(`${FILES_BUCKET}/${uploaded.body.name}`)).toEqual([`${FILES_BUCKET}/${uploaded.body.name}`]);
    const gridFiles = await s3Bed.content.ctx.store.db!.collection(`${FILES_BUCKET}.files`).countDocuments({});
    expect(gridFiles).toBe(0);
    const auth = { authorization: `Bearer ${s3Bed.as.CURATOR.token}` };
    const whole = await fetch(`${s3Bed.content.url}${uploaded.body.url}`, { headers: auth });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(PNG)).toBe(true);
    const part = await fetch(`${s3Bed.content.url}${uploaded.body.url}`, { headers: { ...auth, range: 'bytes=8-15' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(PNG.subarray(8, 16))).toBe(true);
  });

  it('the S3 server stopped in the middle of a write: that write fails as 503, uploads meanwhile get a Russian 503 and keep nothing; after a restart nothing is half-stored and uploads work', async () => {
    const store = objectStoresOf(s3Bed.content.ctx.config, s3Bed.content.ctx.store).files;
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const midway = new Promise<void>((resolve) => (reached = resolve));
    const source = Readable.from(
      (async function* () {
        yield bytes(6 * 1024 * 1024); // a first part, taken by the upload…
        reached();
        await held; // …then the server stops before the rest
        yield bytes(1024 * 1024, 2);
      })(),
      { objectMode: false },
    );
    const outcome = store.put('midway.bin', source, 'application/octet-stream').then(
      () => 'stored',
      (err: { statusCode?: number; message?: string }) => `${err.statusCode} ${err.message}`,
    );
    await midway;
    const described = await s3Bed.models.uploads.countDocuments({});
    await s3.process.stop('SIGKILL');
    release();
    try {
      expect(await outcome).toBe(`503 ${CONTENT_MSG.fileStorageUnavailable}`);
      const refused = await uploadPng(s3Bed);
      expect({ status: refused.status, message: refused.body.message }).toEqual({
        status: 503,
        message: CONTENT_MSG.fileStorageUnavailable,
      });
      expect(await s3Bed.models.uploads.countDocuments({})).toBe(described);
    } finally {
      s3 = await restartS3Server(s3);
    }
    expect(await store.get('midway.bin')).toBeNull();
    expect(await bucketKeys(`${FILES_BUCKET}/midway`)).toEqual([]);
    expect((await uploadPng(s3Bed)).status).toBe(201);
  }, 120_000);
});
