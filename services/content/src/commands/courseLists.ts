import type { Types } from 'mongoose';
import { isStaff, pageOffset, type courseListQuerySchema } from '@portal/contracts';
import { escapeRegExp, op, type Principal } from '@portal/service-kit';
import type { z } from 'zod';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import type { MarkKind } from '../models/courseMark';
import { visibleCoursesFilter } from '../policies/content';
import type { CatalogueCache } from './catalogueCache';

type ListQuery = z.output<typeof courseListQuerySchema>;

/** One page of a course list and how many courses match in all. */
export interface CoursePage {
  courses: CourseDoc[];
  total: number;
}

/**
 * A person's marks are read whole to filter or order by them (one query, over an index). A person
 * holds at most one mark of a kind per course; past this many the oldest are not listed.
 */
const MARKS_LIMIT = 1000;

const markedIds = (models: ContentModels, userId: string, kind: MarkKind) =>
  models.marks
    .find({ userId, kind })
    .sort({ createdAt: -1, _id: -1 })
    .limit(MARKS_LIMIT)
    .select({ courseId: 1 })
    .lean<{ courseId: Types.ObjectId }[]>();

/**
 * GET /courses: search title or description case-insensitively, filter by status and by the
 * person's marks; most recently updated first, _id breaking ties so pages never overlap. Four
 * store reads whatever the data: the marks (for the favourites or started filter), the page, the
 * count, and the page's marks.
 */
export async function listCourses(
  models: ContentModels,
  user: Principal,
  query: ListQuery,
  catalogue?: CatalogueCache,
): Promise<CoursePage> {
  if (!isStaff(user.role) && query.status && query.status !== 'published') return { courses: [], total: 0 };
  const filter: Record<string, unknown> = { ...visibleCoursesFilter(user) };
  if (query.status) filter.status = query.status;
  if (query.search) {
    const pattern = new RegExp(escapeRegExp(query.search), 'i');
    filter.$or = [{ title: pattern }, { description: pattern }];
  }
  if (query.filter !== 'all') {
    const marked = await markedIds(models, user.id, query.filter === 'favorites' ? 'favorite' : 'started');
    filter._id = op({ $in: marked.map((m) => m.courseId) });
  }
  const read = async () => {
    const [rows, total] = await Promise.all([
      models.courses.find(filter).sort({ updatedAt: -1, _id: -1 }).skip(pageOffset(query)).limit(query.limit).lean<CourseDoc[]>(),
      models.courses.countDocuments(filter),
    ]);
    return { rows, total };
  };
  // A page of everyone's catalogue is kept; one of the person's own marks (favourites, started) is not.
  const { rows, total } =
    catalogue && query.filter === 'all'
      ? await catalogue.get({ filter, skip: pageOffset(query), limit: query.limit }, read)
      : await read();
  return { courses: rows, total };
}

/**
 * GET /courses/favorites/my and /courses/started/my: most recently marked first, only courses still
 * visible. The order lives on the marks and visibility on the courses, so the visible ids are read
 * narrowly (one query) and paged here; then the page's courses and their marks: four reads.
 */
export async function markedCourses(
  models: ContentModels,
  user: Principal,
  kind: MarkKind,
  paging: { page: number; limit: number },
): Promise<CoursePage> {
  const marks = await markedIds(models, user.id, kind);
  if (!marks.length) return { courses: [], total: 0 };
  const visible = await models.courses
    .find({ _id: op({ $in: marks.map((m) => m.courseId) }), ...visibleCoursesFilter(user) })
    .select({ _id: 1 })
    .lean<{ _id: Types.ObjectId }[]>();
  const visibleIds = new Set(visible.map((c) => String(c._id)));
  const ordered = marks.map((m) => m.courseId).filter((id) => visibleIds.has(String(id)));
  const pageIds = ordered.slice(pageOffset(paging), pageOffset(paging) + paging.limit);
  if (!pageIds.length) return { courses: [], total: ordered.length };
  const courses = await models.courses.find({ _id: op({ $in: pageIds }) }).lean<CourseDoc[]>();
  const byId = new Map(courses.map((c) => [String(c._id), c]));
  const page = pageIds.map((id) => byId.get(String(id))).filter((c): c is CourseDoc => !!c);
  return { courses: page, total: ordered.length };
}
