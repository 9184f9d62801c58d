import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from './logger';
import { watchWorker } from './metrics';
import { closeWorker } from './workers';

export interface ScheduledJobOptions {
  /** The queue's name; the scheduler fires into it and anything else may add jobs of other names. */
  queue: string;
  /** One scheduler id: every replica upserts the same one, so the job is scheduled once however many start. */
  scheduler: string;
  /** The name of the job the scheduler fires. */
  name: string;
  /** When it fires: a cron pattern (read in UTC) or a period in milliseconds. */
  repeat: { cron: string } | { everyMs: number };
  prefix: string;
  /** What a job does; its answer is kept on the job. One job at a time per replica. */
  work: (job: Job) => Promise<unknown>;
}

export interface ScheduledJob {
  queue: Queue;
  worker: Worker;
  /** Settles once the scheduler is in Redis (at once, or when Redis is back: start never waits for it). */
  scheduled: Promise<void>;
  close(): Promise<void>;
}

/**
 * A job fired on a schedule by a BullMQ job scheduler. Every replica starts both the scheduler and a
 * worker: the scheduler is one however many upsert it, and BullMQ hands each firing to one worker.
 * Redis being away is logged, never thrown: the scheduler is upserted when it is back.
 */
export function scheduledJob(
  connection: Redis,
  logger: Logger,
  { queue: queueName, scheduler, name, repeat, prefix, work }: ScheduledJobOptions,
): ScheduledJob {
  const queue = new Queue(queueName, { connection, prefix });
  queue.on('error', () => undefined);
  const every = 'cron' in repeat ? { pattern: repeat.cron, tz: 'UTC' } : { every: repeat.everyMs };
  const scheduled = queue.upsertJobScheduler(scheduler, every, { name, opts: { removeOnComplete: 50, removeOnFail: 50 } }).then(
    () => undefined,
    (err: Error) => logger.error({ err: err.message, queue: queueName, ...repeat }, 'job not scheduled'),
  );
  const worker = new Worker(queueName, work, { connection, prefix, concurrency: 1 });
  worker.on('failed', (job, err) => logger.warn({ queue: queueName, job: job?.name, err: err.message }, 'job failed'));
  worker.on('error', () => undefined);
  watchWorker(worker);
  return {
    queue,
    worker,
    scheduled,
    async close() {
      await closeWorker(worker);
      await queue.close();
    },
  };
}
