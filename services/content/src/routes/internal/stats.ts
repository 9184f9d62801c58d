import type { Types } from 'mongoose';
import type { ContentStats, ContentStatsQuery } from '@portal/contracts';
import { countFigure, lowerBoundsOf, op, type CountedFigure, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../../models';
import { canAuthor, visibleCoursesFilter } from '../../policies/content';

const DAY = 86_400_000;

/** A person's started marks read at most (the course list reads the same many, newest first). */
const STARTED_LIMIT = 1000;

/**
 * A learner's active courses: the published courses they have started, as the catalogue's
 * «Начатые» counts them, and when they started them. Two reads whatever the data: their marks
 * (over an index, bounded) and which of those courses are published. With STARTED_LIMIT marks read
 * there may be older ones: the count is then a lower bound, and so is the change unless the oldest
 * mark read is older than both windows.
 */
async function startedCourses(models: ContentModels, reader: Principal, now: number): Promise<CountedFigure> {
  const marks = await models.marks
    .find({ userId: reader.id, kind: 'started' })
    .sort({ createdAt: -1, _id: -1 })
    .limit(STARTED_LIMIT)
    .select({ courseId: 1, createdAt: 1 })
    .lean<{ courseId: Types.ObjectId; createdAt: Date }[]>();
  if (!marks.length) return { count: 0, exact: true, change: { last30: 0, prev30: 0 } };
  const visible = await models.courses
    .find({ _id: op({ $in: marks.map((m) => m.courseId) }), ...visibleCoursesFilter(reader) })
    .select({ _id: 1 })
    .lean<{ _id: Types.ObjectId }[]>();
  const ids = new Set(visible.map((c) => String(c._id)));
  const started = marks.filter((m) => ids.has(String(m.courseId))).map((m) => m.createdAt.getTime());
  const within = (from: number, to = Infinity) => started.filter((t) => t >= from && t < to).length;
  const exact = marks.length < STARTED_LIMIT;
  const windowsRead = exact || marks[marks.length - 1].createdAt.getTime() < now - 60 * DAY;
  return {
    count: started.length,
    exact,
    change: {
      last30: within(now - 30 * DAY),
      prev30: within(now - 60 * DAY, now - 30 * DAY),
      ...(windowsRead ? {} : { exact: false as const }),
    },
  };
}

/**
 * The dashboard's course figures for one reader, counting what they can see: for authors every
 * course (arrived by creation) and the published ones (by publication); for anyone else the
 * published courses (by publication) and the published ones they have started (by starting).
 * Every count is bounded (countFigure, STARTED_LIMIT); a figure counted to its bound is named in
 * `lowerBounds`.
 */
export async function courseStats(models: ContentModels, query: ContentStatsQuery, now = Date.now()): Promise<ContentStats> {
  // The reader as data (ARCHITECTURE.md: services ask each other with the principal as data).
  const reader: Principal = { id: query.userId, role: query.role, fullName: '', email: '' };
  const author = canAuthor(reader);
  const [totalCourses, activeCourses] = await Promise.all([
    // Staff count every course: a figure, nothing of another author's drafts.
    countFigure(models.courses, author ? {} : visibleCoursesFilter(reader), author ? 'createdAt' : 'publishedAt', now),
    author ? countFigure(models.courses, { status: 'published' }, 'publishedAt', now) : startedCourses(models, reader, now),
  ]);
  return {
    totalCourses: totalCourses.count,
    activeCourses: activeCourses.count,
    change: { totalCourses: totalCourses.change, activeCourses: activeCourses.change },
    ...lowerBoundsOf({ totalCourses, activeCourses }),
  };
}
