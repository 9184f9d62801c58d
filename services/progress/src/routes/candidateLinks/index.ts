import Router from '@koa/router';
import {
  CANDIDATE_LINK_MSG,
  STAFF_ROLES,
  candidateLinkCreateSchema,
  candidateLinkListQuerySchema,
  candidateStartSchema,
  candidateTokenField,
  entityIdField,
} from '@portal/contracts';
import { idempotent, notFound, parse, requireRole, type ServiceContext } from '@portal/service-kit';
import type { CandidatesClient } from '../../clients/candidates';
import { createLink, listLinks, publicView, revokeLink, startByLink } from '../../commands/candidateLinks';
import type { ProgressDeps } from '../../commands/deps';
import { clientAddress, type PublicLimit } from '../../publicLimit';

const linkIdParam = entityIdField('id');

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
export function candidateLinksRouter(service: ServiceContext, deps: CandidateLinkDeps): Router {
  const router = new Router({ prefix: '/api/candidate-links' });
  const staff = [service.authenticate, requireRole(...STAFF_ROLES)] as const;

  router.get('/', ...staff, async (ctx) => {
    const paging = parse(candidateLinkListQuerySchema, ctx.query);
    ctx.body = await listLinks(deps, ctx.state.user, paging);
  });

  router.post('/', ...staff, idempotent(service), async (ctx) => {
    const input = parse(candidateLinkCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await createLink(deps, ctx.state.user, ctx.get('authorization'), input, deps.linkFor);
  });

  router.post('/:id/revoke', ...staff, async (ctx) => {
    const id = parse(linkIdParam, ctx.params.id);
    ctx.body = await revokeLink(deps, ctx.state.user, id);
  });

  router.get('/public/:token', async (ctx) => {
    await deps.limit.take(clientAddress(ctx));
    ctx.body = await publicView(deps, tokenOf(ctx.params.token));
  });

  router.post('/public/:token/start', idempotent(service), async (ctx) => {
    await deps.limit.take(clientAddress(ctx));
    const token = tokenOf(ctx.params.token);
    const input = parse(candidateStartSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await startByLink(deps, deps.candidates, token, input, {
      address: clientAddress(ctx),
      userAgent: String(ctx.get('user-agent')).slice(0, 300),
    });
  });

  return router;
}
