import { runService } from '@portal/service-kit';
import { progressOnStart, progressRouters, startProgressReminders } from './app';
import { loadProgressConfig } from './config';

const config = loadProgressConfig();

runService({
  name: 'progress',
  config,
  port: config.PORT,
  routers: progressRouters,
  onStart: async (ctx) => {
    await progressOnStart(ctx);
    return startProgressReminders(ctx);
  },
}).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
