import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { dayOf } from '@portal/contracts';
import { clock, type Logger } from '@portal/service-kit';
import { loadAssignment } from '../commands/assignments';
import { remindAssigned, runReminders, type ReminderDeps } from '../commands/reminders';

export const REMINDERS_QUEUE = 'progress-reminders';
/** One scheduler id: every replica upserts the same one, so the run is scheduled once however many replicas start. */
export const REMINDERS_SCHEDULER = 'progress-reminders';

export interface RemindersOptions {
  /** A cron pattern (UTC) of the daily run; it runs hourly by default so a day missed while down is caught up. */
  cron: string;
  prefix: string;
}

export interface Reminders {
  queue: Queue;
  worker: Worker;
  /** Settles once the scheduler is in Redis (start never waits for it). */
  scheduled: Promise<void>;
  close(): Promise<void>;
}

/**
 * The reminders: a BullMQ job scheduler fires `run` on `cron` (each firing goes to one worker of one
 * replica), and an assignment just made asks for `assigned` at once (its job id is the assignment's,
 * so asking twice is one job). What a run finds to say is stored under unique keys, so even two runs
 * of the same day at once tell each person once. `now` comes from the service kit's clock.
 */
export function startReminders(
  connection: Redis,
  deps: ReminderDeps,
  logger: Logger,
  { cron, prefix }: RemindersOptions,
): Reminders {
  const queue = new Queue(REMINDERS_QUEUE, { connection, prefix });
  queue.on('error', () => undefined);
  const scheduled = queue
    .upsertJobScheduler(
      REMINDERS_SCHEDULER,
      { pattern: cron, tz: 'UTC' },
      { name: 'run', opts: { removeOnComplete: 50, removeOnFail: 50 } },
    )
    .then(
      () => undefined,
      (err: Error) => logger.error({ err: err.message, cron }, 'reminders not scheduled'),
    );
  const worker = new Worker(
    REMINDERS_QUEUE,
    async (job) => {
      if (job.name === 'assigned') {
        const sent = await remindAssigned(deps, await loadAssignment(deps.models, String(job.data.assignmentId)));
        logger.info({ assignment: job.data.assignmentId, sent }, 'assignment notified');
        return { sent };
      }
      const today = dayOf(clock.now());
      const run = await runReminders(deps, today);
      logger.info({ today, ...run }, 'reminders run');
      return run;
    },
    { connection, prefix, concurrency: 1 },
  );
  worker.on('failed', (job, err) => logger.warn({ job: job?.name, err: err.message }, 'reminders job failed'));
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

/**
 * Asks for the «назначен» notifications of a new assignment at once. Should Redis be away, the next
 * scheduled run finds the assignment still untold and tells its people then.
 */
export async function requestAssignedNotifications(queue: Queue, assignmentId: string, logger: Logger): Promise<void> {
  try {
    await queue.add(
      'assigned',
      { assignmentId },
      { jobId: `assigned-${assignmentId}`, removeOnComplete: true, removeOnFail: 50 },
    );
  } catch (err) {
    logger.warn({ assignment: assignmentId, err: (err as Error).message }, 'assignment notifications left to the next run');
  }
}
