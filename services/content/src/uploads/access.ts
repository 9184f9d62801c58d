import { Types } from 'mongoose';
import { escapeRegExp, op, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { UploadDoc } from '../models/upload';
import { learnerSeesBlock, readsAsAuthor } from '../policies/content';

type CourseOfFile = Pick<CourseDoc, '_id' | 'status' | 'createdBy' | 'coAuthors'>;

/** Who may read a stored file, as decided by what refers to it now. */
export interface FileAccess {
  /** Anyone with the link, cacheable: a learner of a published course is shown it. */
  public: boolean;
  /** The courses whose authors read it when it is not public. */
  courses: CourseOfFile[];
}

/**
 * docs/decisions/027. A learner's answer file is personal data: never public, read by the learner, the
 * authors of the course the answer was given in and ADMINs. A lesson's or a quiz's file is public
 * while a learner can be shown it: a lesson they see (published, in a module that is not hidden) of a
 * published course holds it, or a quiz or bank question of a published course shows it. Otherwise
 * (a draft course, a draft lesson, a file just uploaded) it is the authors' of the courses that hold
 * it, and its uploader's. Read on every request, so unpublishing a course makes its files private at
 * once; the store reads are those of a quiz read (lessons found by the name in their content).
 */
export async function fileAccess(models: ContentModels, doc: UploadDoc): Promise<FileAccess> {
  if (doc.purpose === 'answer') return { public: false, courses: await coursesOf(models, doc.courseId ? [doc.courseId] : []) };
  const url = `/api/files/${doc._id}`;
  const [lessons, quizzes, bank] = await Promise.all([
    models.blocks
      .find({ type: 'LESSON', content: new RegExp(escapeRegExp(url)) })
      .select({ courseId: 1, moduleId: 1, status: 1, type: 1 })
      .lean<Pick<BlockDoc, '_id' | 'courseId' | 'moduleId' | 'status' | 'type'>[]>(),
    models.quizzes.find({ 'questions.image': url }).select({ courseId: 1 }).lean<{ courseId: string | null }[]>(),
    models.bank.find({ 'question.image': url }).select({ courseId: 1 }).lean<{ courseId: string }[]>(),
  ]);
  const courses = await coursesOf(models, [
    ...lessons.map((l) => String(l.courseId)),
    ...quizzes.map((q) => q.courseId),
    ...bank.map((q) => q.courseId),
  ]);
  const published = new Set(courses.filter((c) => c.status === 'published').map((c) => String(c._id)));
  if ([...quizzes, ...bank].some((q) => q.courseId && published.has(q.courseId))) return { public: true, courses };
  const shown = lessons.filter((l) => published.has(String(l.courseId)) && learnerSeesBlock(l));
  if (shown.length) {
    const modules = await models.blocks
      .find({ _id: op({ $in: shown.map((l) => l.moduleId) }) })
      .select({ status: 1, type: 1 })
      .lean<Pick<BlockDoc, '_id' | 'status' | 'type'>[]>();
    if (modules.some((m) => learnerSeesBlock(m))) return { public: true, courses };
  }
  return { public: false, courses };
}

async function coursesOf(models: ContentModels, ids: Array<string | null | undefined>): Promise<CourseOfFile[]> {
  const valid = [...new Set(ids.filter((id): id is string => !!id && Types.ObjectId.isValid(id)))];
  if (!valid.length) return [];
  return models.courses
    .find({ _id: op({ $in: valid.map((id) => new Types.ObjectId(id)) }) })
    .select({ status: 1, createdBy: 1, coAuthors: 1 })
    .lean<CourseOfFile[]>();
}

/** A file that is not public: its uploader, ADMINs and the authors of the courses that hold it. */
export const mayReadPrivateFile = (user: Principal, doc: Pick<UploadDoc, 'uploadedBy'>, access: FileAccess): boolean =>
  user.role === 'ADMIN' || doc.uploadedBy === user.id || access.courses.some((c) => readsAsAuthor(user, c));
