import { CONTENT_MSG, canEditCourse, canManageCoAuthors } from '@portal/contracts';
import { forbidden, type Principal } from '@portal/service-kit';
import type { CourseDoc } from '../models/course';
import { presentOwnership } from '../presenters/course';

type Owned = Pick<CourseDoc, 'createdBy' | 'coAuthors' | 'archivedAt'>;

/**
 * A CURATOR changes only a course they own or co-author (and its modules, lessons, blocks and
 * quizzes); an ADMIN changes any. Others' courses are visible to authors, so this is 403, not 404.
 */
export function authorizeCourseEdit(user: Principal, course: Owned): void {
  if (canEditCourse(user, presentOwnership(course))) return;
  throw forbidden(course.archivedAt && user.role !== 'ADMIN' ? CONTENT_MSG.courseArchived : CONTENT_MSG.notCourseAuthor);
}

export function authorizeCoAuthorChange(user: Principal, course: Owned): void {
  if (canManageCoAuthors(user, presentOwnership(course))) return;
  throw forbidden(course.archivedAt ? CONTENT_MSG.courseArchived : CONTENT_MSG.coAuthorsOwnerOnly);
}

/**
 * A curator's delete of a course learners have worked in archives it instead (their attempts and
 * results stay meaningful); an ADMIN deletes it.
 */
export const archivesInsteadOfDeleting = (user: Principal, course: Pick<CourseDoc, 'learnerActivity'>): boolean =>
  user.role !== 'ADMIN' && !!course.learnerActivity;

/**
 * A quiz written for no course belongs to whoever wrote it (and any ADMIN); one from before authors
 * were kept, only to an ADMIN.
 */
export function authorizeLooseQuizEdit(user: Principal, quiz: { createdBy: string | null }): void {
  if (user.role === 'ADMIN' || (quiz.createdBy !== null && quiz.createdBy === user.id)) return;
  throw forbidden(CONTENT_MSG.notCourseAuthor);
}
