import type { Types } from 'mongoose';
import { CONTENT_MSG, GENERATION_MSG, type ContentBlockInput, type GenerationProposal } from '@portal/contracts';
import { conflict, notFound, op, writeVersioned } from '@portal/service-kit';
import { loadBlock } from '../commands/blocks';
import { touchCourse } from '../commands/courses';
import { recordAudit, type CommandDeps } from '../commands/deps';
import { lessonsHolding, loadQuiz, syncQuestionsCount } from '../commands/quizzes';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { readContentBlocks } from '../presenters/block';
import { contentBlockOf, draftBlocksOf, draftQuestionsOf, lessonContentOf, questionsOf } from './convert';
import type { RegenerationTarget } from './pipeline';
import { lessonRecord } from './save';

export type RegenerationKind = GenerationProposal['kind'];

const iso = (d: Date) => new Date(d).toISOString();
const byPosition = (a: BlockDoc, b: BlockDoc) => a.position - b.position || String(a._id).localeCompare(String(b._id));

const lessonsOfModule = async (models: ContentModels, moduleId: Types.ObjectId) =>
  (await models.blocks.find({ type: 'LESSON', moduleId }).lean<BlockDoc[]>()).sort(byPosition);

/** A node's state: any write to it (or, for a module, to its lessons) changes this. */
const moduleVersion = (mod: BlockDoc, lessons: BlockDoc[]) =>
  [iso(mod.updatedAt), ...lessons.map((l) => `${String(l._id)}@${iso(l.updatedAt)}`)].join('|');

async function courseContextOf(models: ContentModels, courseId: Types.ObjectId | string) {
  const course = await models.courses.findById(courseId).lean<CourseDoc>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  const modules = (await models.blocks.find({ courseId: course._id, type: 'MODULE' }).lean<BlockDoc[]>()).sort(byPosition);
  return {
    courseId: String(course._id),
    course: { title: course.title, description: course.description, moduleTitles: modules.map((m) => m.title) },
  };
}

/** The course a quiz belongs to: the one it was written for, else that of the first lesson holding it. */
async function courseOfQuiz(models: ContentModels, quiz: QuizDoc): Promise<string> {
  if (quiz.courseId && (await models.courses.exists({ _id: quiz.courseId }))) return quiz.courseId;
  const [holder] = await lessonsHolding(models, String(quiz._id));
  if (!holder) throw notFound(CONTENT_MSG.courseNotFound);
  return String(holder.courseId);
}

/** Loads the node a regeneration is about: 400 for a malformed id, 404 when it is not there. */
export async function loadRegenerationTarget(
  models: ContentModels,
  kind: RegenerationKind,
  rawId: string,
): Promise<RegenerationTarget> {
  if (kind === 'quiz') {
    const quiz = await loadQuiz(models, rawId);
    const context = await courseContextOf(models, await courseOfQuiz(models, quiz));
    return {
      ...context,
      node: { kind: 'quiz', title: quiz.title, questions: draftQuestionsOf(quiz.questions) },
      version: iso(quiz.updatedAt),
    };
  }
  const block = await loadBlock(models, rawId);
  if (block.type !== (kind === 'module' ? 'MODULE' : 'LESSON')) throw notFound(CONTENT_MSG.blockNotFound);
  const context = await courseContextOf(models, block.courseId);
  if (kind === 'lesson') {
    const mod = block.moduleId ? await models.blocks.findById(block.moduleId).lean<BlockDoc>() : null;
    const siblings = mod ? await lessonsOfModule(models, mod._id) : [];
    return {
      ...context,
      node: {
        kind: 'lesson',
        moduleTitle: mod?.title ?? '',
        title: block.title,
        blocks: draftBlocksOf(readContentBlocks(block.content)),
        // So the proposal does not take a neighbour's title.
        siblingTitles: siblings.filter((l) => String(l._id) !== String(block._id)).map((l) => l.title),
      },
      version: iso(block.updatedAt),
    };
  }
  const lessons = await lessonsOfModule(models, block._id);
  return {
    ...context,
    node: {
      kind: 'module',
      title: block.title,
      description: block.content,
      lessons: lessons.map((l) => ({ title: l.title, blocks: draftBlocksOf(readContentBlocks(l.content)) })),
    },
    version: moduleVersion(block, lessons),
  };
}

const stale = () => conflict(GENERATION_MSG.staleProposal);

/**
 * Applies an accepted proposal to its node only. 409 when the node changed (or went) since the
 * proposal was made: the author would otherwise overwrite an edit they did not see.
 */
export async function applyProposal(
  deps: CommandDeps,
  targetId: string,
  proposal: GenerationProposal,
  version: string,
): Promise<Types.ObjectId> {
  const { models } = deps;
  if (proposal.kind === 'quiz') {
    const quiz = await models.quizzes.findById(targetId).lean<QuizDoc>();
    if (!quiz || iso(quiz.updatedAt) !== version) throw stale();
    const courseId = await courseOfQuiz(models, quiz);
    const questions = questionsOf(proposal.questions);
    // Based on the version read here: an edit that lands meanwhile makes this a 412, never lost.
    if (!(await writeVersioned(models.quizzes, quiz, undefined, { $set: { title: proposal.title, questions } }))) throw stale();
    if (questions.length !== quiz.questions.length) await syncQuestionsCount(models, String(quiz._id), questions.length);
    recordAudit(deps, {
      code: 'quiz.newVersionAccepted',
      data: { title: proposal.title, questions: questions.length, courseId },
      entityId: String(quiz._id),
    });
    const course = await models.courses.findById(courseId).select({ _id: 1 }).lean<Pick<CourseDoc, '_id'>>();
    if (!course) throw notFound(CONTENT_MSG.courseNotFound);
    return course._id;
  }

  const block = await models.blocks
    .findById(targetId)
    .lean<BlockDoc>()
    .catch(() => null);
  if (!block) throw stale();

  if (proposal.kind === 'lesson') {
    if (iso(block.updatedAt) !== version) throw stale();
    // Quizzes and files cannot be written by the generator: they stay, after the new blocks.
    const kept = readContentBlocks(block.content).filter((b) => b.type === 'quiz' || b.type === 'file');
    const blocks: ContentBlockInput[] = [
      ...proposal.blocks.map(contentBlockOf),
      ...kept.map((b) => ({ id: b.id, type: b.type, content: b.content }) as ContentBlockInput),
    ];
    const written = await writeVersioned(models.blocks, block, undefined, {
      $set: { title: proposal.title, ...lessonContentOf(blocks, String(block._id)) },
    });
    if (!written) throw stale();
    await touchCourse(models, block.courseId);
    recordAudit(deps, {
      code: 'lesson.newVersionAccepted',
      data: { title: proposal.title, courseId: String(block.courseId) },
      entityId: String(block._id),
    });
    return block.courseId;
  }

  const oldLessons = await lessonsOfModule(models, block._id);
  if (moduleVersion(block, oldLessons) !== version) throw stale();
  // A module proposal has no quiz (nor files): lessons holding a quiz stay, after the new lessons,
  // so the quiz and the learners' attempts on it are never lost by an accept.
  const holdsQuiz = (l: BlockDoc) => readContentBlocks(l.content).some((b) => b.type === 'quiz' && b.content.quizId);
  const keptLessons = oldLessons.filter(holdsQuiz);
  const oldIds = oldLessons.filter((l) => !holdsQuiz(l)).map((l) => l._id);
  const ids = { courseId: block.courseId, moduleId: block._id };
  const created = proposal.lessons.map((lesson, i) => lessonRecord(lesson, ids, i));
  // New lessons first: if this stops midway the module has too much, never nothing.
  await models.blocks.insertMany(created);
  if (oldIds.length) await models.blocks.deleteMany({ _id: op({ $in: oldIds }) });
  for (const [i, lesson] of keptLessons.entries())
    await models.blocks.updateOne({ _id: lesson._id }, { $set: { position: created.length + i } });
  await models.blocks.updateOne(
    { _id: block._id },
    { $set: { title: proposal.title, content: proposal.description }, $inc: { version: 1 } },
  );
  await touchCourse(models, block.courseId);
  recordAudit(deps, {
    code: 'module.newVersionAccepted',
    data: { title: proposal.title, lessons: created.length, courseId: String(block.courseId) },
    entityId: String(block._id),
  });
  return block.courseId;
}
