import type { Types } from 'mongoose';
import type { ContentStats, ContentStatsQuery, PeriodChange } from '@portal/contracts';
import { op, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../../models';
import { canAuthor, visibleCoursesFilter } from '../../policies/content';

const DAY = 86_400_000;

/** A person's started marks read at most (the course list reads the same many, newest first). */
const STARTED_LIMIT = 1000;

interface Windows {
  last: { $gte: Date };
  prev: { $gte: Date; $lt: Date };
}

const windowsAt = (now: number): Windows => ({
  last: { $gte: new Date(now - 30 * DAY) },
  prev: { $gte: new Date(now - 60 * DAY), $lt: new Date(now - 30 * DAY) },
});

/** Counts the documents matching `filter`, and those whose `field` falls in each window. */
async function countWithChange(
  count: (filter: Record<string, unknown>) => Promise<number>,
  filter: Record<string, unknown>,
  field: string,
  windows: Windows,
): Promise<{ count: number; change: PeriodChange }> {
  const [total, last30, prev30] = await Promise.all([
    count(filter),
    count({ ...filter, [field]: op(windows.last) }),
    count({ ...filter, [field]: op(windows.prev) }),
  ]);
  return { count: total, change: { last30, prev30 } };
}

/**
 * A learner's active courses: the published courses they have started, as the catalogue's
 * «Начатые» counts them, and when they started them. Two reads whatever the data: their marks
 * (over an index, bounded) and which of those courses are published.
 */
async function startedCourses(models: ContentModels, reader: Principal, windows: Windows) {
  const marks = await models.marks
    .find({ userId: reader.id, kind: 'started' })
    .sort({ createdAt: -1, _id: -1 })
    .limit(STARTED_LIMIT)
    .select({ courseId: 1, createdAt: 1 })
    .lean<{ courseId: Types.ObjectId; createdAt: Date }[]>();
  if (!marks.length) return { count: 0, change: { last30: 0, prev30: 0 } };
  const visible = await models.courses
    .find({ _id: op({ $in: marks.map((m) => m.courseId) }), ...visibleCoursesFilter(reader) })
    .select({ _id: 1 })
    .lean<{ _id: Types.ObjectId }[]>();
  const ids = new Set(visible.map((c) => String(c._id)));
  const started = marks.filter((m) => ids.has(String(m.courseId))).map((m) => m.createdAt.getTime());
  const within = ({ $gte, $lt }: { $gte: Date; $lt?: Date }) =>
    started.filter((t) => t >= $gte.getTime() && ($lt === undefined || t < $lt.getTime())).length;
  return { count: started.length, change: { last30: within(windows.last), prev30: within(windows.prev) } };
}

/**
 * The dashboard's course figures for one reader, counting what they can see: for authors every
 * course (arrived by creation) and the published ones (by publication); for anyone else the
 * published courses (by publication) and the published ones they have started (by starting).
 */
export async function courseStats(models: ContentModels, query: ContentStatsQuery, now = Date.now()): Promise<ContentStats> {
  // The reader as data (ARCHITECTURE.md: services ask each other with the principal as data).
  const reader: Principal = { id: query.userId, role: query.role, fullName: '', email: '' };
  const windows = windowsAt(now);
  const count = (filter: Record<string, unknown>) => models.courses.countDocuments(filter);
  const author = canAuthor(reader);
  const [total, active] = await Promise.all([
    countWithChange(count, visibleCoursesFilter(reader), author ? 'createdAt' : 'publishedAt', windows),
    author ? countWithChange(count, { status: 'published' }, 'publishedAt', windows) : startedCourses(models, reader, windows),
  ]);
  return {
    totalCourses: total.count,
    activeCourses: active.count,
    change: { totalCourses: total.change, activeCourses: active.change },
  };
}
