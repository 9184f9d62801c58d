import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { MSG, STORE_MSG, formatMessage } from '@portal/contracts';
import { HttpError } from './errors';
import { isStoreDown } from './mongo';
import { closeUnreadConnections, guardJsonBody, guardRequest } from './input';
import type { Logger } from './logger';
import { collectProcessMetrics, serviceMetrics } from './metrics';
import { runInScope, type RequestScope } from './scope';

export type ReadinessCheck = () => Promise<boolean>;

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  routers: Router[];
  /** Each check must answer true for /readyz to be 200. */
  readiness?: Record<string, ReadinessCheck>;
  bodyLimit?: string;
}

const RUSSIAN = /[а-яё]/i;

/**
 * A model's own check in Russian: mongoose writes its messages in English ("Path `title` is longer
 * than the maximum allowed length (200)"), and a schema's limits are a second line behind zod's.
 */
export const storeValidationMessage = (problem: mongoose.Error.ValidatorError | mongoose.Error.CastError): string => {
  const field = problem.path;
  if (problem instanceof mongoose.Error.CastError) return formatMessage(STORE_MSG.wrongType, { field });
  const limit = (key: string) => String((problem.properties as Record<string, unknown>)[key] ?? '');
  switch (problem.kind) {
    case 'required':
      return formatMessage(STORE_MSG.required, { field });
    case 'maxlength':
      return formatMessage(STORE_MSG.tooLong, { field, max: limit('maxlength') });
    case 'minlength':
      return formatMessage(STORE_MSG.tooShort, { field, min: limit('minlength') });
    case 'max':
      return formatMessage(STORE_MSG.tooBig, { field, max: limit('max') });
    case 'min':
      return formatMessage(STORE_MSG.tooSmall, { field, min: limit('min') });
    default:
      // A validator of the portal's own says it in Russian already; anything else gets the generic text.
      return RUSSIAN.test(problem.message) ? problem.message : formatMessage(STORE_MSG.invalid, { field });
  }
};

/** Turns anything thrown into `{message, statusCode}`; never sends a stack trace. */
export const toHttpError = (err: unknown): HttpError => {
  if (err instanceof HttpError) return err;
  if (err instanceof mongoose.Error.ValidationError) {
    const first = Object.values(err.errors)[0];
    if (!first) return new HttpError(400, MSG.validation, 'validation');
    return new HttpError(400, storeValidationMessage(first), 'validation', first.path);
  }
  if (err instanceof mongoose.Error.CastError) return new HttpError(400, storeValidationMessage(err), 'cast', err.path);
  if ((err as { code?: number })?.code === 11000) return new HttpError(409, 'Такая запись уже существует', 'duplicate');
  if (isStoreDown(err)) return new HttpError(503, MSG.storeUnavailable, 'store_unavailable');
  const status = (err as { status?: number; statusCode?: number })?.status ?? (err as { statusCode?: number })?.statusCode;
  const type = (err as { type?: string })?.type;
  if (status === 413 || type === 'entity.too.large') return new HttpError(413, MSG.bodyTooLarge, 'too_large');
  if (status === 400 && (type === 'entity.parse.failed' || err instanceof SyntaxError))
    return new HttpError(400, MSG.badJson, 'bad_json');
  // A body sent as gzip/deflate/br that does not inflate: zlib's own error, with its Z_* code (gzip,
  // deflate) or ERR__ERROR_* (brotli's decoder).
  if (/^(Z_|ERR__ERROR_)/.test(String((err as { code?: unknown })?.code ?? '')))
    return new HttpError(400, MSG.badBodyEncoding, 'bad_encoding');
  // raw-body's type, or the bare error of `inflation` (co-body's) for an encoding it does not know.
  if (type === 'encoding.unsupported' || (status === 415 && /Content-Encoding/.test((err as Error).message)))
    return new HttpError(415, MSG.unsupportedBodyEncoding, 'unsupported_encoding');
  if (status === 415) return new HttpError(415, MSG.jsonOnly, 'unsupported_media');
  // The client gave up while sending its body, or sent less than it announced.
  if (status === 400 && (type === 'request.aborted' || type === 'request.size.invalid'))
    return new HttpError(400, MSG.badJson, 'bad_body');
  return new HttpError(500, MSG.internal, 'internal');
};

const errorHandler = (logger: Logger) => async (ctx: Context, next: Next) => {
  try {
    await next();
  } catch (err) {
    const httpError = toHttpError(err);
    const log = ctx.state.log as Logger | undefined;
    if (httpError.statusCode >= 500) (log ?? logger).error({ err }, 'request failed');
    else (log ?? logger).info({ status: httpError.statusCode, id: httpError.id, msg: httpError.message }, 'request refused');
    ctx.status = httpError.statusCode;
    ctx.set(httpError.headers);
    ctx.body = {
      message: httpError.message,
      statusCode: httpError.statusCode,
      ...(httpError.field ? { field: httpError.field } : {}),
    };
  }
};

/**
 * A known path asked with a method it does not answer: koa-router's allowedMethods leaves the 404
 * body with a 405, or a 501 for a method it does not know (PROPFIND); both become a 405 in Russian
 * with the Allow header it set. A client's choice of method is never a server error.
 */
const methodNotAllowed = async (ctx: Context, next: Next) => {
  await next();
  if (ctx.status !== 405 && ctx.status !== 501) return;
  ctx.status = 405;
  ctx.body = { message: MSG.methodNotAllowed, statusCode: 405 };
};

const REQUEST_ID = /^[\w-]{1,100}$/;

/** The request's scope: its id and Koa context, and the caller's trace context for the calls it makes. */
const scopeOf = (ctx: Context, requestId: string): RequestScope => {
  const scope: RequestScope = { requestId, request: ctx };
  const traceparent = ctx.get('traceparent');
  if (!traceparent) return scope;
  const tracestate = ctx.get('tracestate');
  return tracestate ? { ...scope, traceparent, tracestate } : { ...scope, traceparent };
};

/**
 * Request id in and out, and kept for the service calls and audit events the request makes; a
 * logger bound to it, made only when something is logged.
 */
const requestContext = (logger: Logger) => {
  const debug = logger.isLevelEnabled('debug');
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', { get: () => (child ??= logger.child({ requestId })), configurable: true });
    const scope = scopeOf(ctx, requestId);
    if (!debug) return runInScope(scope, next);
    const started = process.hrtime.bigint();
    try {
      await runInScope(scope, next);
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      (ctx.state.log as Logger).debug({ method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
    }
  };
};

/** Builds a service's Koa app. It does not listen: index.ts does, and tests start it on port 0. */
export function createServiceApp({ name, logger, routers, readiness = {}, bodyLimit = '1mb' }: ServiceAppOptions): Koa {
  const app = new Koa({ proxy: true });
  app.silent = true;

  const health = new Router();
  health.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok', service: name };
  });
  health.get('/readyz', async (ctx) => {
    const results = await Promise.all(
      Object.entries(readiness).map(async ([key, check]) => [key, await check().catch(() => false)] as const),
    );
    const checks = Object.fromEntries(results);
    const ready = results.every(([, ok]) => ok);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not ready', service: name, checks };
  });

  collectProcessMetrics(name);
  app.use(serviceMetrics());
  app.use(requestContext(logger));
  app.use(closeUnreadConnections);
  app.use(errorHandler(logger));
  app.use(guardRequest);
  app.use(
    bodyParser({
      enableTypes: ['json'],
      // A DELETE's body is read too: a body that cannot be read is refused on every method alike.
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      jsonLimit: bodyLimit,
      encoding: 'utf-8',
      onError: (err) => {
        throw err;
      },
    }),
  );
  app.use(guardJsonBody);
  app.use(methodNotAllowed);
  app.use(health.routes());
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: false }));
  }
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { message: MSG.notFoundRoute, statusCode: 404 };
  });
  return app;
}
