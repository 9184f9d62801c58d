import { isStaff } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import type { ProgressDeps } from './deps';

/**
 * Before a learner's first attempt or completion in a course is written, the content service is
 * told, so a curator can no longer delete the course (it is archived instead). Once per learner and
 * course: later records find an earlier one here and ask nobody. Staff trying their own course
 * out count for nothing.
 */
export async function noteLearnerActivity(deps: ProgressDeps, actor: Principal, courseId: string): Promise<void> {
  if (isStaff(actor.role)) return;
  const [attempt, completion] = await Promise.all([
    deps.models.attempts.exists({ userId: actor.id, courseId }),
    deps.models.completions.exists({ userId: actor.id, courseId }),
  ]);
  if (attempt || completion) return;
  await deps.content.markLearnerActivity(courseId);
}
