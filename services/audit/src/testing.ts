import type { Worker } from 'bullmq';
import { closeWorker, createRedis, ensureIndexes, unwatchQueue, watchQueue } from '@portal/service-kit';
import { startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth } from '@portal/svc-auth/testing';
import { auditRouters } from './app';
import { recordModel } from './models/record';
import { daySummaryModel } from './queries/daySummaries';
import { startAuditWorker } from './queues/worker';

export interface AuditTestService extends TestService {
  worker: Worker;
  /** Stops the worker as a SIGTERM would (active jobs finish); events then wait in the queue. */
  stopWorker(): Promise<void>;
  /** Starts a fresh worker on the same store and queue, as a restarted audit service would. */
  startWorker(): void;
}

/** A real audit service with its worker, for tests; its queue prefix is its own unless env gives one. */
export async function startAudit(env: Record<string, string> = {}): Promise<AuditTestService> {
  const service = await startTestService('audit', auditRouters, { env });
  const records = recordModel(service.ctx.store);
  await ensureIndexes([records, daySummaryModel(records.db)]);
  const { config, logger } = service.ctx;
  let connection = createRedis(config.REDIS_URL, logger);
  let worker: Worker | null = null;
  const startWorker = () => {
    if (connection.status === 'end') connection = createRedis(config.REDIS_URL, logger);
    worker = startAuditWorker(connection, records, logger, { concurrency: 4, prefix: config.QUEUE_PREFIX });
  };
  const stopWorker = async () => {
    if (worker) await closeWorker(worker);
    worker = null;
    connection.disconnect();
  };
  startWorker();
  watchQueue(service.ctx.audit.queue);
  return {
    ...service,
    get worker() {
      if (!worker) throw new Error('the audit worker is stopped');
      return worker;
    },
    stopWorker,
    startWorker,
    async close() {
      unwatchQueue(service.ctx.audit.queue);
      await stopWorker();
      await service.close();
    },
  };
}

export interface AuditWithAuth {
  auth: Awaited<ReturnType<typeof startAuth>>;
  audit: AuditTestService;
  close(): Promise<void>;
}

/** A real auth service, and an audit service with its worker that asks it who calls: the routes' tests. */
export async function startAuditWithAuth(): Promise<AuditWithAuth> {
  const auth = await startAuth();
  const audit = await startAudit({ AUTH_URL: auth.url });
  return {
    auth,
    audit,
    async close() {
      await audit.close();
      await auth.close();
    },
  };
}
