import type Router from '@koa/router';
import { candidateLinkPath } from '@portal/contracts';
import { Upstreams, portalLink, ensureIndexes, subjectRouter, type ServiceContext } from '@portal/service-kit';
import { candidatesClient } from './clients/candidates';
import { contentClient } from './clients/content';
import { peopleClient } from './clients/people';
import type { ProgressDeps } from './commands/deps';
import type { ProgressConfig } from './config';
import { progressModels } from './models';
import { assignmentsRouter } from './routes/assignments';
import { attemptsRouter } from './routes/attempts';
import { candidateLinksRouter } from './routes/candidateLinks';
import { PublicLinkLimit } from './publicLimit';
import { certificatesRouter } from './routes/certificates';
import { internalRouter } from './routes/internal';
import { progressRouter } from './routes/progress';
import { resultsRouter } from './routes/results';
import { reviewsRouter } from './routes/reviews';
import { progressSubjects } from './subjects';

export function progressDeps(ctx: ServiceContext<ProgressConfig>): ProgressDeps {
  return {
    models: progressModels(ctx.store),
    content: contentClient({
      content: new Upstreams(ctx.config.CONTENT_URL),
      internalToken: ctx.config.INTERNAL_TOKEN,
      timeoutMs: ctx.config.CONTENT_TIMEOUT_MS,
      logger: ctx.logger,
    }),
    audit: ctx.audit,
    logger: ctx.logger,
  };
}

/** The auth service's candidate routes (accounts, consents and sessions of candidates «по ссылке»). */
export const progressCandidates = (ctx: ServiceContext<ProgressConfig>) =>
  candidatesClient(new Upstreams(ctx.config.AUTH_URL), ctx.config.INTERNAL_TOKEN, ctx.logger);

export const progressRouters = (ctx: ServiceContext<ProgressConfig>): Router[] => {
  const deps = progressDeps(ctx);
  const people = peopleClient(new Upstreams(ctx.config.AUTH_URL), ctx.config.INTERNAL_TOKEN, ctx.logger);
  return [
    progressRouter(ctx, deps),
    attemptsRouter(ctx, deps),
    resultsRouter(ctx, deps),
    assignmentsRouter(ctx, { ...deps, people }),
    certificatesRouter(ctx, { ...deps, publicUrl: portalLink(ctx.config, '/') }),
    reviewsRouter(ctx, deps),
    candidateLinksRouter(ctx, {
      ...deps,
      candidates: progressCandidates(ctx),
      limit: new PublicLinkLimit(ctx.redis, ctx.config.CANDIDATE_LINK_RATE_LIMIT, ctx.config.QUEUE_PREFIX, ctx.logger),
      linkFor: (token) => portalLink(ctx.config, candidateLinkPath(token)),
    }),
    internalRouter(ctx),
    subjectRouter(ctx.config.INTERNAL_TOKEN, progressSubjects(deps.models, portalLink(ctx.config, '/'))),
  ];
};

/** The unique indexes (one completion per lesson, one number per attempt) exist before the first request leans on them. */
export async function progressOnStart(ctx: ServiceContext<ProgressConfig>): Promise<void> {
  await ensureIndexes(Object.values(progressModels(ctx.store)));
}
