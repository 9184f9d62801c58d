import { closeWorker, createRedis, ensureIndexes, runService, unwatchQueue, watchQueue } from '@portal/service-kit';
import { auditRouters } from './app';
import { loadAuditConfig } from './config';
import { recordModel } from './models/record';
import { daySummaryModel, warmDaySummaries } from './queries/daySummaries';
import { backfillRecordFields } from './queries/records';
import { startRetention } from './queues/retention';
import { startAuditWorker } from './queues/worker';

const config = loadAuditConfig();

runService({
  name: 'audit',
  config,
  port: config.PORT,
  routers: auditRouters,
  onStart: async (ctx) => {
    const records = recordModel(ctx.store);
    await ensureIndexes([records, daySummaryModel(records.db)]);
    // In the background: older records get their day, then the days that are over get their summaries.
    void backfillRecordFields(records)
      .then((moved) => moved && ctx.logger.info({ moved }, 'audit records given actorId and day'))
      .then(() => warmDaySummaries(records, config.AUDIT_RETENTION_DAYS))
      .then((days) => days && ctx.logger.info({ days }, 'audit days summarised'))
      .catch((err: Error) =>
        ctx.logger.warn({ err: err.message }, 'audit records backfill stopped; it runs again at the next start'),
      );
    const connection = createRedis(config.REDIS_URL, ctx.logger);
    const worker = startAuditWorker(connection, records, ctx.logger, {
      concurrency: config.AUDIT_WORKER_CONCURRENCY,
      prefix: config.QUEUE_PREFIX,
    });
    const retentionConnection = createRedis(config.REDIS_URL, ctx.logger);
    const retention = startRetention(retentionConnection, records, ctx.audit, ctx.logger, {
      days: config.AUDIT_RETENTION_DAYS,
      batchSize: config.AUDIT_RETENTION_BATCH,
      cron: config.AUDIT_RETENTION_CRON,
      prefix: config.QUEUE_PREFIX,
    });
    // The audit queue's depth is reported by the service that works it (every service adds to it).
    watchQueue(ctx.audit.queue);
    return async () => {
      unwatchQueue(ctx.audit.queue);
      await retention.close();
      await closeWorker(worker);
      connection.disconnect();
      retentionConnection.disconnect();
    };
  },
}).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
