import express from 'express';
import compression from 'compression';
import { request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressAnswers } from './compressAnswers';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

const SMALL = JSON.stringify({ items: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Охрана труда, урок ${i}` })) });
const LARGE = JSON.stringify({ items: Array.from({ length: 3000 }, (_, i) => ({ id: i, title: `Охрана труда, урок ${i}` })) });

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(compression({ threshold: 1024 }));
  app.use(compressAnswers({ threshold: 1024, max: 64 * 1024 }));
  // As the proxy sends a service's answer: the headers set, then the body in pieces.
  const inPieces = (body: string, headers: Record<string, string | number>) => (_req: express.Request, res: express.Response) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const bytes = Buffer.from(body);
    const half = Math.floor(bytes.length / 2);
    res.write(bytes.subarray(0, half));
    res.end(bytes.subarray(half));
  };
  const json = 'application/json; charset=utf-8';
  app.get('/small', inPieces(SMALL, { 'content-type': json, 'content-length': Buffer.byteLength(SMALL) }));
  app.get('/large', inPieces(LARGE, { 'content-type': json, 'content-length': Buffer.byteLength(LARGE) }));
  app.get('/chunked', inPieces(SMALL, { 'content-type': json }));
  app.get('/csv', inPieces(SMALL, { 'content-type': 'text/csv; charset=utf-8', 'content-length': Buffer.byteLength(SMALL) }));
  app.get(
    '/no-transform',
    inPieces(SMALL, { 'content-type': json, 'content-length': Buffer.byteLength(SMALL), 'cache-control': 'no-transform' }),
  );
  app.get('/tiny', (_req, res) => res.json({ ok: true }));
  app.get('/sent', (_req, res) => res.json(JSON.parse(SMALL)));
  app.get('/not-modified', (_req, res) => res.status(304).end());
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = ({ headers, body }: Answer) =>
  headers['content-encoding'] === 'br'
    ? brotliDecompressSync(body).toString('utf8')
    : headers['content-encoding'] === 'gzip'
      ? gunzipSync(body).toString('utf8')
      : body.toString('utf8');

describe('compressing a JSON answer of a known length in one call', () => {
  it('sends brotli to a browser, whatever order it names the encodings in, with the compressed length declared', async () => {
    expect(Buffer.byteLength(SMALL)).toBeGreaterThan(1024);
    const answer = await get('/small', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.headers['content-encoding']).toBe('br');
    // Compressed whole, so its length is known before the first byte: no chunked transfer.
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(SMALL) / 3);
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(decoded(answer)).toBe(SMALL);
  });

  it('sends gzip to a client that takes only gzip, and the answer as it is to one that takes neither', async () => {
    const gzip = await get('/small', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    expect(decoded(gzip)).toBe(SMALL);

    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ]) {
      const plain = await get('/small', headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString('utf8')).toBe(SMALL);
    }
  });

  it('compresses an answer Express sends in one piece (the gateway’s own routes)', async () => {
    const answer = await get('/sent', { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(answer))).toEqual(JSON.parse(SMALL));
  });

  it('leaves a longer answer, one of unknown length and another type to the streaming compression, and each still arrives whole', async () => {
    const large = await get('/large', { 'accept-encoding': 'br' });
    expect(Buffer.byteLength(LARGE)).toBeGreaterThan(64 * 1024);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers['transfer-encoding']).toBe('chunked');
    expect(decoded(large)).toBe(LARGE);

    const chunked = await get('/chunked', { 'accept-encoding': 'gzip' });
    expect(chunked.headers['content-encoding']).toBe('gzip');
    expect(chunked.headers['transfer-encoding']).toBe('chunked');
    expect(decoded(chunked)).toBe(SMALL);

    const csv = await get('/csv', { 'accept-encoding': 'gzip' });
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    expect(decoded(csv)).toBe(SMALL);
  });

  it('never compresses an answer marked no-transform, a small one, a 304 or an answer to HEAD', async () => {
    const kept = await get('/no-transform', { 'accept-encoding': 'br' });
    expect(kept.headers['content-encoding']).toBeUndefined();
    expect(kept.body.toString('utf8')).toBe(SMALL);

    const tiny = await get('/tiny', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(tiny.body.toString('utf8'))).toEqual({ ok: true });

    const notModified = await get('/not-modified', { 'accept-encoding': 'br' });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);

    const head = await get('/small', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});
