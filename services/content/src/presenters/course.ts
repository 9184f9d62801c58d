import type { Course, CourseModule, CourseSummary } from '@portal/contracts';
import type { CourseDoc } from '../models/course';

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
