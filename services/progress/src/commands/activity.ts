import { isStaff } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import type { ProgressDeps } from './deps';

/** What the caller already read: whether the learner has a completion in the course. */
interface KnownActivity {
  completed?: boolean;
}

/**
 * Whether the content service is still to be told of this learner's work in the course: nothing of
 * theirs is recorded in it yet. Staff trying their own course out count for nothing.
 *
 * One question after the other, the completions first (a learner completing a lesson, or passing a
 * quiz, has most often completed a lesson of the course before): usually one store command, not two,
 * and none when the caller has read the completions already (`completed`).
 */
export async function learnerActivityUnnoted(
  deps: ProgressDeps,
  actor: Principal,
  courseId: string,
  { completed }: KnownActivity = {},
): Promise<boolean> {
  if (isStaff(actor.role)) return false;
  if (completed ?? (await deps.models.completions.exists({ userId: actor.id, courseId }))) return false;
  return !(await deps.models.attempts.exists({ userId: actor.id, courseId }));
}

/**
 * Before a learner's first attempt or completion in a course is written, the content service is
 * told, so a curator can no longer delete the course (it is archived instead). Once per learner and
 * course: later records find an earlier one here and ask nobody. An attempt's start tells it within
 * its one call to the content service (`startAttempt`), which keeps the course's own flag.
 */
export async function noteLearnerActivity(
  deps: ProgressDeps,
  actor: Principal,
  courseId: string,
  known: KnownActivity = {},
): Promise<void> {
  if (await learnerActivityUnnoted(deps, actor, courseId, known)) await deps.content.markLearnerActivity(courseId);
}
