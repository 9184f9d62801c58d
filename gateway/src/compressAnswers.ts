import accepts from 'accepts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The encodings an answer is compressed into here, best first. */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

/** brotli at the compression middleware's quality (4): a JSON answer of a few KB in about 40 µs. */
const compressors: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body),
};

type Write = ServerResponse['write'];
type End = ServerResponse['end'];
type Callback = (error?: Error | null) => void;

/**
 * A JSON answer whose length the service declared, from `threshold` to `max` bytes, compressed in
 * one synchronous call once the whole of it has arrived, as the client accepts (brotli, else gzip).
 * The `compression` middleware, which must run before this one, opens a zlib stream per answer:
 * its set-up, a round trip through the thread pool and its events cost about four times the
 * compressing itself for the API's answers of a few KB (decision 113). That middleware still
 * compresses every other answer (one without a length, a longer one), passes this one as it is
 * (already encoded), and adds `Vary: Accept-Encoding` to every JSON answer, this one included.
 * Node's own request and response are enough: the gateway sends most API requests past Express.
 */
export function compressAnswers({ threshold, max }: { threshold: number; max: number }) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.method === 'HEAD') return next();
    // Ours first, whatever order the client lists them in (a browser names gzip before br).
    const negotiated = accepts(req);
    const encoding = ENCODINGS.find((e) => negotiated.encodings(e) === e);
    if (!encoding) return next();
    const write = res.write;
    const end = res.end;
    // undefined: not decided yet (no byte of the answer seen); null: passed on as it comes.
    let chunks: Buffer[] | null | undefined;
    const decide = () => {
      if (chunks !== undefined) return chunks;
      chunks = kept(res, threshold, max) ? [] : null;
      if (chunks === null) {
        res.write = write;
        res.end = end;
      }
      return chunks;
    };
    const hold = (held: Buffer[], chunk: unknown, chunkEncoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      held.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : typeof chunk === 'string'
            ? Buffer.from(chunk, typeof chunkEncoding === 'string' ? (chunkEncoding as BufferEncoding) : 'utf8')
            : Buffer.from(chunk as Uint8Array),
      );
    };
    res.write = function (this: ServerResponse, chunk: unknown, chunkEncoding?: unknown, callback?: unknown) {
      const held = decide();
      if (held === null) return (write as (...args: unknown[]) => boolean).apply(this, [chunk, chunkEncoding, callback]);
      hold(held, chunk, chunkEncoding);
      const done = typeof chunkEncoding === 'function' ? chunkEncoding : callback;
      if (typeof done === 'function') process.nextTick(done as Callback);
      return true;
    } as Write;
    res.end = function (this: ServerResponse, chunk?: unknown, chunkEncoding?: unknown, callback?: unknown) {
      const held = decide();
      if (held === null) return (end as (...args: unknown[]) => ServerResponse).apply(this, [chunk, chunkEncoding, callback]);
      hold(held, chunk, chunkEncoding);
      const body = compressors[encoding](Buffer.concat(held));
      res.write = write;
      res.end = end;
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', body.length);
      const done = [chunk, chunkEncoding, callback].find((a) => typeof a === 'function') as Callback | undefined;
      return (end as (...args: unknown[]) => ServerResponse).apply(this, done ? [body, done] : [body]);
    } as End;
    next();
  };
}

/** Whether an answer, its headers set and none of its bytes written yet, is compressed here. */
function kept(res: ServerResponse, threshold: number, max: number): boolean {
  if (res.headersSent || res.statusCode === 204 || res.statusCode === 304) return false;
  if (res.getHeader('Content-Encoding') !== undefined) return false;
  if (!/^application\/(.+\+)?json\b/i.test(String(res.getHeader('Content-Type') ?? ''))) return false;
  if (/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))) return false;
  const length = Number(res.getHeader('Content-Length'));
  return Number.isInteger(length) && length >= threshold && length <= max;
}
