import { randomBytes } from 'node:crypto';
import { CONTENT_MSG, formatMessage, type UploadedFile } from '@portal/contracts';
import { userWithRole } from '@portal/svc-auth/testing';
import { startContent, startContentReplica, type ContentTestBed } from '../../testing';

/*
 * Two content replicas on the same store and Redis: a file uploaded through one is served, by byte
 * ranges, through the other; the quota and the rate limit are the same whichever replica is asked.
 */

const QUOTA = 1024 * 1024;
const RATE = 4;
let bed: ContentTestBed;
let other: Awaited<ReturnType<typeof startContentReplica>>;

beforeAll(async () => {
  const env = { UPLOAD_QUOTA_BYTES: String(QUOTA), UPLOAD_RATE_LIMIT: String(RATE) };
  bed = await startContent(env);
  other = await startContentReplica(bed, env);
});
afterAll(async () => {
  await other?.close();
  await bed?.close();
});

/** An MP3 by its first bytes (ID3), `size` bytes long, the rest random so every range is told apart. */
const mp3 = (size: number) => Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0]), randomBytes(size - 9)]);

async function upload(url: string, token: string, data: Buffer, filename = 'запись.mp3') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  const res = await fetch(`${url}/api/upload/file?accept=audio`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as UploadedFile & { message?: string } };
}

it('a file uploaded through one replica is served whole and by byte ranges through the other', async () => {
  // Larger than one GridFS chunk (255 KiB), so a range may start in one chunk and end in the next.
  const data = mp3(600 * 1024);
  const uploaded = await upload(bed.content.url, bed.as.CURATOR.token, data);
  expect(uploaded.status).toBe(201);
  // In no lesson yet: its uploader's, read with a token.
  const asUploader = { authorization: `Bearer ${bed.as.CURATOR.token}` };

  const whole = await fetch(`${other.url}${uploaded.body.url}`, { headers: asUploader });
  expect(whole.status).toBe(200);
  expect(whole.headers.get('accept-ranges')).toBe('bytes');
  expect(whole.headers.get('content-type')).toBe('audio/mpeg');
  expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);

  const start = 255 * 1024 - 100;
  const end = 255 * 1024 + 4999;
  const part = await fetch(`${other.url}${uploaded.body.url}`, { headers: { ...asUploader, range: `bytes=${start}-${end}` } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${data.length}`);
  expect(part.headers.get('content-length')).toBe(String(end - start + 1));
  expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(start, end + 1))).toBe(true);

  const tail = await fetch(`${other.url}${uploaded.body.url}`, { headers: { ...asUploader, range: 'bytes=-7' } });
  expect(tail.status).toBe(206);
  expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(-7))).toBe(true);

  const beyond = await fetch(`${other.url}${uploaded.body.url}`, { headers: { ...asUploader, range: `bytes=${data.length}-` } });
  expect(beyond.status).toBe(416);
  expect(beyond.headers.get('content-range')).toBe(`bytes */${data.length}`);
  expect(((await beyond.json()) as { message: string }).message).toBe(CONTENT_MSG.rangeNotSatisfiable);
});

it('refuses an upload past the author’s quota with 413 in Russian on either replica, storing nothing; another author has their own', async () => {
  const author = await userWithRole(bed.auth, 'CURATOR', 'Куратор С Квотой');
  const first = await upload(bed.content.url, author.token, mp3(700 * 1024));
  expect(first.status).toBe(201);
  const stored = await bed.models.uploads.countDocuments({ uploadedBy: author.user.id });

  const refused = await upload(other.url, author.token, mp3(400 * 1024));
  expect(refused.status).toBe(413);
  expect(refused.body.message).toBe(formatMessage(CONTENT_MSG.uploadQuotaExceeded, { used: '0,7', quota: '1' }));
  expect(await bed.models.uploads.countDocuments({ uploadedBy: author.user.id })).toBe(stored);

  // What is left still fits; and the quota is each author's own.
  expect((await upload(other.url, author.token, mp3(300 * 1024))).status).toBe(201);
  const someoneElse = await userWithRole(bed.auth, 'CURATOR', 'Другой Автор');
  expect((await upload(bed.content.url, someoneElse.token, mp3(400 * 1024))).status).toBe(201);
});

it('refuses uploads past the rate limit with 429, Retry-After and a Russian message, counting across replicas', async () => {
  const author = await userWithRole(bed.auth, 'CURATOR', 'Быстрый Куратор');
  for (let i = 0; i < RATE; i++) {
    const url = i % 2 ? other.url : bed.content.url;
    expect((await upload(url, author.token, mp3(100))).status).toBe(201);
  }
  const before = await bed.models.uploads.countDocuments({ uploadedBy: author.user.id });
  const refused = await upload(other.url, author.token, mp3(100));
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(refused.body.message).toBe(formatMessage(CONTENT_MSG.uploadRateLimited, { seconds: retryAfter }));
  expect(await bed.models.uploads.countDocuments({ uploadedBy: author.user.id })).toBe(before);
  // Another author is not slowed down by this one.
  expect((await upload(bed.content.url, bed.as.ADMIN.token, mp3(100))).status).toBe(201);
});
