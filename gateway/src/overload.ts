import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { MSG, SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import { serviceFor } from './routes';

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The answer the gateway gives when it refuses a request without reading it (an overload, a body too large). */
export const refuse = (
  req: IncomingMessage,
  res: ServerResponse,
  statusCode: number,
  message: string,
  headers: OutgoingHttpHeaders = {},
) => {
  if (res.headersSent) return void res.end();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
  // A body still arriving would sit on the keep-alive socket in front of the client's next request.
  // A request without a body keeps its connection: `complete` is still false while its handler runs
  // (node marks it after the headers are handled), and closing there made every refused GET of a
  // burst open a new connection.
  if (hasBody(req) && !req.complete) {
    res.setHeader('Connection', 'close');
    closeAfterTheBody(req);
  }
  // Node's own answer, not Express's: a refusal may come before Express has seen the request.
  const body = JSON.stringify({ message, statusCode });
  res.statusCode = statusCode;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
};

/** How much of a refused body is read and dropped, and for how long, before its connection closes (nginx's lingering_close). */
export const LINGER = { bytes: 64 * 1024 * 1024, ms: 30_000, idleMs: 5_000 };

/**
 * Closes the connection of a refused request once its client has sent the rest of the body, as
 * nginx's lingering close does: the answer and a FIN go out at once, the rest of the body is read
 * and dropped (at most LINGER.bytes, for LINGER.ms, LINGER.idleMs without a byte), then the socket
 * closes. Node would close it as soon as the answer was out, with the client's bytes unread: the
 * kernel then resets the connection, and a client still sending (node's fetch, a browser's upload)
 * sees EPIPE or «fetch failed» instead of the answer.
 */
function closeAfterTheBody(req: IncomingMessage) {
  const socket = req.socket;
  let dropped = 0;
  // Past the bounds the answer may be cut too (a client that never reads it).
  const deadline = setTimeout(() => socket.destroy(), LINGER.ms);
  socket.once('close', () => clearTimeout(deadline));
  // Once the answer and the FIN are out.
  const close = () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()));
  // Node ends an answer sent with `Connection: close` by socket.destroySoon(): end it only (the FIN
  // after the answer), and keep reading until the body is in.
  socket.destroySoon = () => void socket.end();
  socket.setTimeout(LINGER.idleMs, close);
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER.bytes) close();
  });
  req.once('end', close);
  req.resume(); // a body the proxy unpiped when it counted past the limit is paused
}

/**
 * The quiz path: opening a quiz's card, starting an attempt, saving its answers and submitting it, and a SCORM
 * attempt's opening and commits. At 10:00 three hundred people start the same certification test;
 * what they send must get through before browsing does.
 */
const EXAM_PATHS: Array<[method: string, path: RegExp]> = [
  ['GET', /^\/api\/attempts\/quiz\/[^/]+\/?$/],
  ['POST', /^\/api\/attempts\/?$/],
  ['POST', /^\/api\/attempts\/[^/]+\/submit\/?$/],
  ['PUT', /^\/api\/attempts\/[^/]+\/answers\/?$/],
  ['POST', /^\/api\/scorm\/attempts\/?$/],
  ['POST', /^\/api\/scorm\/attempts\/[^/]+\/commit\/?$/],
];
export const isExamRequest = (method: string, path: string): boolean =>
  EXAM_PATHS.some(([m, pattern]) => m === method && pattern.test(path));

/** The share of the gateway's whole budget that all other requests may use: the rest is the quiz path's alone. */
export const SHED_SHARE = 0.75;

/**
 * Bounds the requests in flight, with the quiz path first. Past a bound the gateway answers 503 at
 * once with Retry-After: a service already working through its requests only gets slower with more,
 * and a queue in front of it ends in 504s for everyone. Counted until the answer is sent or the
 * client goes away, whichever comes first.
 *
 * - Any request but the quiz path: at most `perService` toward one service, and refused first when
 *   the whole gateway carries `SHED_SHARE` of `total`.
 * - The quiz path: refused only when the whole gateway carries `total`, whatever service it goes to.
 *
 * So a quiz start is never refused while browsing is served: by the time one is, every other
 * request has been refused for a while.
 */
export function limitInFlight(perService: number, total = 4 * perService) {
  const inFlight = Object.fromEntries(SERVICE_NAMES.map((name) => [name, 0])) as Record<ServiceName, number>;
  const shedAt = Math.floor(total * SHED_SHARE);
  let all = 0;
  /**
   * Whether the request at `path` (its URL without the query) may go on. When it may not, it has been
   * answered 503 with Retry-After and `headers`.
   */
  const admit = (req: IncomingMessage, res: ServerResponse, path: string, headers: OutgoingHttpHeaders = {}): boolean => {
    const service = serviceFor(path);
    if (!service) return true;
    const method = req.method ?? 'GET';
    const refused = isExamRequest(method, path) ? all >= total : inFlight[service] >= perService || all >= shedAt;
    if (refused) {
      refuse(req, res, 503, MSG.overloaded, { ...headers, 'Retry-After': '1' });
      return false;
    }
    inFlight[service]++;
    all++;
    res.once('close', () => {
      inFlight[service]--;
      all--;
    });
    return true;
  };
  return { admit };
}
