import { GENERATION_MSG, type GenerationConfigInfo } from '@portal/contracts';
import type { ServiceContext } from '@portal/service-kit';
import type { ContentConfig } from '../config';
import { aiGenerator, templateGenerator, type Generator } from './generators';
import { GenerationJobs } from './jobs';
import { GenerationLimits } from './limits';
import { openAiCompatibleProvider, providerSettingsOf } from './provider';

/** The course builder of one content process: its jobs, its limits and the generator in use. */
export interface CourseBuilder {
  jobs: GenerationJobs;
  limits: GenerationLimits;
  generator: Generator;
  info: GenerationConfigInfo;
}

const builders = new WeakMap<ServiceContext<ContentConfig>, CourseBuilder>();

export const noticeFor = (source: Generator['source']) =>
  source === 'ai' ? GENERATION_MSG.aiNotice : GENERATION_MSG.templateNotice;

/** One per service context, so the routes and the shutdown hook see the same running jobs. */
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
  const builder: CourseBuilder = {
    jobs: new GenerationJobs(ctx.logger),
    limits,
    generator,
    info: {
      source: generator.source,
      notice: generator.source === 'ai' ? GENERATION_MSG.aiAhead : GENERATION_MSG.templateAhead,
    },
  };
  builders.set(ctx, builder);
  return builder;
}
