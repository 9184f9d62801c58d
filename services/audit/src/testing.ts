import type { Worker } from 'bullmq';
import { createRedis } from '@portal/service-kit';
import { startTestService, type TestService } from '@portal/devstack/testing';
import { auditRouters } from './app';
import { recordModel } from './models/record';
import { startAuditWorker } from './queues/worker';

/** A real audit service with its worker, for tests; its queue prefix is its own. */
export async function startAudit(env: Record<string, string> = {}): Promise<TestService & { worker: Worker }> {
  const service = await startTestService('audit', auditRouters, { env });
  const records = recordModel(service.ctx.store);
  await records.syncIndexes();
  const connection = createRedis(service.ctx.config.REDIS_URL, service.ctx.logger);
  const worker = startAuditWorker(connection, records, service.ctx.logger, { concurrency: 4, prefix: service.ctx.config.QUEUE_PREFIX });
  return {
    ...service,
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
      await service.close();
    },
  };
}
