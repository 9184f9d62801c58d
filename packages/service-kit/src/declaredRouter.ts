import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AuditCode, TypedAuditEvent } from '@portal/contracts';
import type { AuditEventInput } from './audit';
import { requireConsent, requireRole } from './auth';
import type { Middleware, ServiceContext } from './context';
import { checksBeforeRoles, rolesOf, type PolicyCheck, type RouteDeclaration } from './declarations';
import { parse } from './validate';
import { takeExpectedVersion } from './versions';

/** What a declared schema parses to; undefined when the route declares none. */
type Parsed<S> = [NonNullable<S>] extends [never]
  ? undefined
  : NonNullable<S> extends z.ZodType
    ? z.output<NonNullable<S>>
    : undefined;

/** The audit events a declaration names: their codes, each with the data its code declares. */
type DeclaredEvent<D> = D extends { audit?: readonly (infer A)[] } ? Extract<TypedAuditEvent, { code: A & AuditCode }> : never;

/** What a declared route's handler is given: its input, parsed by the declaration's schemas. */
export interface RouteInput<D extends RouteDeclaration> {
  params: Parsed<D['params']>;
  query: Parsed<D['query']>;
  body: Parsed<D['body']>;
  /** The versions a `versioned` write is based on (If-Match or the body's `version`); undefined for other routes. */
  expected?: number[];
  /** Records one of the audit events the declaration names, by the caller. */
  record(event: DeclaredEvent<D> & { entityId?: string | null }): void;
}

/**
 * A route's handler beside its declaration: load → authorize (a record's policy) → command →
 * present. What it returns is the answer, sent with the declaration's success status; a handler that
 * writes the answer itself (a file) returns nothing.
 */
export interface DeclaredHandler<D extends RouteDeclaration = RouteDeclaration> {
  declaration: D;
  /** The limiter of the declaration's `rateLimit`, which needs the service's Redis. */
  limit?: Middleware;
  handle(ctx: Context, input: RouteInput<D>): Promise<unknown> | unknown;
}

/** Pairs a declaration with its handler, keeping the handler's input typed by the declaration's schemas. */
export const implement = <D extends RouteDeclaration>(
  declaration: D,
  handle: DeclaredHandler<D>['handle'],
  options: { limit?: Middleware } = {},
): DeclaredHandler =>
  // The handler takes D's input, which the router gives it by parsing with D's own schemas; the list
  // of a service's handlers holds declarations of many shapes, which TS cannot relate to each input.
  ({ declaration, handle, ...options }) as DeclaredHandler;

const CHECKS: Record<PolicyCheck, Middleware> = { consent: requireConsent };

/**
 * The guards a declaration asks for, in the kit's order: authenticate, the checks its policy puts
 * first (the consent), the role check, the rate limit.
 */
function guardsOf(service: ServiceContext, { declaration, limit }: DeclaredHandler): Middleware[] {
  const roles = rolesOf(declaration.access);
  const guards: Middleware[] =
    roles === 'public'
      ? []
      : [service.authenticate, ...checksBeforeRoles(declaration.access).map((check) => CHECKS[check]), requireRole(...roles)];
  if (declaration.rateLimit) {
    if (!limit) throw new Error(`${declaration.operationId}: the rate limit ${declaration.rateLimit.name} has no limiter`);
    guards.push(limit);
  }
  return guards;
}

/**
 * The Koa routes of a service's declared handlers: each one authenticates and checks the roles its
 * declaration names (after the checks its policy puts first), takes the version a `versioned` write
 * names (428 without one), validates params, query and body with its schemas (a 400 in Russian naming
 * the field; a streamed body is the handler's), then runs its handler and answers with the declared status.
 */
export function declaredRouter(service: ServiceContext, handlers: readonly DeclaredHandler[]): Router {
  const router = new Router();
  for (const handler of handlers) {
    const { declaration } = handler;
    if (declaration.body && declaration.streamedBody)
      throw new Error(`${declaration.operationId}: a body is either parsed (body) or streamed (streamedBody), not both`);
    router.register(
      declaration.path,
      [declaration.method],
      [
        ...guardsOf(service, handler),
        async (ctx: Context) => {
          // A versioned write names its version before its body is read: 428 comes before any 400, and the
          // body's `version` is taken out so that no schema sees it. A streamed body is left unread for
          // the handler.
          const expected = declaration.versioned ? takeExpectedVersion(ctx) : undefined;
          // Each schema is the declaration's own, so each part is what the handler's input type says it is.
          const input = {
            expected,
            params: declaration.params && parse(declaration.params, ctx.params),
            query: declaration.query && parse(declaration.query, ctx.query),
            body: declaration.body && parse(declaration.body, ctx.request.body),
            record: (event: AuditEventInput) => {
              if (!declaration.audit?.includes(event.code))
                throw new Error(`${declaration.operationId} declares no audit event ${event.code}`);
              service.audit.publish({ ...event, actor: ctx.state.user ?? null });
            },
          } as RouteInput<RouteDeclaration>;
          const answer = await handler.handle(ctx, input);
          if (answer !== undefined) {
            ctx.status = declaration.ok.status;
            ctx.body = answer;
          } else if (declaration.ok.status === 204) ctx.status = 204;
        },
      ],
    );
  }
  return router;
}
