import {
  ROLES,
  STAFF_ROLES,
  STUDY_ROLES,
  canReadCourseAsAuthor,
  isStaff,
  type BlockRecordType,
  type CourseStatus,
  type LessonStatus,
} from '@portal/contracts';
import { definePolicy, op, type Principal } from '@portal/service-kit';

/**
 * Uploads for lessons: the authoring roles, ADMIN and CURATOR (a file belongs to no course until a
 * lesson they may change holds it). Everyone else reads.
 */
export const lessonUploaders = definePolicy('lessonUploaders', STAFF_ROLES);

/**
 * The authoring routes of courses, modules and lessons: the authoring roles reach them; of those, a
 * CURATOR changes only a course they own or co-author, an ADMIN any (authorizeCourseEdit, after the load).
 */
export const courseAuthoring = definePolicy('courseAuthoring', STAFF_ROLES);

/**
 * Reading courses, modules and lessons, and one's own marks: everyone signed in; a course hidden from
 * the person (readsAsAuthor, canSeeCourse, after the load) does not exist for them (404).
 */
export const courseReaders = definePolicy('courseReaders', ROLES);

/**
 * Files given as answers to file_upload questions: by those who take quizzes, with the consent in
 * force checked first (an answer is learning, which needs it whatever the role); the quiz is one the
 * learner may take (findQuizForLearner, after the load).
 */
export const answerUploaders = definePolicy('answerUploaders', STUDY_ROLES, { first: ['consent'] });

export const canAuthor = (user: Principal): boolean => isStaff(user.role);

/** What decides who reads a course as its authors do. */
export type CourseAccess = { createdBy?: string | null; coAuthors?: readonly string[] | null };

/**
 * Who reads a course as its authors do: its drafts, every lesson whatever its
 * status, its quizzes with their answer keys and its question bank. An ADMIN, and the CURATORs who
 * own or co-author it (an archived course too: they may no longer change it, but it is still theirs).
 * Other curators do not co-operate across courses: a published course reads to them as to a learner,
 * and anything else does not exist for them.
 */
export const readsAsAuthor = (user: Principal, course: CourseAccess): boolean =>
  canReadCourseAsAuthor(user, { ownerId: course.createdBy ?? null, coAuthorIds: [...(course.coAuthors ?? [])] });

/** The courses a person may list: an ADMIN every one, a CURATOR the published ones and their own, others the published ones. */
export const visibleCoursesFilter = (user: Principal): Record<string, unknown> => {
  if (user.role === 'ADMIN') return {};
  if (user.role !== 'CURATOR') return { status: 'published' };
  // Under $and, so that a search's own $or beside it does not replace this one.
  return { $and: [{ $or: [{ status: 'published' }, { createdBy: user.id }, { coAuthors: user.id }] }] };
};

export const canSeeCourse = (user: Principal, course: CourseAccess & { status: CourseStatus }): boolean =>
  readsAsAuthor(user, course) || course.status === 'published';

/**
 * Inside a published course a learner sees the modules that are not hidden and, in them, only the
 * published lessons: a draft lesson is the author's work in progress, so neither
 * it nor its blocks or quiz reach a learner, and it counts toward no one's completion. A hidden one
 * does not exist either.
 */
export const learnerSeesBlock = (block: { type: BlockRecordType; status: LessonStatus }): boolean =>
  block.type === 'MODULE' ? block.status !== 'hidden' : block.status === 'published';

export const canSeeBlock = (
  user: Principal,
  course: CourseAccess,
  block: { type: BlockRecordType; status: LessonStatus },
): boolean => readsAsAuthor(user, course) || learnerSeesBlock(block);

export const visibleBlocksFilter = (user: Principal, course: CourseAccess): Record<string, unknown> =>
  readsAsAuthor(user, course)
    ? {}
    : {
        $or: [
          { type: 'MODULE', status: op({ $ne: 'hidden' }) },
          { type: 'LESSON', status: 'published' },
        ],
      };

/** Who changes a course, in the API document's words. */
export const AUTHORING_RULE =
  'ADMIN меняет любой курс; CURATOR — только свой или тот, где он соавтор (чужой курс отвечает 403 или 404).';
