import { Types } from 'mongoose';
import { CONTENT_MSG } from '@portal/contracts';
import { notFound, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { authorizeCourseEdit, authorizeLooseQuizEdit } from '../policies/courses';

const OWNERSHIP = { title: 1, createdBy: 1, coAuthors: 1, archivedAt: 1 } as const;
type Ownership = Pick<CourseDoc, '_id' | 'title' | 'createdBy' | 'coAuthors' | 'archivedAt'>;

/** Loads what decides who may change a course (one narrow read) and refuses anyone else: 403. */
export async function assertCourseEditable(
  models: ContentModels,
  user: Principal,
  courseId: Types.ObjectId | string,
): Promise<Ownership> {
  const course = await models.courses.findById(courseId).select(OWNERSHIP).lean<Ownership>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  authorizeCourseEdit(user, course);
  return course;
}

/**
 * A quiz is changed by whoever may change the course it was written for; a quiz of no course (or of
 * one since deleted) by its author or an ADMIN.
 */
export async function assertQuizEditable(models: ContentModels, user: Principal, quiz: Pick<QuizDoc, 'courseId' | 'createdBy'>) {
  const course =
    quiz.courseId && Types.ObjectId.isValid(quiz.courseId)
      ? await models.courses.findById(quiz.courseId).select(OWNERSHIP).lean<Ownership>()
      : null;
  if (course) authorizeCourseEdit(user, course);
  else authorizeLooseQuizEdit(user, quiz);
}
