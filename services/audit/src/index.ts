import { createRedis, ensureIndexes, runService, unwatchQueue, watchQueue } from '@portal/service-kit';
import { auditRouters } from './app';
import { loadAuditConfig } from './config';
import { recordModel } from './models/record';
import { startAuditWorker } from './queues/worker';

const config = loadAuditConfig();

runService({
  name: 'audit',
  config,
  port: config.PORT,
  routers: auditRouters,
  onStart: async (ctx) => {
    const records = recordModel(ctx.store);
    await ensureIndexes([records]);
    const connection = createRedis(config.REDIS_URL, ctx.logger);
    const worker = startAuditWorker(connection, records, ctx.logger, {
      concurrency: config.AUDIT_WORKER_CONCURRENCY,
      prefix: config.QUEUE_PREFIX,
    });
    // The audit queue's depth is reported by the service that works it (every service adds to it).
    watchQueue(ctx.audit.queue);
    return async () => {
      unwatchQueue(ctx.audit.queue);
      await worker.close();
      connection.disconnect();
    };
  },
}).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
