import type { Types } from 'mongoose';
import { coalesced, serialised } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseCounts, CourseDoc } from '../models/course';
import { learnerSeesBlock } from '../policies/content';

/**
 * A course's next updatedAt: now, but always later than the previous one. The course page cache is
 * keyed by updatedAt, so two writes within one millisecond must still give two different keys.
 */
export const nextUpdatedAt = (previous: Date | null | undefined): Date =>
  new Date(Math.max(Date.now(), (previous ? new Date(previous).getTime() : 0) + 1));

/** Counts a course's modules and lessons, all and as a learner sees them (one projected read). */
export async function countCourse(models: ContentModels, courseId: Types.ObjectId): Promise<CourseCounts> {
  const blocks = await models.blocks
    .find({ courseId })
    .select({ type: 1, status: 1, moduleId: 1 })
    .lean<Pick<BlockDoc, '_id' | 'type' | 'status' | 'moduleId'>[]>();
  const modules = blocks.filter((b) => b.type === 'MODULE');
  const moduleIds = new Set(modules.map((m) => String(m._id)));
  const visibleModuleIds = new Set(modules.filter((m) => learnerSeesBlock(m)).map((m) => String(m._id)));
  const lessons = blocks.filter((b) => b.type !== 'MODULE' && moduleIds.has(String(b.moduleId)));
  return {
    modules: modules.length,
    lessons: lessons.length,
    visibleModules: visibleModuleIds.size,
    visibleLessons: lessons.filter((l) => learnerSeesBlock(l) && visibleModuleIds.has(String(l.moduleId))).length,
  };
}

/**
 * The structure of a course changed: its card's 'Обновлён' date moves, and with it the key of the
 * cached course page (src/commands/courseDetailCache.ts); its stored counts are made again. Every
 * write that changes what GET /courses/{id} shows calls this after its last write. `timestamps:
 * false`: mongoose would otherwise replace the value with its own clock reading.
 *
 * Writes overlap (two authors, an import beside an edit, two replicas): the touches of one course
 * run one at a time, across processes, and a touch that finds another waiting for its turn leaves
 * its write to that one (`coalesced`), which counts after it; so the last touch to run writes counts
 * made after the last write. A
 * conditional update on updatedAt would not do: FerretDB runs it as a read and then a write, so two
 * touches can both match and the slower one puts back counts from before the faster one's write.
 */
export async function touchCourse(models: ContentModels, courseId: Types.ObjectId): Promise<void> {
  await coalesced(models.courses.db, `touch:${String(courseId)}`, async () => {
    const current = await models.courses.findById(courseId).select({ updatedAt: 1 }).lean<Pick<CourseDoc, 'updatedAt'>>();
    if (!current) return;
    const counts = await countCourse(models, courseId);
    await models.courses.updateOne(
      { _id: courseId },
      { $set: { updatedAt: nextUpdatedAt(current.updatedAt), counts } },
      { timestamps: false },
    );
  });
}

/**
 * A write of the course document's own fields that must not overlap a touch: FerretDB applies an
 * update by reading the document and writing it back, so a touch running beside it would put back
 * the fields as it read them (a published version's pointer, docs/decisions/093). Runs in the
 * touches' own turn.
 */
export const inTouchTurn = <T>(models: ContentModels, courseId: Types.ObjectId, work: () => Promise<T>): Promise<T> =>
  serialised(models.courses.db, `touch:${String(courseId)}`, work);
