import { Types } from 'mongoose';
import { CONTENT_MSG, formatMessage, type ContentBlock, type Question, type QuizSettings } from '@portal/contracts';
import { badRequest, forbidden, notFound, op, payloadTooLarge, type Principal } from '@portal/service-kit';
import { drawFromBank } from '../commands/bank';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { learnerSeesBlock, readsAsAuthor } from '../policies/content';
import { readContentBlocks } from '../presenters/block';
import { STORED_NAME, type UploadStore } from '../uploads/store';
import { SCORM_EXPORT_MSG } from './messages';

export interface ExportedLesson {
  id: string;
  title: string;
  blocks: ContentBlock[];
}

export interface ExportedModule {
  id: string;
  title: string;
  lessons: ExportedLesson[];
}

/** A quiz as the package grades it: its questions with their answer keys (the package grades offline). */
export interface ExportedQuiz {
  id: string;
  title: string;
  questions: Question[];
  settings: Pick<QuizSettings, 'passingScore' | 'scoring'>;
}

/** An uploaded file the package carries: its stored name is its path in the zip (`files/<name>`). */
export interface ExportedFile {
  name: string;
  size: number;
  stream: () => NodeJS.ReadableStream;
}

export interface CourseExport {
  course: Pick<CourseDoc, '_id' | 'title' | 'description'>;
  /** The latest change of the course or of what the package holds of it: every entry's date, so the same course is the same bytes. */
  changedAt: Date;
  modules: ExportedModule[];
  quizzes: Map<string, ExportedQuiz>;
  /** By the address lessons use (`/api/files/<name>`); a file the store lacks is absent. */
  files: Map<string, ExportedFile>;
}

const FILE_PATH = /^\/api\/files\/([^/?#]+)$/;

/** The stored name of a portal file an address names, or null for an outside address (kept as a link). */
export function storedNameOf(url: string | undefined): string | null {
  const name = url ? FILE_PATH.exec(url)?.[1] : undefined;
  return name && STORED_NAME.test(name) ? name : null;
}

/** Where a media or file block's file is: the upload's `src`, or the spec's `url`. */
export const mediaAddress = (content: { src?: string; url?: string }): string => content.src || content.url || '';

/** Addresses of the portal's files a block shows or offers. */
function fileAddresses(block: ContentBlock): string[] {
  switch (block.type) {
    case 'image':
    case 'audio':
    case 'file':
      return block.content ? [mediaAddress(block.content)] : [];
    case 'video':
      return block.content ? [mediaAddress(block.content), block.content.poster ?? ''] : [];
    default:
      return [];
  }
}

/**
 * Who may export: those who read the course as its authors (its owner, co-authors, ADMIN). The package
 * carries every quiz's answer key, which only they read on the portal; anyone else gets 403.
 */
async function loadExportableCourse(models: ContentModels, user: Principal, courseId: Types.ObjectId) {
  const course = await models.courses
    .findById(courseId)
    .select({ title: 1, description: 1, createdBy: 1, coAuthors: 1, updatedAt: 1 })
    .lean<Pick<CourseDoc, '_id' | 'title' | 'description' | 'createdBy' | 'coAuthors' | 'updatedAt'>>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  if (!readsAsAuthor(user, course)) throw forbidden(SCORM_EXPORT_MSG.forbidden);
  return course;
}

/**
 * What a learner of the course sees (modules not hidden, published lessons), in reading order: the
 * package is for learners of another system, so an author's drafts stay on the portal.
 */
async function loadModules(
  models: ContentModels,
  courseId: Types.ObjectId,
): Promise<{ modules: ExportedModule[]; changedAt: number }> {
  const records = await models.blocks.find({ courseId }).sort({ position: 1, _id: 1 }).lean<BlockDoc[]>();
  const changedAt = Math.max(0, ...records.map((r) => new Date(r.updatedAt).getTime() || 0));
  const modules = records.filter((r) => r.type === 'MODULE' && learnerSeesBlock(r));
  const exported = modules
    .map((m) => ({
      id: String(m._id),
      title: m.title,
      lessons: records
        .filter((l) => l.type === 'LESSON' && String(l.moduleId) === String(m._id) && learnerSeesBlock(l))
        .map((l) => ({
          id: String(l._id),
          title: l.title,
          blocks: [...readContentBlocks(l.content)].sort((a, b) => a.order - b.order),
        })),
    }))
    .filter((m) => m.lessons.length > 0);
  return { modules: exported, changedAt };
}

/** The quizzes the lessons hold, with the questions an attempt would draw from the bank fixed once for the package. */
async function loadQuizzes(models: ContentModels, modules: ExportedModule[]): Promise<Map<string, ExportedQuiz>> {
  const ids = modules.flatMap((m) =>
    m.lessons.flatMap((l) => l.blocks.flatMap((b) => (b.type === 'quiz' && b.content?.quizId ? [b.content.quizId] : []))),
  );
  const valid = [...new Set(ids)].filter((id) => Types.ObjectId.isValid(id));
  const docs = valid.length
    ? await models.quizzes.find({ _id: op({ $in: valid.map((id) => new Types.ObjectId(id)) }) }).lean<QuizDoc[]>()
    : [];
  const quizzes = new Map<string, ExportedQuiz>();
  for (const quiz of docs) {
    const drawn = await drawFromBank(models, quiz.courseId, quiz.draws ?? [], quiz.shuffleSeed ?? String(quiz._id));
    quizzes.set(String(quiz._id), {
      id: String(quiz._id),
      title: quiz.title,
      questions: [...quiz.questions, ...drawn],
      settings: { passingScore: quiz.settings.passingScore, scoring: quiz.settings.scoring },
    });
  }
  return quizzes;
}

/** The portal files the lessons use, as the store has them; refused (413) above `maxBytes` altogether. */
async function loadFiles(uploads: UploadStore, modules: ExportedModule[], maxBytes: number): Promise<Map<string, ExportedFile>> {
  const addresses = new Set(modules.flatMap((m) => m.lessons.flatMap((l) => l.blocks.flatMap(fileAddresses))));
  const files = new Map<string, ExportedFile>();
  let total = 0;
  for (const address of addresses) {
    const name = storedNameOf(address);
    if (!name) continue;
    const stored = await uploads.read(name);
    if (!stored) continue;
    total += stored.size;
    if (total > maxBytes)
      throw payloadTooLarge(formatMessage(SCORM_EXPORT_MSG.tooBig, { max: Math.floor(maxBytes / (1024 * 1024)) }));
    files.set(address, { name, size: stored.size, stream: () => stored.stream() });
  }
  return files;
}

/**
 * Everything a course's package is made of, read through the content service's own models: 404 for
 * no course, 403 for anyone but its authors and ADMIN, 400 when no lesson would be in it, 413 when
 * its files together exceed `maxBytes` (nothing is built then).
 */
export async function collectCourseExport(
  models: ContentModels,
  uploads: UploadStore,
  user: Principal,
  courseId: Types.ObjectId,
  maxBytes: number,
): Promise<CourseExport> {
  const course = await loadExportableCourse(models, user, courseId);
  const { modules, changedAt } = await loadModules(models, courseId);
  if (!modules.length) throw badRequest(SCORM_EXPORT_MSG.noLessons);
  const [quizzes, files] = await Promise.all([loadQuizzes(models, modules), loadFiles(uploads, modules, maxBytes)]);
  const { updatedAt, ...shown } = course;
  return { course: shown, changedAt: new Date(Math.max(changedAt, new Date(updatedAt).getTime() || 0)), modules, quizzes, files };
}
