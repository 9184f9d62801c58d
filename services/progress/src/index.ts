import { createRedis, runService } from '@portal/service-kit';
import { progressCandidates, progressDeps, progressOnStart, progressRouters, startProgressReminders } from './app';
import { startCandidateRetention } from './queues/candidateRetention';
import { loadProgressConfig } from './config';

const config = loadProgressConfig();

runService({
  name: 'progress',
  config,
  port: config.PORT,
  routers: progressRouters,
  onStart: async (ctx) => {
    await progressOnStart(ctx);
    const stopReminders = startProgressReminders(ctx);
    const connection = createRedis(config.REDIS_URL, ctx.logger);
    const retention = startCandidateRetention(connection, progressDeps(ctx), progressCandidates(ctx), ctx.logger, {
      days: config.CANDIDATE_RETENTION_DAYS,
      everyMs: config.CANDIDATE_RETENTION_EVERY_MINUTES * 60_000,
      prefix: config.QUEUE_PREFIX,
    });
    return async () => {
      await stopReminders();
      await retention.close();
      connection.disconnect();
    };
  },
}).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
