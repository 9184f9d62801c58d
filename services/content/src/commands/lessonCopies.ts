import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import type { z } from 'zod';
import { CONTENT_MSG, EDITOR_MSG, type blockImportSchema } from '@portal/contracts';
import { badRequest, forbidden, notFound, op } from '@portal/service-kit';
import { lessonContentFields, type BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import { readsAsAuthor } from '../policies/content';
import { authorizeCourseEdit } from '../policies/courses';
import { readContentBlocks } from '../presenters/block';
import { loadBlock, loadModuleOf, renumber, siblingsOf } from './blocks';
import { touchCourse } from './courses';
import { recordAudit, type CommandDeps } from './deps';
import { readCourseId, readId } from './ids';
import { assertCourseEditable } from './ownership';
import { copiedBlocks, duplicateQuizzes } from './quizzes';

type ImportInput = z.output<typeof blockImportSchema>;

const TITLE_MAX = 300;
const copyTitle = (title: string) => `${title.slice(0, TITLE_MAX - CONTENT_MSG.copySuffix.length)}${CONTENT_MSG.copySuffix}`;

/** A copy of a lesson's content for a new lesson of some course, its quizzes copied too. */
async function copyContent(
  deps: CommandDeps,
  source: BlockDoc,
  lessonId: Types.ObjectId,
  courseId: Types.ObjectId,
): Promise<Pick<BlockDoc, 'content' | 'blocksCount' | 'hasQuiz'>> {
  const blocks = readContentBlocks(source.content);
  const quizIds = await duplicateQuizzes(deps, blocks, String(courseId));
  return lessonContentFields(copiedBlocks(blocks, String(lessonId), quizIds, randomUUID));
}

/**
 * POST /blocks/{id}/copy: '<title> (копия)' right after the original, as a draft (a copy is not
 * reviewed yet), with new block ids and its own copies of the quizzes.
 */
export async function copyLesson(deps: CommandDeps, rawId: unknown): Promise<BlockDoc> {
  const { models } = deps;
  const source = await loadBlock(models, rawId);
  if (source.type !== 'LESSON') throw badRequest(EDITOR_MSG.lessonOnly, 'id');
  await assertCourseEditable(models, deps.actor, source.courseId);
  const _id = new Types.ObjectId();
  const title = copyTitle(source.title);
  await models.blocks.create({
    _id,
    type: 'LESSON',
    courseId: source.courseId,
    moduleId: source.moduleId,
    title,
    description: source.description,
    ...(await copyContent(deps, source, _id, source.courseId)),
    position: source.position + 1,
    status: 'draft',
  });
  await renumber(models, siblingsOf(source), { id: _id, index: source.position + 1 });
  await touchCourse(models, source.courseId);
  recordAudit(deps, {
    code: 'lesson.copied',
    data: { title: source.title, sourceId: String(source._id), courseId: String(source.courseId) },
    entityId: String(_id),
  });
  return (await models.blocks.findById(_id).lean<BlockDoc>()) as BlockDoc;
}

/**
 * POST /blocks/import: copies of lessons (of this or another course) at the end of a module, in
 * the order asked, as drafts, with their own quiz copies. Answers the new lessons.
 */
export async function importLessons(deps: CommandDeps, input: ImportInput): Promise<BlockDoc[]> {
  const { models } = deps;
  const course = await models.courses.findById(readCourseId(input.courseId)).lean<CourseDoc>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  authorizeCourseEdit(deps.actor, course);
  const mod = await loadModuleOf(models, input.moduleId, course);
  const ids = input.lessonIds.map((id, i) => readId(id, `lessonIds.${i}`, CONTENT_MSG.blockNotFound));
  const found = await models.blocks.find({ _id: op({ $in: ids }) }).lean<BlockDoc[]>();
  const byId = new Map(found.map((b) => [String(b._id), b]));
  const sources = ids.map((id, i) => {
    const lesson = byId.get(String(id));
    if (!lesson) throw notFound(CONTENT_MSG.blockNotFound);
    if (lesson.type !== 'LESSON') throw badRequest(EDITOR_MSG.lessonOnly, `lessonIds.${i}`);
    return lesson;
  });
  const from = await models.courses
    .find({ _id: op({ $in: [...new Set(sources.map((s) => String(s.courseId)))].map((id) => new Types.ObjectId(id)) }) })
    .select({ title: 1, createdBy: 1, coAuthors: 1 })
    .lean<Pick<CourseDoc, '_id' | 'title' | 'createdBy' | 'coAuthors'>[]>();
  // A copy carries its quizzes' answer keys and draft text: only from courses the person authors.
  if (from.some((c) => !readsAsAuthor(deps.actor, c))) throw forbidden(CONTENT_MSG.courseAuthorsOnly);

  const start = await models.blocks.countDocuments({ type: 'LESSON', moduleId: mod._id });
  const copies = [];
  for (const [i, source] of sources.entries()) {
    const _id = new Types.ObjectId();
    copies.push({
      _id,
      type: 'LESSON' as const,
      courseId: course._id,
      moduleId: mod._id,
      title: source.title,
      description: source.description,
      ...(await copyContent(deps, source, _id, course._id)),
      position: start + i,
      status: 'draft' as const,
    });
  }
  await models.blocks.insertMany(copies);
  await renumber(models, { type: 'LESSON', moduleId: mod._id });
  await touchCourse(models, course._id);
  recordAudit(deps, {
    code: 'lessons.imported',
    data: {
      count: copies.length,
      module: mod.title,
      course: course.title,
      courseId: String(course._id),
      from: from.map((c) => c.title),
      lessonIds: copies.map((c) => String(c._id)),
    },
    entityId: String(mod._id),
  });
  const created = await models.blocks.find({ _id: op({ $in: copies.map((c) => c._id) }) }).lean<BlockDoc[]>();
  return created.sort((a, b) => a.position - b.position);
}
