import type { Redis } from 'ioredis';
import { clock, scheduledJob, type Logger, type ScheduledJob } from '@portal/service-kit';
import type { CandidatesClient } from '../clients/candidates';
import { purgeExpiredCandidates } from '../commands/candidateLinks';
import type { ProgressDeps } from '../commands/deps';

export const CANDIDATE_RETENTION_QUEUE = 'candidate-retention';
export const CANDIDATE_RETENTION_SCHEDULER = 'candidate-retention';

/**
 * Deletes candidates «по ссылке» after `days`: the sweep runs every `everyMs`, on whichever replica's
 * worker takes the job. It reads `now` from the service kit's clock, so a test moves time forward
 * instead of waiting a month.
 */
export function startCandidateRetention(
  connection: Redis,
  deps: ProgressDeps,
  candidates: CandidatesClient,
  logger: Logger,
  { days, everyMs, prefix }: { days: number; everyMs: number; prefix: string },
): ScheduledJob {
  return scheduledJob(connection, logger, {
    queue: CANDIDATE_RETENTION_QUEUE,
    scheduler: CANDIDATE_RETENTION_SCHEDULER,
    name: 'sweep',
    repeat: { everyMs },
    prefix,
    work: async () => {
      const outcome = await purgeExpiredCandidates(deps, candidates, { days, now: clock.now() });
      if (outcome.deleted) logger.info({ ...outcome, days }, 'candidates by link deleted');
      return outcome;
    },
  });
}
