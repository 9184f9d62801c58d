import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { clock, type Logger } from '@portal/service-kit';
import type { CandidatesClient } from '../clients/candidates';
import { purgeExpiredCandidates } from '../commands/candidateLinks';
import type { ProgressDeps } from '../commands/deps';

export const CANDIDATE_RETENTION_QUEUE = 'candidate-retention';
/** One scheduler id: every replica upserts the same one, so the sweep is scheduled once however many run. */
export const CANDIDATE_RETENTION_SCHEDULER = 'candidate-retention';

export interface CandidateRetention {
  queue: Queue;
  worker: Worker;
  /** Settles once the scheduler is in Redis (start never waits for it). */
  scheduled: Promise<void>;
  close(): Promise<void>;
}

/**
 * Deletes candidates «по ссылке» after `days`: a BullMQ job scheduler fires the sweep, and
 * whichever replica's worker takes the job runs it (every `everyMs`). The sweep reads `now` from the service kit's
 * clock, so a test moves time forward instead of waiting a month.
 */
export function startCandidateRetention(
  connection: Redis,
  deps: ProgressDeps,
  candidates: CandidatesClient,
  logger: Logger,
  { days, everyMs, prefix }: { days: number; everyMs: number; prefix: string },
): CandidateRetention {
  const queue = new Queue(CANDIDATE_RETENTION_QUEUE, { connection, prefix });
  queue.on('error', () => undefined);
  const scheduled = queue
    .upsertJobScheduler(
      CANDIDATE_RETENTION_SCHEDULER,
      { every: everyMs },
      { name: 'sweep', opts: { removeOnComplete: 50, removeOnFail: 50 } },
    )
    .then(
      () => undefined,
      (err: Error) => logger.error({ err: err.message }, 'candidate retention not scheduled'),
    );
  const worker = new Worker(
    CANDIDATE_RETENTION_QUEUE,
    async () => {
      const outcome = await purgeExpiredCandidates(deps, candidates, { days, now: clock.now() });
      if (outcome.deleted) logger.info({ ...outcome, days }, 'candidates by link deleted');
      return outcome;
    },
    { connection, prefix, concurrency: 1 },
  );
  worker.on('failed', (_job, err) => logger.warn({ err: err.message }, 'candidate retention sweep failed'));
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
