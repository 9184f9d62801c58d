import { updateEach, type Logger } from '@portal/service-kit';
import type { AttemptDoc } from '../models/attempt';
import type { SavedAnswer } from '../models/attemptDraft';
import type { ProgressModels } from '../models';

/** An attempt as an earlier release stored it: its saved answers on the attempt itself. */
type EarlierAttempt = Pick<
  AttemptDoc,
  '_id' | 'userId' | 'status' | 'quizId' | 'quizTitle' | 'attemptNumber' | 'deadline' | 'questions'
> & {
  savedAnswers?: SavedAnswer[];
  savedAt?: Date | null;
};

/**
 * Moves the answers an earlier release saved on the attempts themselves into the attempts' drafts
 * (docs/decisions/099), so a learner in the middle of a quiz through an upgrade keeps them. It runs
 * at every replica's start: an unfinished attempt gets its draft (an upsert: a second replica at once
 * writes the same), then the old fields go from every attempt that has them, finished or not. Bounded:
 * `batch` attempts a round, until none has them. Answers how many attempts it moved.
 */
export async function moveSavedAnswers(models: ProgressModels, logger: Logger, batch = 500): Promise<number> {
  // The raw collection: the attempts' schema no longer names the fields, and mongoose would drop them.
  const attempts = models.attempts.collection;
  let moved = 0;
  for (let round = 0; round < 10_000; round += 1) {
    const rows = (await attempts
      .find(
        { savedAnswers: { $exists: true } },
        {
          projection: {
            userId: 1,
            status: 1,
            quizId: 1,
            quizTitle: 1,
            attemptNumber: 1,
            deadline: 1,
            questions: 1,
            savedAnswers: 1,
            savedAt: 1,
          },
          limit: batch,
        },
      )
      .toArray()) as unknown as EarlierAttempt[];
    if (!rows.length) break;
    const drafts = rows
      .filter((a) => a.status === 'in_progress' && a.savedAnswers && a.savedAt)
      .map((a) => ({
        updateOne: {
          filter: { _id: a._id },
          update: {
            $setOnInsert: {
              userId: a.userId,
              quizId: a.quizId,
              quizTitle: a.quizTitle ?? '',
              attemptNumber: a.attemptNumber,
              deadline: a.deadline ?? null,
              questionIds: a.questions.map((q) => q.id),
              answers: a.savedAnswers!,
              savedAt: a.savedAt!,
            },
          },
          upsert: true,
        },
      }));
    await updateEach(models.attemptDrafts, drafts);
    await attempts.updateMany({ _id: { $in: rows.map((a) => a._id) } }, { $unset: { savedAnswers: '', savedAt: '' } });
    moved += drafts.length;
    if (rows.length < batch) break;
  }
  if (moved) logger.info({ moved }, 'saved answers moved to the attempts’ drafts');
  return moved;
}
