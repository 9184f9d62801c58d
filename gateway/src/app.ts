import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import compression from 'compression';
import helmet from 'helmet';
import { createHash } from 'node:crypto';
import { Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import {
  CONTENT_MSG,
  MSG,
  PAGE_BOOT_SCRIPT,
  SCORM_FILES_PATH,
  SCORM_LIMITS,
  SCORM_MSG,
  VIDEO_EMBED_ORIGINS,
  formatMessage,
  type ServiceName,
} from '@portal/contracts';
import {
  Upstreams,
  answerMalformedRequests,
  asUpstream,
  collectProcessMetrics,
  failedToConnect,
  retriable,
} from '@portal/service-kit';
import type { GatewayConfig } from './config';
import { dashboardStats } from './dashboard';
import { curatorHistory } from './dashboard/history';
import { subjectRequestRoutes } from './privacy';
import { readinessMonitor } from './health';
import { openApiRoutes } from './openapi';
import { observeRequests } from './observe';
import { precompressedStatic } from './precompressed';
import { compressAnswers } from './compressAnswers';
import { limitInFlight, refuse } from './overload';
import { FRONTEND_FOLDERS, remotesManifest } from './remotes';
import { proxiedDirectly, serviceFor } from './routes';

type Targets = Record<ServiceName, Upstreams>;
/** What the proxy learns about a request on the way: where it went, and why it was cut short. */
interface ProxyMarks {
  upstream?: string;
  retried?: boolean;
  timedOut?: boolean;
  tooLarge?: boolean;
  /** The client went away before its answer; the upstream request was ended with it. */
  abandoned?: boolean;
}

const CROSS_SITE = 'Запросы с другого сайта запрещены';

const sendError = (res: Response, statusCode: number, message: string) => {
  if (res.headersSent) return void res.end();
  res.status(statusCode).json({ message, statusCode });
};

export const targetsOf = (config: GatewayConfig): Targets => ({
  auth: new Upstreams(config.AUTH_URL),
  content: new Upstreams(config.CONTENT_URL),
  progress: new Upstreams(config.PROGRESS_URL),
  crm: new Upstreams(config.CRM_URL),
  audit: new Upstreams(config.AUDIT_URL),
});

/** One answer for requests node's parser refuses, shared with the services. */
export { answerMalformedRequests };

/**
 * The gateway's server as the edge: what a service is to the gateway (`asUpstream`: malformed
 * requests answered, an idle socket kept longer than a browser, a load balancer or a test's fetch
 * keeps one, so a client never sends a request down a socket being closed), and two minutes for a
 * request (an upload on a slow line).
 */
export function asEdge(server: Server): Server {
  server.requestTimeout = 120_000;
  return asUpstream(server);
}

// A precompressed twin (.br, .gz) is cached as its original is.
const HASHED = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg|webp)(\.br|\.gz)?$/;

/** The shell's page with the landing pre-rendered in it (`hostConfig`'s `landing`), served for `/`. */
const LANDING_PAGE = 'landing.html';
/** A Content-Security-Policy source allowing exactly the page's boot script. */
export const PAGE_BOOT_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(PAGE_BOOT_SCRIPT).digest('base64')}'`;

export function createGateway(config: GatewayConfig, logger: Logger) {
  const app = express();
  app.disable('x-powered-by');
  collectProcessMetrics('gateway');
  // What TRUST_PROXY believes decides req.ip, req.protocol and req.host: the same-origin check below
  // and the address the services' login limits count (sent on as the only X-Forwarded-For entry).
  app.set('trust proxy', config.TRUST_PROXY);
  const targets = targetsOf(config);
  // Without keep-alive toward the services, node proxies collapse to a few hundred requests/s.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 60_000 });
  const allowedOrigins = new Set(
    config.ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  );

  // The gateway's own probes (container HEALTHCHECK, Kubernetes): it is alive and ready once it
  // listens. The services' readiness is /api/health's business, so one service down never takes
  // the gateway, and with it the other services, out of a load balancer.
  app.get(['/healthz', '/readyz'], (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok', service: 'gateway' });
  });

  // The package origin (SCORM_ORIGIN) is this gateway under another name: there, package files only.
  // Its pages share that origin with each other, so neither the portal nor /api is ever answered there.
  const packageHost = config.SCORM_ORIGIN ? new URL(config.SCORM_ORIGIN).host : null;
  if (packageHost) {
    app.use((req, res, next) => {
      if (req.host?.toLowerCase() !== packageHost || req.path.startsWith(`${SCORM_FILES_PATH}/`)) return next();
      sendError(res, 404, SCORM_MSG.packageHostOnly);
    });
  }

  const portalHeaders = headersOf(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // The portal's files, and the shell page's one inline script by its hash.
          scriptSrc: ["'self'", PAGE_BOOT_SCRIPT_SOURCE],
          // styled-components injects <style> elements at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Lessons play media from the portal and from the origins the administrator lists (MEDIA_ORIGINS);
          // the client reads this policy to say when a source is not allowed, instead of a black box.
          imgSrc: ["'self'", 'data:', 'blob:', ...config.MEDIA_ORIGINS],
          mediaSrc: ["'self'", 'blob:', ...config.MEDIA_ORIGINS],
          // YouTube, RuTube and VK Video links are shown as those hosts' players, and nothing else is framed.
          // …and the portal's own SCORM package files (/scorm/…, on SCORM_ORIGIN when set), played in a sandboxed frame.
          frameSrc: ["'self'", ...(config.SCORM_ORIGIN ? [config.SCORM_ORIGIN] : []), ...VIDEO_EMBED_ORIGINS],
          connectSrc: ["'self'"],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          // The portal may be served over plain http on a private network; never rewrite its URLs.
          upgradeInsecureRequests: null,
        },
      },
      hsts: { maxAge: 31_536_000, includeSubDomains: true },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
    }),
  );
  // A SCORM package's files carry the content service's own policy (a sandbox, frame-ancestors 'self'):
  // the portal's policy, X-Frame-Options and resource policy would replace it or keep the player from framing them.
  const packageHeaders = headersOf(
    helmet({
      contentSecurityPolicy: false,
      xFrameOptions: false,
      crossOriginResourcePolicy: false,
      crossOriginEmbedderPolicy: false,
      hsts: { maxAge: 31_536_000, includeSubDomains: true },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  );
  const isPackageFile = (path: string) => path.startsWith(`${SCORM_FILES_PATH}/`);
  app.use((req, res, next) => {
    for (const [name, value] of Object.entries(isPackageFile(req.path) ? packageHeaders : portalHeaders))
      res.setHeader(name, value);
    next();
  });

  // The API is same-origin only: a browser call from any other origin (or `null`) is refused.
  const crossSite = (client: Request) => {
    const origin = client.headers.origin;
    return origin !== undefined && origin !== `${client.protocol}://${client.host}` && !allowedOrigins.has(origin);
  };
  app.use('/api', (req, res, next) => {
    if (crossSite(req)) return refuse(req, res, 403, CROSS_SITE);
    next();
  });

  // API answers are never stored by a browser or a proxy, unless the service set its own caching
  // (the proxy copies the service's Cache-Control over this one).
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  // Size limits are checked before proxying: the gateway never parses bodies. A declared length
  // is checked here; a chunked body is counted as it passes (see proxyReq below).
  // Each takes a request's whole path: inside `app.use('/api', …)` that is `${req.baseUrl}${req.path}`.
  const isUpload = (path: string) => path.startsWith('/api/upload');
  // A SCORM package is bigger than any other upload: its own limit, and a megabyte for the multipart envelope.
  const isPackage = (path: string) => path === '/api/scorm/packages';
  const bodyLimitOf = (path: string) =>
    isPackage(path) ? SCORM_LIMITS.maxZipBytes + 1024 * 1024 : isUpload(path) ? config.UPLOAD_BODY_LIMIT : config.JSON_BODY_LIMIT;
  const tooLargeMessage = (path: string) =>
    isPackage(path)
      ? formatMessage(SCORM_MSG.tooBig, { max: SCORM_LIMITS.maxZipBytes / (1024 * 1024) })
      : isUpload(path)
        ? CONTENT_MSG.uploadTooLarge
        : MSG.bodyTooLarge;
  /** A declared length over the path's limit is refused before anything is sent on (true: refused). */
  const refusedForSize = (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (Number(req.headers['content-length'] ?? 0) <= bodyLimitOf(path)) return false;
    refuse(req, res, 413, tooLargeMessage(path));
    return true;
  };
  app.use('/api', (req, res, next) => {
    if (!refusedForSize(req, res, `${req.baseUrl}${req.path}`)) next();
  });

  const health = readinessMonitor(targets);
  app.get('/api/health', async (_req, res) => {
    const { ok, services, replicas } = await health.report();
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? 'ok' : 'degraded', services, ...(Object.keys(replicas).length ? { replicas } : {}) });
  });

  // JSON answers of 1 KB or more, gzip or brotli as the client accepts; smaller ones pass as they are.
  // One of a declared length up to 64 KB is compressed in one call when it has all arrived, any other
  // as it streams.
  const compressApi = compression({ threshold: 1024 });
  const compressWhole = compressAnswers({ threshold: 1024, max: 64 * 1024 });
  app.use('/api', compressApi, compressWhole);

  // The API's description: GET /api/openapi.json and the page that reads it, GET /api/docs.
  app.use(openApiRoutes());

  app.get('/api/dashboard/stats', dashboardStats(config, logger, { targets }));
  // The «История действий» of a curator is their courses' part of the trail; ADMIN's goes on to the audit service.
  app.get(['/api/audit', '/api/audit/export'], curatorHistory(targets, config.INTERNAL_TOKEN, logger));
  // Data-subject requests need every service: the export and the anonymisation are carried out here.
  app.use(subjectRequestRoutes(targets, config.INTERNAL_TOKEN, logger));

  // The client as TRUST_PROXY decided, never entries a client wrote itself. Written into the request
  // the proxy copies, not in its `proxyReq` event: that event waits for a socket of the agent, and a
  // request that waited for one (a burst) has already sent its headers by then.
  const forwardFor = (req: IncomingMessage, client: Request) => {
    req.headers['x-forwarded-for'] = client.ip ?? '';
    req.headers['x-forwarded-proto'] = client.protocol;
    req.headers['x-forwarded-host'] = client.host ?? '';
  };
  app.use((req, _res, next) => {
    if (serviceFor(req.path) !== null) forwardFor(req, req);
    next();
  });

  const proxy = createProxyMiddleware<Request, Response>({
    pathFilter: (pathname) => serviceFor(pathname) !== null,
    router: (req) => {
      const marks = req as Request & ProxyMarks;
      marks.upstream = targets[serviceFor(pathOf(req.url)) ?? 'auth'].pick(marks.upstream);
      return marks.upstream;
    },
    agent,
    on: {
      proxyReq: (proxyReq, req, res) => {
        const marks = req as Request & ProxyMarks;
        // A client that went away before its answer frees the service too: nobody will read it.
        res.once('close', () => {
          if (!res.writableFinished) {
            marks.abandoned = true;
            proxyReq.destroy();
          }
        });
        proxyReq.setTimeout(config.PROXY_TIMEOUT_MS, () => {
          marks.timedOut = true;
          proxyReq.destroy(new Error('upstream timeout'));
        });
        // A chunked body declares no length: count it as it is piped (the pipe starts in this same tick).
        if (req.headers['content-length'] === undefined && !req.complete) {
          const limit = bodyLimitOf(pathOf(req.url));
          let seen = 0;
          const count = (chunk: Buffer) => {
            seen += chunk.length;
            if (seen <= limit) return;
            req.off('data', count);
            req.unpipe(proxyReq);
            marks.tooLarge = true;
            proxyReq.destroy(new Error('request body over the limit'));
          };
          req.on('data', count);
        }
      },
      error: (err, req, res) => {
        const service = serviceFor(pathOf(req.url));
        const marks = req as Request & ProxyMarks;
        const { timedOut, tooLarge } = marks;
        if (!('setHeader' in res)) return void (res as Socket).destroy(); // an upgraded connection, not an HTTP answer
        if (marks.abandoned) return;
        if (service && marks.upstream && failedToConnect(err)) {
          targets[service].rest(marks.upstream);
          // Nothing reached that replica: an idempotent request is asked once more of another one.
          if (retriable(req.method) && !marks.retried && !res.headersSent && targets[service].urls.length > 1) {
            marks.retried = true;
            return void proxy(req as Request, res as Response, () => refuse(req, res as ServerResponse, 404, MSG.notFoundRoute));
          }
        }
        if (tooLarge) return refuse(req, res as ServerResponse, 413, tooLargeMessage(pathOf(req.url)));
        logger.warn({ service, err: err.message, requestId: req.headers['x-request-id'] }, 'proxy error');
        refuse(req as Request, res as Response, timedOut ? 504 : 503, timedOut ? MSG.serviceTimeout : MSG.serviceUnavailable);
      },
    },
  });
  app.use(proxy);

  app.use('/api', (_req, res) => sendError(res, 404, MSG.notFoundRoute));

  // Everything below (front-end files, the shell page) is compressed; API answers pass through as the services sent them.
  app.use(compression());

  // The runtime manifest: remote URLs are data, so one micro-frontend can be redeployed alone.
  app.get('/remotes.json', remotesManifest(config, logger));

  const staticOptions = {
    index: false as const,
    fallthrough: true,
    setHeaders: (res: ServerResponse, file: string) => {
      res.setHeader('Cache-Control', HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  };
  // Each front end is either served from disk or proxied to its own static container.
  const upstreams = config.STATIC_UPSTREAMS ? (JSON.parse(config.STATIC_UPSTREAMS) as Record<string, string>) : {};
  const staticProxy = (target: string) =>
    createProxyMiddleware<Request, Response>({
      target,
      agent,
      on: { error: (_err, _req, res) => sendError(res as Response, 503, MSG.serviceUnavailable) },
    });
  // From disk, a file the build compressed ahead (brotli 11 and gzip 9 beside it) is sent as it is;
  // any other is compressed above.
  const fromDisk = (root: string) => precompressedStatic(root, staticOptions);
  for (const dir of FRONTEND_FOLDERS) {
    app.use(`/mf/${dir}`, upstreams[dir] ? staticProxy(upstreams[dir]) : fromDisk(path.join(config.STATIC_ROOT, dir, 'dist')));
  }
  app.use('/mf', (_req, res) => sendError(res, 404, 'Файл не найден'));

  const shellDir = path.join(config.STATIC_ROOT, 'shell', 'dist');
  // `/` is the landing: its page holds the landing's first view when the build made one (landing.html).
  app.get('/', (req, _res, next) => {
    if (!upstreams.shell && existsSync(path.join(shellDir, LANDING_PAGE))) req.url = `/${LANDING_PAGE}`;
    next();
  });
  if (upstreams.shell) {
    // The shell container answers its files and index.html for every page route.
    app.use((req, res, next) =>
      req.method === 'GET' || req.method === 'HEAD' ? staticProxy(upstreams.shell)(req, res, next) : next(),
    );
  }
  app.use(fromDisk(shellDir));
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const index = path.join(shellDir, 'index.html');
    if (!existsSync(index)) return sendError(res, 503, 'Интерфейс ещё не собран: выполните npm start');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });

  app.use((_req: Request, res: Response) => sendError(res, 404, 'Страница не найдена'));
  app.use((err: Error & { status?: number; statusCode?: number }, req: Request, res: Response, _next: NextFunction) => {
    // A file sent from disk refuses what it cannot serve (an unsatisfiable Range, a malformed path)
    // with its own 4xx: that is the client's mistake, said in Russian, not a 500.
    const status = err.status ?? err.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return sendError(res, status, status === 416 ? MSG.rangeNotSatisfiable : MSG.malformedRequest);
    logger.error({ err, requestId: req.headers['x-request-id'] }, 'gateway error');
    sendError(res, 500, MSG.internal);
  });

  // Each request is observed and counted against the in-flight bound before Express sees it: a
  // refusal then costs the gateway no more than node's parsing and one write (no prototypes, no
  // router, no middleware), so it stays fast in a burst (bench part 'refusals').
  const observe = observeRequests(logger, { accessLog: config.ACCESS_LOG });
  const limiter = limitInFlight(config.UPSTREAM_MAX_IN_FLIGHT, config.GATEWAY_MAX_IN_FLIGHT);
  const portalRefusal = { ...portalHeaders, 'Cache-Control': 'no-store' };
  const packageRefusal = { ...packageHeaders, 'Cache-Control': 'no-store' };
  /**
   * An API request only passed on to a service goes to the proxy without Express: the same headers,
   * same-origin check, size limit, compression and forwarded headers as the middleware above, on
   * node's own request and response. Express's request and response (their prototypes swapped in per
   * request) and its router cost a proxied answer more than the proxy itself (decision 114). Who the
   * client is (`ip`, `protocol`, `host` as TRUST_PROXY believes) is read by Express's own getters, on
   * a view of the request, so both paths agree.
   */
  const clientOf = (req: IncomingMessage) =>
    Object.assign(Object.create(app.request) as Request, { headers: req.headers, socket: req.socket, connection: req.socket });
  const direct = (req: IncomingMessage, res: ServerResponse, path: string, client: Request) => {
    for (const [name, value] of Object.entries(portalHeaders)) res.setHeader(name, value);
    if (crossSite(client)) return refuse(req, res, 403, CROSS_SITE);
    res.setHeader('Cache-Control', 'no-store');
    if (refusedForSize(req, res, path)) return;
    forwardFor(req, client);
    const [request, response] = [req as Request, res as Response];
    const notFound = () => refuse(req, res, 404, MSG.notFoundRoute);
    compressApi(request, response, () => compressWhole(request, response, () => void proxy(request, response, notFound)));
  };
  const expressHandle = (app as unknown as ExpressHandle).handle.bind(app);
  (app as unknown as ExpressHandle).handle = (req, res, next) => {
    // The original contract wrote some paths with /api twice; both forms are answered alike.
    if (req.url?.startsWith('/api/api/')) req.url = req.url.slice(4);
    const path = pathOf(req.url);
    observe(req, res, path);
    if (!limiter.admit(req, res, path, isPackageFile(path) ? packageRefusal : portalRefusal)) return;
    if (req.url?.startsWith('/') && proxiedDirectly(path)) {
      const client = clientOf(req);
      // On the package origin, the API is refused by Express's first middleware.
      if (!packageHost || client.host?.toLowerCase() !== packageHost) return direct(req, res, path, client);
    }
    expressHandle(req, res, next);
  };

  return { app, agent, close: () => health.stop() };
}

/** What `app(req, res)` and `app.listen` call for every request: Express's entry, absent from its types. */
interface ExpressHandle {
  handle: (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;
}

/**
 * A request's path as the gateway routes it: the URL without its query. A request line may also name
 * the whole URL (`GET http://host/api/…`, as to a proxy): Express routes its path, so it is counted
 * by its path too.
 */
const pathOf = (url = '/') => {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.startsWith('/') || !URL.canParse(path) ? path : new URL(path).pathname;
};

/**
 * The headers a helmet middleware sets, read once: none of the gateway's depends on the request, so
 * each answer gets them by a loop instead of helmet's chain, and a refusal sent before Express
 * carries the same ones.
 */
function headersOf(middleware: RequestHandler): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
  };
  middleware({} as Request, recorder as unknown as Response, () => undefined);
  return headers;
}
