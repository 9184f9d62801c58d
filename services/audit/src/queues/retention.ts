import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Model } from 'mongoose';
import type { AuditPublisher, Logger } from '@portal/service-kit';
import type { AuditRecordDoc } from '../models/record';
import { runRetention } from '../retention/purge';

export const RETENTION_QUEUE = 'audit-retention';
/** One scheduler id: every replica upserts the same one, so the purge is scheduled once however many run. */
export const RETENTION_SCHEDULER = 'audit-retention';

export interface RetentionOptions {
  days: number;
  batchSize: number;
  /** A cron pattern (UTC), e.g. '30 3 * * *'. */
  cron: string;
  prefix: string;
  /** Where `now` comes from: a test moves it instead of waiting years. */
  clock?: () => Date;
}

export interface Retention {
  queue: Queue;
  worker: Worker;
  /** Settles once the scheduler is in Redis (at once, or when Redis is back: start never waits for it). */
  scheduled: Promise<void>;
  close(): Promise<void>;
}

/**
 * The audit retention: a BullMQ job scheduler fires the purge on `cron`; whichever replica's worker
 * takes the job runs it (BullMQ hands each job to one worker), one at a time per replica.
 */
export function startRetention(
  connection: Redis,
  records: Model<AuditRecordDoc>,
  audit: AuditPublisher,
  logger: Logger,
  { days, batchSize, cron, prefix, clock = () => new Date() }: RetentionOptions,
): Retention {
  const queue = new Queue(RETENTION_QUEUE, { connection, prefix });
  queue.on('error', () => undefined);
  const scheduled = queue
    .upsertJobScheduler(
      RETENTION_SCHEDULER,
      { pattern: cron, tz: 'UTC' },
      { name: 'purge', opts: { removeOnComplete: 50, removeOnFail: 50 } },
    )
    .then(
      () => undefined,
      (err: Error) => logger.error({ err: err.message, cron }, 'audit retention not scheduled'),
    );
  const worker = new Worker(
    RETENTION_QUEUE,
    async () => {
      const outcome = await runRetention(records, audit, { days, batchSize, now: clock() });
      logger.info({ ...outcome, days }, 'audit retention purge');
      return { removed: outcome.removed, batches: outcome.batches };
    },
    { connection, prefix, concurrency: 1 },
  );
  worker.on('failed', (_job, err) => logger.warn({ err: err.message }, 'audit retention purge failed'));
  worker.on('error', () => undefined);
  return {
    queue,
    worker,
    scheduled,
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
