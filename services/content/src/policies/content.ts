import { STAFF_ROLES, STUDY_ROLES, isStaff, type BlockRecordType, type CourseStatus, type LessonStatus } from '@portal/contracts';
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
 * Inside a published course a learner sees the modules that are not hidden and, in them, only the
 * published lessons (issue 49, item 20): a draft lesson is the author's work in progress, so neither
 * it nor its blocks or quiz reach a learner, and it counts toward no one's completion. A hidden one
 * does not exist either.
 */
export const learnerSeesBlock = (block: { type: BlockRecordType; status: LessonStatus }): boolean =>
  block.type === 'MODULE' ? block.status !== 'hidden' : block.status === 'published';

export const canSeeBlock = (user: Principal, block: { type: BlockRecordType; status: LessonStatus }): boolean =>
  canAuthor(user) || learnerSeesBlock(block);

export const visibleBlocksFilter = (user: Principal): Record<string, unknown> =>
  canAuthor(user)
    ? {}
    : {
        $or: [
          { type: 'MODULE', status: op({ $ne: 'hidden' }) },
          { type: 'LESSON', status: 'published' },
        ],
      };
