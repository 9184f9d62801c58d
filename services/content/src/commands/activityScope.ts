import { Types } from 'mongoose';
import { MAX_ACTIVITY_SCOPE_IDS, type ActivityScope } from '@portal/contracts';
import { op } from '@portal/service-kit';
import type { ContentModels } from '../models';
import { editableCourseIds } from './courses';

/**
 * What a curator's dashboard feed may show records about: the courses they may change
 * and those courses' modules, lessons and quizzes, whose ids the audit records of the course's
 * learners (a lesson completed, an attempt, a course finished) and co-authors name. At most
 * MAX_ACTIVITY_SCOPE_IDS, the newest courses first.
 */
export async function activityScopeOf(models: ContentModels, userId: string): Promise<ActivityScope> {
  const courseIds = await editableCourseIds(models, userId);
  if (!courseIds.length) return { ids: [] };
  const room = MAX_ACTIVITY_SCOPE_IDS - courseIds.length;
  const [blocks, quizzes] = await Promise.all([
    models.blocks
      .find({ courseId: op({ $in: courseIds.map((id) => new Types.ObjectId(id)) }) }, { _id: 1 })
      .limit(room)
      .lean<Array<{ _id: unknown }>>(),
    models.quizzes
      .find({ courseId: op({ $in: courseIds }) }, { _id: 1 })
      .limit(room)
      .lean<Array<{ _id: unknown }>>(),
  ]);
  const ids = [...courseIds, ...blocks.map((b) => String(b._id)), ...quizzes.map((q) => String(q._id))];
  return { ids: ids.slice(0, MAX_ACTIVITY_SCOPE_IDS) };
}
