import type { Types } from 'mongoose';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';

/**
 * A course's next updatedAt: now, but always later than the previous one. The course page cache is
 * keyed by updatedAt, so two writes within one millisecond must still give two different keys.
 */
export const nextUpdatedAt = (previous: Date | null | undefined): Date =>
  new Date(Math.max(Date.now(), (previous ? new Date(previous).getTime() : 0) + 1));

/**
 * The structure of a course changed: its card's 'Обновлён' date moves, and with it the key of the
 * cached course page (src/commands/courseDetailCache.ts). Every write that changes what
 * GET /courses/{id} shows calls this after its last write. `timestamps: false`: mongoose would
 * otherwise replace the value with its own clock reading.
 */
export async function touchCourse(models: ContentModels, courseId: Types.ObjectId): Promise<void> {
  const current = await models.courses.findById(courseId).select({ updatedAt: 1 }).lean<Pick<CourseDoc, 'updatedAt'>>();
  if (!current) return;
  await models.courses.updateOne(
    { _id: courseId },
    { $set: { updatedAt: nextUpdatedAt(current.updatedAt) } },
    { timestamps: false },
  );
}
