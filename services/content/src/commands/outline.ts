import type { Types } from 'mongoose';
import type { CourseOutline } from '@portal/contracts';
import { op, updateEach, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import { lessonContentFields, type BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import { visibleBlocksFilter } from '../policies/content';
import { outlineTree, readContentBlocks, type OutlineLessonDoc } from '../presenters/block';
import { presentCourseSummary } from '../presenters/course';
import { publishedViews, readsPublished, versionStructure } from '../versions/published';
import type { PersonalFlags } from './courseDetailCache';

/** What the outline reads of a lesson: never its content (the megabytes) nor its description. */
const LESSON_OUTLINE_FIELDS = {
  type: 1,
  courseId: 1,
  moduleId: 1,
  title: 1,
  position: 1,
  generated: 1,
  status: 1,
  blocksCount: 1,
  hasQuiz: 1,
  hasScorm: 1,
  createdAt: 1,
  updatedAt: 1,
} as const;

/**
 * A course's modules (with their descriptions) and lessons (without content) that the filter
 * admits: two reads, whatever the lessons hold.
 */
export async function readStructure(
  models: ContentModels,
  courseId: Types.ObjectId,
  filter: Record<string, unknown> = {},
): Promise<{ modules: BlockDoc[]; lessons: OutlineLessonDoc[] }> {
  const [modules, lessons] = await Promise.all([
    models.blocks.find({ courseId, type: 'MODULE', ...filter }).lean<BlockDoc[]>(),
    models.blocks
      .find({ courseId, type: 'LESSON', ...filter })
      .select(LESSON_OUTLINE_FIELDS)
      .lean<OutlineLessonDoc[]>(),
  ]);
  await fillLessonFigures(models, lessons);
  return { modules, lessons };
}

/**
 * Lessons stored before the outline figures existed are counted from their content once and keep
 * the figures. `timestamps: false`: counting is not an edit (a lesson's updatedAt is the version the
 * course builder's accept compares). The filter leaves alone a lesson written meanwhile.
 */
async function fillLessonFigures(models: ContentModels, lessons: OutlineLessonDoc[]): Promise<void> {
  const missing = lessons.filter((l) => l.blocksCount === undefined || l.hasQuiz === undefined);
  if (!missing.length) return;
  const stored = await models.blocks
    .find({ _id: op({ $in: missing.map((l) => l._id) }) })
    .select({ content: 1 })
    .lean<Pick<BlockDoc, '_id' | 'content'>[]>();
  const figures = new Map(
    stored.map((b) => {
      const { blocksCount, hasQuiz } = lessonContentFields(readContentBlocks(b.content));
      return [String(b._id), { blocksCount: blocksCount ?? 0, hasQuiz: hasQuiz ?? false }];
    }),
  );
  for (const lesson of missing) Object.assign(lesson, figures.get(String(lesson._id)) ?? { blocksCount: 0, hasQuiz: false });
  await updateEach(
    models.blocks,
    missing.map((l) => ({
      updateOne: {
        filter: { _id: l._id, blocksCount: op({ $exists: false }) },
        update: { $set: { blocksCount: l.blocksCount, hasQuiz: l.hasQuiz } },
        timestamps: false,
      },
    })),
  );
}

/** GET /courses/{id}/outline: the card's fields and the modules and lessons the person may see, no content. */
export async function courseOutline(
  models: ContentModels,
  user: Principal,
  course: CourseDoc,
  flags: PersonalFlags,
): Promise<CourseOutline> {
  // A learner of a course with a published version reads the version (kept in memory: no store read).
  const view = readsPublished(user, course) ? await publishedViews(models).current(course) : null;
  const { modules, lessons } = view
    ? versionStructure(course._id, view)
    : await readStructure(models, course._id, visibleBlocksFilter(user, course));
  const tree = outlineTree(modules, lessons);
  return {
    ...presentCourseSummary(course, {
      ...flags,
      modulesCount: tree.length,
      lessonsCount: tree.reduce((sum, m) => sum + m.lessons.length, 0),
    }),
    modules: tree,
  };
}
