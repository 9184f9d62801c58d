import type { Redis } from 'ioredis';
import type { Model } from 'mongoose';
import { scheduledJob, type AuditPublisher, type Logger, type ScheduledJob } from '@portal/service-kit';
import type { AuditRecordDoc } from '../models/record';
import { runRetention } from '../retention/purge';

export const RETENTION_QUEUE = 'audit-retention';
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

/** The audit retention: the purge runs on `cron`, on whichever replica's worker takes the job. */
export function startRetention(
  connection: Redis,
  records: Model<AuditRecordDoc>,
  audit: AuditPublisher,
  logger: Logger,
  { days, batchSize, cron, prefix, clock = () => new Date() }: RetentionOptions,
): ScheduledJob {
  return scheduledJob(connection, logger, {
    queue: RETENTION_QUEUE,
    scheduler: RETENTION_SCHEDULER,
    name: 'purge',
    repeat: { cron },
    prefix,
    work: async () => {
      const outcome = await runRetention(records, audit, { days, batchSize, now: clock() });
      logger.info({ ...outcome, days }, 'audit retention purge');
      return { removed: outcome.removed, batches: outcome.batches };
    },
  });
}
