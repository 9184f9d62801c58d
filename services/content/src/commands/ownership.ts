import { Types } from 'mongoose';
import { CONTENT_MSG } from '@portal/contracts';
import { forbidden, notFound, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { readsAsAuthor } from '../policies/content';
import { authorizeCourseEdit, authorizeLooseQuizEdit } from '../policies/courses';

const OWNERSHIP = { title: 1, createdBy: 1, coAuthors: 1, archivedAt: 1 } as const;
type Ownership = Pick<CourseDoc, '_id' | 'title' | 'createdBy' | 'coAuthors' | 'archivedAt'>;

/** What decides who may change or read a course as its author (one narrow read); 404 for no course. */
async function loadOwnership(models: ContentModels, courseId: Types.ObjectId | string): Promise<Ownership> {
  const course = await models.courses.findById(courseId).select(OWNERSHIP).lean<Ownership>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  return course;
}

/** Loads what decides who may change a course (one narrow read) and refuses anyone else: 403. */
export async function assertCourseEditable(
  models: ContentModels,
  user: Principal,
  courseId: Types.ObjectId | string,
): Promise<Ownership> {
  const course = await loadOwnership(models, courseId);
  authorizeCourseEdit(user, course);
  return course;
}

/**
 * What only those who read a course as its authors may have (its question bank, a copy or an import
 * of its lessons, which carry the quizzes' answer keys): 404 for no course, 403 for anyone else.
 */
export async function assertCourseReadableAsAuthor(
  models: ContentModels,
  user: Principal,
  courseId: Types.ObjectId | string,
): Promise<Ownership> {
  const course = await loadOwnership(models, courseId);
  if (!readsAsAuthor(user, course)) throw forbidden(CONTENT_MSG.courseAuthorsOnly);
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

/**
 * Whether a person reads a quiz as its authors do, answer keys included: those
 * who read its course as authors (readsAsAuthor), or, for a quiz of no course, its author and ADMINs.
 */
export async function readsQuizAsAuthor(
  models: ContentModels,
  user: Principal,
  quiz: Pick<QuizDoc, 'courseId' | 'createdBy'>,
): Promise<boolean> {
  if (user.role === 'ADMIN') return true;
  if (user.role !== 'CURATOR') return false;
  const course =
    quiz.courseId && Types.ObjectId.isValid(quiz.courseId)
      ? await models.courses.findById(quiz.courseId).select(OWNERSHIP).lean<Ownership>()
      : null;
  return course ? readsAsAuthor(user, course) : quiz.createdBy !== null && quiz.createdBy === user.id;
}
