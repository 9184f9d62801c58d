import type Router from '@koa/router';
import { CANDIDATE_LINK_MSG, candidateTokenField } from '@portal/contracts';
import {
  declaredRouter,
  idempotent,
  implement,
  notFound,
  type DeclaredHandler,
  type Middleware,
  type ServiceContext,
} from '@portal/service-kit';
import type { CandidatesClient } from '../../clients/candidates';
import { createLink, listLinks, publicView, revokeLink, startByLink } from '../../commands/candidateLinks';
import type { ProgressDeps } from '../../commands/deps';
import { clientAddress, type PublicLimit } from '../../publicLimit';
import * as declared from './declarations';

/** A token of the wrong shape is a link that does not exist. */
const tokenOf = (value: unknown): string => {
  const parsed = candidateTokenField.safeParse(value);
  if (!parsed.success) throw notFound(CANDIDATE_LINK_MSG.notFound);
  return parsed.data;
};

interface CandidateLinkDeps extends ProgressDeps {
  candidates: CandidatesClient;
  limit: PublicLimit;
  linkFor: (token: string) => string;
}

/**
 * Candidate testing by link: staff (ADMIN, CURATOR) create, list and revoke links; anyone with a link
 * reads what it leads to and starts it (no account: the start makes a transient candidate).
 */
export function candidateLinkRoutes(service: ServiceContext, deps: CandidateLinkDeps): DeclaredHandler[] {
  const once = idempotent(service);
  const perAddress: Middleware = async (ctx, next) => {
    await deps.limit.take(clientAddress(ctx));
    await next();
  };

  return [
    implement(declared.listCandidateLinks, (ctx, { query }) => listLinks(deps, ctx.state.user, query)),

    // Idempotency-Key: the handler answers inside it, so a retry gets the first answer.
    implement(declared.createCandidateLink, (ctx, { body }) =>
      once(ctx, async () => {
        ctx.status = 201;
        ctx.body = await createLink(deps, ctx.state.user, body, deps.linkFor);
      }),
    ),

    implement(declared.revokeCandidateLink, (ctx, { params }) => revokeLink(deps, ctx.state.user, params.id)),

    implement(declared.viewCandidateLink, (_ctx, { params }) => publicView(deps, tokenOf(params.token)), { limit: perAddress }),

    implement(
      declared.startCandidateLink,
      (ctx, { params, body }) =>
        once(ctx, async () => {
          const token = tokenOf(params.token);
          ctx.status = 201;
          ctx.body = await startByLink(deps, deps.candidates, token, body, {
            address: clientAddress(ctx),
            userAgent: String(ctx.get('user-agent')).slice(0, 300),
          });
        }),
      { limit: perAddress },
    ),
  ];
}

export const candidateLinksRouter = (service: ServiceContext, deps: CandidateLinkDeps): Router =>
  declaredRouter(service, candidateLinkRoutes(service, deps));
