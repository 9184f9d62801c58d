import type { Logger } from '@portal/service-kit';
import type { ProgressModels } from '../models';

/**
 * Attempt indexes an earlier release declared that a longer index now serves: `{status, completedAt}`
 * is the start of `{status, completedAt, _id}`, and `{userId, status, completedAt}` of
 * `{userId, status, completedAt, _id}`. Every write of an attempt kept each of them up to date for
 * nothing (on FerretDB with its GIN twin, two PostgreSQL indexes each).
 */
export const REDUNDANT_ATTEMPT_INDEXES = ['status_1_completedAt_-1', 'userId_1_status_1_completedAt_-1'];

/** The store's codes for an index or a collection that is not there: what a second replica doing the same finds. */
const ALREADY_GONE = new Set([26, 27]);

/**
 * Drops the redundant attempt indexes where they still exist (docs/decisions/100). It runs at every
 * replica's start, after the declared indexes are made; a replica of the earlier release started
 * during a rolling deploy makes them again, and the next start of this one drops them again.
 * Answers the names it dropped.
 */
export async function dropRedundantIndexes(models: ProgressModels, logger: Logger): Promise<string[]> {
  const dropped: string[] = [];
  for (const name of REDUNDANT_ATTEMPT_INDEXES) {
    try {
      await models.attempts.collection.dropIndex(name);
      dropped.push(name);
    } catch (err) {
      if (!ALREADY_GONE.has((err as { code?: number }).code ?? -1)) throw err;
    }
  }
  if (dropped.length) logger.info({ dropped }, 'redundant attempt indexes dropped');
  return dropped;
}
