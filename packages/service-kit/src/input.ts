import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context, Next } from 'koa';
import { MSG, malformedRequestAnswer } from '@portal/contracts';
import { HttpError, unsupportedMedia } from './errors';

/** Deeper JSON than this is no document of the portal's; walking it would only cost the server. */
export const MAX_JSON_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text the store can keep as it was sent: no NUL (the PostgreSQL backend refuses it) and no lone
 * surrogate (the driver would silently store U+FFFD in its place).
 */
export const isStorableText = (text: string): boolean => !text.includes('\0') && !LONE_SURROGATE.test(text);

export const badCharacters = () => new HttpError(400, MSG.badCharacters, 'bad_characters');

/** Decodes one component of a URL strictly: malformed percent-encoding or bad text is refused. */
const decodedOrRefused = (component: string): string => {
  let text: string;
  try {
    text = decodeURIComponent(component);
  } catch {
    throw badCharacters();
  }
  if (!isStorableText(text)) throw badCharacters();
  return text;
};

/** The path and every query key and value, as any route would read them. */
const checkUrl = (ctx: Context) => {
  decodedOrRefused(ctx.path);
  if (!ctx.querystring) return;
  for (const pair of ctx.querystring.split('&')) decodedOrRefused(pair.replace(/\+/g, ' '));
};

/**
 * Every key and string of a parsed JSON body, walked without recursion so that no nesting can
 * exhaust the stack; past MAX_JSON_DEPTH the body is refused as malformed.
 */
export const checkJsonBody = (body: unknown): void => {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: body, depth: 0 }];
  while (pending.length) {
    const { value, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) throw badCharacters();
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) throw new HttpError(400, MSG.badJson, 'too_deep');
      for (const [key, item] of Object.entries(value)) {
        if (!isStorableText(key)) throw badCharacters();
        pending.push({ value: item, depth: depth + 1 });
      }
    }
  }
};

/** Before the body is read: the URL's text, and a body of a type no route reads is refused. */
export const guardRequest = async (ctx: Context, next: Next) => {
  checkUrl(ctx);
  // An empty POST (`Content-Length: 0`, as fetch sends for a call without a body) has no type to check.
  const hasBody = ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length')) > 0;
  if (hasBody && !ctx.is('json', '+json', 'multipart')) throw unsupportedMedia(MSG.jsonOnly);
  await next();
};

/** After the JSON body is parsed, before any route reads it. */
export const guardJsonBody = async (ctx: Context, next: Next) => {
  if (ctx.request.body !== undefined) checkJsonBody(ctx.request.body);
  await next();
};

/** How much of a refused body is read and dropped so its sender can finish and read the answer. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 5_000;

/** Reads and drops the rest of a request body; false when it is larger or slower than the bounds. */
function drainBody(req: IncomingMessage): Promise<boolean> {
  if (req.complete || req.destroyed) return Promise.resolve(req.complete);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', ended);
      req.off('error', failed);
      req.off('close', closed);
      resolve(drained);
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish(false);
    };
    const ended = () => finish(true);
    const failed = () => finish(false);
    const closed = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), DRAIN_MAX_MS);
    req.on('data', count);
    req.once('end', ended);
    req.once('error', failed);
    req.once('close', closed);
    req.resume();
  });
}

/**
 * A request whose body was refused half-read (413, a bad gzip stream, an early 401 on an upload)
 * leaves the rest of that body on the socket; a keep-alive client (the gateway's agent) would send
 * its next request behind it and wait forever. The rest is read and dropped before the answer goes
 * (within bounds), so the sender finishes writing and reads the answer instead of a reset
 * connection; when it is too large or too slow, the connection is closed after the answer.
 */
export const closeUnreadConnections = async (ctx: Context, next: Next) => {
  try {
    await next();
  } finally {
    if (!ctx.req.complete && !ctx.headerSent && !(await drainBody(ctx.req))) ctx.set('Connection', 'close');
  }
};

/**
 * A request node's parser refuses before Koa sees it (a URL or headers over 16 KB, a broken request
 * line) gets the same `{message, statusCode}` in Russian as any other refusal, not a bare status.
 */
export function answerMalformedRequests(server: Server): Server {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As node's own handler: an answer already under way on this socket cannot be followed by another.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    socket.end(malformedRequestAnswer(err.code));
  });
  return server;
}
