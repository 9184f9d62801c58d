import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BSON, Binary, Double, GridFSBucket, Int32, Long, MongoClient, ObjectId, type Document } from 'mongodb';
import { SERVICE_NAMES } from '@portal/contracts';
import { FILES_BUCKET } from '@portal/svc-content/storage';
import { backup, BackupError, restore } from './backup';
import { uniquePrefix } from './testing';

const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';

let client: MongoClient;
let dir: string;
const source = uniquePrefix();
const target = uniquePrefix();
const fileBytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));

/** A few documents of each service's own collections, with every value type the services store. */
async function seedPortal(): Promise<void> {
  const userId = new ObjectId();
  const courseId = new ObjectId();
  const auth = client.db(`${source}auth`);
  await auth.collection('users').insertMany([
    {
      _id: userId,
      email: 'ivanova@example.ru',
      fullName: 'Иванова Мария',
      role: 'ADMIN',
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
    },
    { _id: new ObjectId(), email: 'petrov@example.ru', fullName: 'Петров Пётр', role: 'STUDENT', blocked: false },
  ]);
  await auth.collection('users').createIndex({ email: 1 }, { unique: true, name: 'email_1' });
  await auth.collection('sessions').insertOne({ _id: new ObjectId(), userId, expiresAt: new Date() });

  const content = client.db(`${source}content`);
  await content.collection('courses').insertOne({
    _id: courseId,
    title: 'Охрана труда',
    tags: ['безопасность', 'обязательный'],
    modules: [{ _id: new ObjectId(), title: 'Введение', order: new Int32(1) }],
    weight: new Double(2),
    views: Long.fromString('9007199254740993'),
    version: 3,
  });
  await content.collection('courses').createIndex({ authorId: 1, updatedAt: -1 }, { name: 'author_updated' });
  // An uploaded file, as the content service stores one: its bytes in GridFS chunks, its name the id.
  const bucket = new GridFSBucket(content, { bucketName: FILES_BUCKET, chunkSizeBytes: 16 * 1024 });
  const upload = bucket.openUploadStreamWithId('a1b2c3.png' as never, 'a1b2c3.png', { metadata: { mimeType: 'image/png' } });
  await new Promise<void>((resolve, reject) => upload.once('finish', resolve).once('error', reject).end(fileBytes));
  await content
    .collection('uploads')
    .insertOne({ _id: 'a1b2c3.png' as never, size: fileBytes.length, digest: new Binary(Buffer.from('sha')) });

  await client
    .db(`${source}progress`)
    .collection('attempts')
    .insertMany(Array.from({ length: 25 }, (_, i) => ({ userId, courseId, score: i, answers: [{ q: i, a: [i % 3] }] })));
  await client.db(`${source}crm`).collection('organizations').insertOne({ name: 'ООО «Ромашка»', contacts: [] });
  await client.db(`${source}audit`).collection('audit_records').insertOne({ action: 'LOGIN', at: new Date(), details: 'Вход' });
  // A collection with no documents still comes back.
  await client.db(`${source}audit`).createCollection('audit_outbox');
}

/** Every collection of every service's databases under a prefix: its documents (as canonical EJSON, by _id) and indexes. */
async function snapshot(prefix: string): Promise<Record<string, { documents: string[]; indexes: Document[] }>> {
  const result: Record<string, { documents: string[]; indexes: Document[] }> = {};
  for (const service of SERVICE_NAMES) {
    const db = client.db(`${prefix}${service}`);
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      const documents = (await db.collection(name).find().toArray()).map((doc) => BSON.EJSON.stringify(doc, { relaxed: false }));
      const indexes = (await db.collection(name).listIndexes().toArray())
        .map(({ key, name: ixName, unique }) => ({ key, name: ixName, unique: !!unique }))
        .sort((a, b) => a.name.localeCompare(b.name));
      result[`${service}.${name}`] = { documents: documents.sort(), indexes };
    }
  }
  return result;
}

const dropAll = async (prefix: string) => {
  for (const service of SERVICE_NAMES) await client.db(`${prefix}${service}`).dropDatabase();
};

beforeAll(async () => {
  client = await MongoClient.connect(MONGO_URL);
  dir = mkdtempSync(path.join(tmpdir(), 'portal-backup-'));
  await seedPortal();
});

afterAll(async () => {
  await dropAll(source);
  await dropAll(target);
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  const archive = () => path.join(dir, 'portal.ndjson.gz');

  it('brings every collection of every service back, document by document, with its indexes and the uploaded file', async () => {
    const written = await backup({ mongoUrl: MONGO_URL, dbPrefix: source, file: archive(), batchSize: 7 });
    expect(written.counts['progress.attempts']).toBe(25);
    expect(written.counts['content.files.chunks']).toBe(5); // 70 000 bytes in 16 KiB chunks

    const manifest = JSON.parse(gunzipSync(readFileSync(archive())).toString('utf8').split('\n')[0]);
    expect(manifest).toMatchObject({ kind: 'manifest', format: 'portal-backup/1', portalVersion: expect.any(String) });

    // Small batches, so that the restore crosses batch boundaries inside a collection.
    const restored = await restore({ mongoUrl: MONGO_URL, dbPrefix: target, file: archive(), batchDocuments: 4 });
    expect(restored.counts).toEqual(written.counts);
    expect(restored.replaced).toEqual([]);

    const before = await snapshot(source);
    const after = await snapshot(target);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after).toEqual(before);
    expect(after['audit.audit_outbox'].documents).toEqual([]);
    expect(after['auth.users'].indexes).toContainEqual({ key: { email: 1 }, name: 'email_1', unique: true });

    // The file reads back through GridFS as the content service reads it.
    const bucket = new GridFSBucket(client.db(`${target}content`), { bucketName: FILES_BUCKET });
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStream('a1b2c3.png' as never)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(fileBytes)).toBe(true);

    // The restored unique index is in force.
    await expect(client.db(`${target}auth`).collection('users').insertOne({ email: 'ivanova@example.ru' })).rejects.toThrow(
      /duplicate key/i,
    );
  });

  it("refuses a store that holds the portal's data, in Russian, and replaces it only with force", async () => {
    await client.db(`${target}crm`).collection('organizations').insertOne({ name: 'Лишняя' });
    const refusal = restore({ mongoUrl: MONGO_URL, dbPrefix: target, file: archive() });
    await expect(refusal).rejects.toThrow(BackupError);
    await expect(refusal).rejects.toThrow(/уже есть данные портала.*--force/s);
    expect(await client.db(`${target}crm`).collection('organizations').countDocuments({ name: 'Лишняя' })).toBe(1);

    const forced = await restore({ mongoUrl: MONGO_URL, dbPrefix: target, file: archive(), force: true });
    expect(forced.replaced).toContain(`${target}crm`);
    expect(await client.db(`${target}crm`).collection('organizations').countDocuments({ name: 'Лишняя' })).toBe(0);
    expect(await snapshot(target)).toEqual(await snapshot(source));
  });

  it('refuses a file that is not an archive and notices an archive cut short', async () => {
    const notGzip = path.join(dir, 'notes.txt');
    writeFileSync(notGzip, 'просто текст');
    await expect(restore({ mongoUrl: MONGO_URL, dbPrefix: target, file: notGzip, force: true })).rejects.toThrow(
      /не архив резервной копии портала/,
    );

    // The archive without its end line: the counts cannot be checked, so the restore says so.
    const lines = gunzipSync(readFileSync(archive())).toString('utf8').trimEnd().split('\n');
    const cut = path.join(dir, 'cut.ndjson.gz');
    writeFileSync(cut, gzipSync(`${lines.slice(0, -1).join('\n')}\n`));
    await expect(restore({ mongoUrl: MONGO_URL, dbPrefix: target, file: cut, force: true })).rejects.toThrow(/обрезан/);

    // A gzip stream that stops half way.
    const half = path.join(dir, 'half.ndjson.gz');
    const bytes = readFileSync(archive());
    writeFileSync(half, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(restore({ mongoUrl: MONGO_URL, dbPrefix: target, file: half, force: true })).rejects.toThrow(/обрезан/);
  });
});
