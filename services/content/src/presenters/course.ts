import type { Course, CourseModule, CourseSummary } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import type { CardFacts, CourseMarks } from '../commands/courses';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import { readsAsAuthor } from '../policies/content';
import { courseTree } from './block';

/** What a course is to the person asking: their marks and the structure they can see. */
export interface CourseExtras {
  isFavorite: boolean;
  isStarted: boolean;
  modulesCount: number;
  lessonsCount: number;
}

export const presentCourseSummary = (c: CourseDoc, extras: CourseExtras): CourseSummary => ({
  id: String(c._id),
  title: c.title,
  description: c.description,
  price: c.price,
  duration: c.duration,
  level: c.level,
  isPublished: c.isPublished,
  status: c.status,
  version: c.version ?? 0,
  createdAt: new Date(c.createdAt).toISOString(),
  updatedAt: new Date(c.updatedAt).toISOString(),
  isFavorite: extras.isFavorite,
  isStarted: extras.isStarted,
  modulesCount: extras.modulesCount,
  lessonsCount: extras.lessonsCount,
  ...presentOwnership(c),
});

/** Who owns the course and whether it is archived: what canEditCourse (contracts) decides on. */
export const presentOwnership = (c: Pick<CourseDoc, 'createdBy' | 'coAuthors' | 'archivedAt'>) => ({
  ownerId: c.createdBy ?? null,
  coAuthorIds: c.coAuthors ?? [],
  archived: !!c.archivedAt,
});

export const presentCourse = (
  c: CourseDoc,
  marks: Pick<CourseExtras, 'isFavorite' | 'isStarted'>,
  modules: CourseModule[],
): Course => ({
  ...presentCourseSummary(c, {
    ...marks,
    modulesCount: modules.length,
    lessonsCount: modules.reduce((sum, m) => sum + m.lessons.length, 0),
  }),
  modules,
});

/** The person's marks on one course. */
const marksFlags = (marks: CourseMarks, course: Pick<CourseDoc, '_id'>) => ({
  isFavorite: marks.favorite.has(String(course._id)),
  isStarted: marks.started.has(String(course._id)),
});

/**
 * Cards for a list of courses: the person's marks and the counts stored on each course (what a
 * learner sees, or everything for an author).
 */
export const presentCourseCards = (user: Principal, courses: CourseDoc[], { marks, backfilled }: CardFacts): CourseSummary[] =>
  courses.map((c) => {
    const author = readsAsAuthor(user, c);
    // A learner's card counts the published version when the course has one (docs/decisions/093).
    const counts = (!author && c.published?.counts) || c.counts || backfilled.get(String(c._id));
    return presentCourseSummary(c, {
      ...marksFlags(marks, c),
      modulesCount: (author ? counts?.modules : counts?.visibleModules) ?? 0,
      lessonsCount: (author ? counts?.lessons : counts?.visibleLessons) ?? 0,
    });
  });

/** The course with its modules → lessons → blocks, as the person may see them (`blocks` are those). */
export const presentCourseDetail = (course: CourseDoc, { marks, blocks }: { marks: CourseMarks; blocks: BlockDoc[] }): Course =>
  presentCourse(course, marksFlags(marks, course), courseTree(blocks));
