import { notFound, onePer, VersionedCache, type Principal } from '@portal/service-kit';
import { CONTENT_MSG } from '@portal/contracts';
import type { ContentModels } from '../models';
import { COURSE_DOCUMENT_VERSION, type CourseDoc } from '../models/course';
import { canSeeCourse } from '../policies/content';
import { readCourseId } from './ids';

/**
 * A course's page and outline are kept (courseDetailCache), keyed by the course document's
 * `updatedAt`, so each request still read that document from the store: the most frequent store
 * read of the portal (a course opened). The documents are kept per process too, each stamped with the
 * version of its course (COURSE_DOCUMENT_VERSION: every write naming the course moves it, any other
 * write every course's), as VersionedCache keeps a list's pages. A kept document is shared by every
 * request: it is read, never changed.
 */
const keptCoursesOf = onePer(
  (courses: ContentModels['courses']) =>
    new VersionedCache<CourseDoc | null>(courses.db, { name: COURSE_DOCUMENT_VERSION.name, maxEntries: 5000 }),
);

/** A course the person may see, for reading its page or outline: 404 if it is not there or unseen (as loadVisibleCourse). */
export async function keptVisibleCourse(
  models: ContentModels,
  user: Principal,
  rawId: unknown,
  field = 'courseId',
): Promise<Readonly<CourseDoc>> {
  const id = String(readCourseId(rawId, field));
  const course = await keptCoursesOf(models.courses).get(
    { course: id },
    () => models.courses.findById(id).lean<CourseDoc>(),
    (found) => found !== null,
    { key: id },
  );
  if (!course || !canSeeCourse(user, course)) throw notFound(CONTENT_MSG.courseNotFound);
  return course;
}
