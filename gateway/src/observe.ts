import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { httpDuration, metricsText } from '@portal/service-kit';
import { FRONTEND_FOLDERS } from './remotes';
import { ROUTE_TABLE } from './routes';

const REQUEST_ID = /^[\w-]{1,100}$/;
/** The gateway's own routes, answered here rather than by a service. */
/** Asked every few seconds by an orchestrator: counted, not logged. */
const PROBES = new Set(['/healthz', '/readyz']);
const OWN_ROUTES = new Set(['/healthz', '/readyz', '/api/health', '/api/dashboard/stats', '/remotes.json']);

/**
 * A request's route for the metrics and the access log, from a bounded set: a route of the gateway's
 * own, the public prefix of the service that answers it (the service's metrics have its route
 * templates), a front end's files, or a page of the shell.
 */
export const routeOf = (path: string): string => {
  if (OWN_ROUTES.has(path)) return path;
  for (const { prefix } of ROUTE_TABLE) if (path === prefix || path.startsWith(`${prefix}/`)) return `${prefix}/*`;
  if (path.startsWith('/api/')) return '/api/*';
  for (const dir of FRONTEND_FOLDERS) if (path.startsWith(`/mf/${dir}/`)) return `/mf/${dir}/*`;
  return 'page';
};

const USER_ID = /^[\w-]{1,64}$/;
/**
 * The user a bearer token names (its `sub`), read without checking the signature: the service that
 * answered checked it, so it is only logged when the answer was not a 401. The token itself never is.
 */
export const claimedUser = (authorization: string | undefined): string | undefined => {
  if (!authorization?.startsWith('Bearer ')) return undefined;
  const payload = authorization.split('.')[1];
  if (!payload) return undefined;
  try {
    const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub;
    return typeof sub === 'string' && USER_ID.test(sub) ? sub : undefined;
  } catch {
    return undefined;
  }
};

/**
 * First on every request, before Express sees it: its id (the caller's when well formed; the proxy
 * and the dashboard's calls pass it on from the request's headers); its duration under its route;
 * and one access line when it ends (method, route, path without the query, status, duration,
 * request id, user id). `path` is the request's URL without its query. No AsyncLocalStorage here:
 * on Node 20 it costs every promise of every request (about 35 µs of CPU a request at the gateway,
 * measured), and the gateway has the request at hand wherever it calls out.
 */
export function observeRequests(logger: Logger, { accessLog = true }: { accessLog?: boolean } = {}) {
  return (req: IncomingMessage, res: ServerResponse, path: string) => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.once('close', () => {
      const route = routeOf(path);
      const method = req.method ?? 'GET';
      // A response cut off before its end (the client left) is counted as 499, as nginx does.
      const status = res.writableFinished ? res.statusCode : 499;
      const ms = performance.now() - started;
      httpDuration.observe({ route, method, status }, ms / 1000);
      if (!accessLog || PROBES.has(path)) return;
      const userId = status === 401 ? undefined : claimedUser(req.headers.authorization);
      logger.info({ method, route, path, status, ms: Math.round(ms * 10) / 10, requestId, userId }, 'access');
    });
  };
}

/** The metrics listener of the gateway (its own port, never the public one): GET /metrics, nothing else. */
export const metricsListener = (req: IncomingMessage, res: ServerResponse): void => {
  if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
    res.statusCode = 404;
    res.end();
    return;
  }
  metricsText().then(
    ({ contentType, body }) => {
      res.setHeader('Content-Type', contentType);
      res.end(body);
    },
    () => {
      res.statusCode = 500;
      res.end();
    },
  );
};
