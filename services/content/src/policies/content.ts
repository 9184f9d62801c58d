import { STAFF_ROLES, STUDY_ROLES, isStaff, type CourseStatus, type LessonStatus } from '@portal/contracts';
import { op, requireRole, type Principal } from '@portal/service-kit';

/**
 * Writing courses, modules, lessons and uploads is for the authors of spec section 6: ADMIN and
 * CURATOR. Everyone else reads.
 */
export const authorizeAuthoring = requireRole(...STAFF_ROLES);

/** Files given as answers to file_upload questions: by those who take quizzes. */
export const authorizeAnswerUpload = requireRole(...STUDY_ROLES);

export const canAuthor = (user: Principal): boolean => isStaff(user.role);

/** A quiz's correct answers and explanations are for its authors; everyone else gets the learner view. */
export const canSeeAnswers = canAuthor;

/** Authors see every course; everyone else only published ones. */
export const visibleCoursesFilter = (user: Principal): Record<string, unknown> =>
  canAuthor(user) ? {} : { status: 'published' };

export const canSeeCourse = (user: Principal, course: { status: CourseStatus }): boolean =>
  canAuthor(user) || course.status === 'published';

/**
 * Inside a published course a learner sees every module and lesson except hidden ones: a draft
 * lesson shows with its status badge (spec section 2, study mode), a hidden one does not exist.
 */
export const canSeeBlock = (user: Principal, block: { status: LessonStatus }): boolean =>
  canAuthor(user) || block.status !== 'hidden';

export const visibleBlocksFilter = (user: Principal): Record<string, unknown> =>
  canAuthor(user) ? {} : { status: op({ $ne: 'hidden' }) };
