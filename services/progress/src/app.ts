import type Router from '@koa/router';
import { Queue } from 'bullmq';
import { CANDIDATE_LINK_MSG, CERTIFICATE_MSG, candidateLinkPath } from '@portal/contracts';
import {
  Upstreams,
  createRedis,
  declaredRouter,
  portalLink,
  ensureIndexes,
  subjectRouter,
  type ServiceContext,
} from '@portal/service-kit';
import { candidatesClient } from './clients/candidates';
import { contentClient } from './clients/content';
import { peopleClient, type PeopleClient } from './clients/people';
import type { ReminderDeps } from './commands/reminders';
import type { ProgressDeps } from './commands/deps';
import type { ProgressConfig } from './config';
import { moveSavedAnswers } from './migration/savedAnswers';
import { dropRedundantIndexes } from './migration/redundantIndexes';
import { progressModels } from './models';
import { analysisRouter } from './routes/analysis';
import { assignmentsRouter } from './routes/assignments';
import { attemptsRouter } from './routes/attempts';
import { candidateLinksRouter } from './routes/candidateLinks';
import { PublicLimit } from './publicLimit';
import { certificatesRouter } from './routes/certificates';
import { internalRouter } from './routes/internal';
import { notificationRoutes } from './routes/notifications';
import { REMINDERS_QUEUE, requestAssignedNotifications, requestProgramJob, startReminders } from './queues/reminders';
import { programRoutes } from './routes/programs';
import { progressRouter } from './routes/progress';
import { resultsRouter } from './routes/results';
import { reviewsRouter } from './routes/reviews';
import { scormRoutes } from './routes/scorm';
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
    mailer: ctx.mailer,
    portalLink: (path) => portalLink(ctx.config, path),
    certificateIssuer: certificateIssuerOf(ctx.config),
    claims: { redis: ctx.redis, prefix: ctx.config.QUEUE_PREFIX },
  };
}

/** Who a certificate names as its issuer and signatory. */
const certificateIssuerOf = (config: ProgressConfig) => ({
  organization: config.CERTIFICATE_ISSUER ?? config.SITE_NAME,
  signatory: config.CERTIFICATE_SIGNATORY,
});

const progressPeople = (ctx: ServiceContext<ProgressConfig>): PeopleClient =>
  peopleClient(new Upstreams(ctx.config.AUTH_URL), ctx.config.INTERNAL_TOKEN, ctx.logger);

/** What notifying and reminding need: the store, the mailer, the portal's address, the people. */
export const reminderDeps = (ctx: ServiceContext<ProgressConfig>): ReminderDeps => ({
  models: progressModels(ctx.store),
  mailer: ctx.mailer,
  portalLink: (path) => portalLink(ctx.config, path),
  logger: ctx.logger,
  people: progressPeople(ctx),
  audit: ctx.audit,
  certificateIssuer: certificateIssuerOf(ctx.config),
});
/** The auth service's candidate routes (accounts, consents and sessions of candidates «по ссылке»). */
export const progressCandidates = (ctx: ServiceContext<ProgressConfig>) =>
  candidatesClient(new Upstreams(ctx.config.AUTH_URL), ctx.config.INTERNAL_TOKEN, ctx.logger);

/** A per-address limit of one group of public routes, in the service's Redis. */
const publicLimit = (ctx: ServiceContext<ProgressConfig>, perMinute: number, name: string, message: string) =>
  new PublicLimit(ctx.redis, perMinute, ctx.config.QUEUE_PREFIX, ctx.logger, name, message);

export const progressRouters = (ctx: ServiceContext<ProgressConfig>): Router[] => {
  const deps = progressDeps(ctx);
  const people = progressPeople(ctx);
  // Adds jobs only (on the request connection, which fails fast): the worker runs in startProgressReminders.
  const reminders = new Queue(REMINDERS_QUEUE, { connection: ctx.redis, prefix: ctx.config.QUEUE_PREFIX });
  reminders.on('error', () => undefined);
  const onAssigned = (assignmentId: string) => void requestAssignedNotifications(reminders, assignmentId, ctx.logger);
  return [
    progressRouter(ctx, deps),
    attemptsRouter(ctx, deps),
    resultsRouter(ctx, deps),
    assignmentsRouter(ctx, { ...deps, people, onAssigned }),
    declaredRouter(ctx, notificationRoutes(deps.models)),
    declaredRouter(
      ctx,
      programRoutes({
        ...deps,
        people,
        onProgramAssigned: (assignmentId) => void requestProgramJob(reminders, 'program-enrol', { assignmentId }, ctx.logger),
        onProgramSaved: (programId) => void requestProgramJob(reminders, 'program-recompute', { programId }, ctx.logger),
      }),
    ),
    certificatesRouter(ctx, {
      ...deps,
      publicUrl: portalLink(ctx.config, '/'),
      verifyLimit: publicLimit(
        ctx,
        ctx.config.CERTIFICATE_VERIFY_RATE_LIMIT,
        'certificate-verify',
        CERTIFICATE_MSG.tooManyChecks,
      ),
    }),
    reviewsRouter(ctx, deps),
    analysisRouter(ctx, deps),
    declaredRouter(ctx, scormRoutes({ ...deps, people })),
    candidateLinksRouter(ctx, {
      ...deps,
      candidates: progressCandidates(ctx),
      limit: publicLimit(ctx, ctx.config.CANDIDATE_LINK_RATE_LIMIT, 'candidate-link', CANDIDATE_LINK_MSG.tooManyRequests),
      linkFor: (token) => portalLink(ctx.config, candidateLinkPath(token)),
    }),
    internalRouter(ctx),
    subjectRouter(ctx.config.INTERNAL_TOKEN, progressSubjects(deps.models, portalLink(ctx.config, '/'), deps.certificateIssuer)),
  ];
};

/** The unique indexes (one completion per lesson, one number per attempt) exist before the first request leans on them. */
export async function progressOnStart(ctx: ServiceContext<ProgressConfig>): Promise<void> {
  const models = progressModels(ctx.store);
  await ensureIndexes(Object.values(models));
  await moveSavedAnswers(models, ctx.logger);
  await dropRedundantIndexes(models, ctx.logger);
}

/**
 * The reminders' scheduler and worker (every replica starts both: the scheduler is one however many
 * upsert it, and each job goes to one worker), on a connection of their own that waits for Redis.
 */
export function startProgressReminders(ctx: ServiceContext<ProgressConfig>): () => Promise<void> {
  const connection = createRedis(ctx.config.REDIS_URL, ctx.logger);
  const reminders = startReminders(connection, reminderDeps(ctx), ctx.logger, {
    cron: ctx.config.REMINDERS_CRON,
    prefix: ctx.config.QUEUE_PREFIX,
  });
  return async () => {
    await reminders.close();
    connection.disconnect();
  };
}
