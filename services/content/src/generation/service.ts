import type { Redis } from 'ioredis';
import { GENERATION_MSG, type GenerationConfigInfo } from '@portal/contracts';
import { createRedis, type ServiceContext } from '@portal/service-kit';
import type { ContentConfig } from '../config';
import { contentModels } from '../models';
import { aiGenerator, templateGenerator, type Generator } from './generators';
import { GenerationJobs, type JobWork } from './jobs';
import { GenerationLimits } from './limits';
import { generateCourse, regenerateNode } from './pipeline';
import { openAiCompatibleProvider, providerSettingsOf } from './provider';

/** The course builder of one content process: its view of the shared jobs, its limits and the generator in use. */
export interface CourseBuilder {
  jobs: GenerationJobs;
  limits: GenerationLimits;
  generator: Generator;
  info: GenerationConfigInfo;
  /** Starts working the queue in this process (again after stopWorker); every replica does. */
  startWorker(): void;
  /** Stops working the queue here; running jobs go back to it for another replica. */
  stopWorker(): Promise<void>;
  /** On shutdown: the worker stops and the queue and the worker's connection close. */
  close(): Promise<void>;
}

const builders = new WeakMap<ServiceContext<ContentConfig>, CourseBuilder>();

export const noticeFor = (source: Generator['source']) =>
  source === 'ai' ? GENERATION_MSG.aiNotice : GENERATION_MSG.templateNotice;

/** One per service context, so the routes and the shutdown hook see the same queue and worker. */
export function courseBuilderOf(ctx: ServiceContext<ContentConfig>): CourseBuilder {
  const existing = builders.get(ctx);
  if (existing) return existing;
  const { config } = ctx;
  const limits = new GenerationLimits(ctx.redis, {
    prefix: config.QUEUE_PREFIX,
    rateLimit: config.AI_RATE_LIMIT,
    rateWindowSeconds: config.AI_RATE_WINDOW_SECONDS,
    dailyTokenBudget: config.AI_DAILY_TOKEN_BUDGET,
  });
  const settings = providerSettingsOf(config);
  const generator = settings ? aiGenerator(openAiCompatibleProvider(settings, limits, ctx.logger)) : templateGenerator();
  const models = contentModels(ctx.store);
  const jobs = new GenerationJobs(ctx.store, models, ctx.redis, config.QUEUE_PREFIX, ctx.logger);
  const work: JobWork = (payload, handle) => {
    const deps = { models, audit: ctx.audit, actor: payload.actor };
    return payload.kind === 'course'
      ? generateCourse(handle, deps, generator, payload.request)
      : regenerateNode(handle, deps, generator, payload.target, payload.instructions);
  };
  // The worker's own connection: BullMQ's blocking reads must wait for Redis, not fail fast.
  let connection: Redis | undefined;
  const builder: CourseBuilder = {
    jobs,
    limits,
    generator,
    info: {
      source: generator.source,
      notice: generator.source === 'ai' ? GENERATION_MSG.aiAhead : GENERATION_MSG.templateAhead,
    },
    startWorker() {
      if (jobs.localWorker) return;
      connection ??= createRedis(config.REDIS_URL, ctx.logger);
      jobs.startWorker(work, { connection, concurrency: config.GENERATION_CONCURRENCY, lockMs: config.GENERATION_LOCK_MS });
    },
    stopWorker: () => jobs.stopWorker(),
    async close() {
      await jobs.close();
      connection?.disconnect();
    },
  };
  builders.set(ctx, builder);
  return builder;
}
