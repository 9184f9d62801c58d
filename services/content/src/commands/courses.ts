import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import {
  CONTENT_MSG,
  MAX_BANK_QUESTIONS,
  MAX_EDITABLE_COURSES,
  type CourseStatus,
  type courseCreateSchema,
  type courseUpdateSchema,
} from '@portal/contracts';
import { assertVersion, badRequest, forbidden, notFound, op, writeVersioned, type Principal } from '@portal/service-kit';
import type { z } from 'zod';
import type { ContentModels } from '../models';
import { takeFirstVersion } from '../versions/commands';
import type { BankQuestionDoc } from '../models/bankQuestion';
import { lessonContentFields, type BlockDoc } from '../models/block';
import type { CourseCounts, CourseDoc } from '../models/course';
import { canSeeCourse, readsAsAuthor, visibleBlocksFilter } from '../policies/content';
import { archivesInsteadOfDeleting, authorizeCourseEdit } from '../policies/courses';
import { readContentBlocks } from '../presenters/block';
import { changesOf, recordAudit, type CommandDeps } from './deps';
import { readCourseId } from './ids';
import { marksOf } from './marks';
import { copiedBlocks, deleteCourseQuizzes, duplicateQuizzes } from './quizzes';
import { countCourse, nextUpdatedAt, touchCourse } from './touch';

type CreateInput = z.output<typeof courseCreateSchema>;
type UpdateInput = z.output<typeof courseUpdateSchema>;

// Kept here too: blocks, lesson copies and the course builder import it from the course commands.
export { touchCourse };

/** A course the person may see; anything else (missing, or unpublished for a learner) is 404. */
export async function loadVisibleCourse(
  models: ContentModels,
  user: Principal,
  rawId: unknown,
  field = 'courseId',
): Promise<CourseDoc> {
  const course = await models.courses.findById(readCourseId(rawId, field)).lean<CourseDoc>();
  if (!course || !canSeeCourse(user, course)) throw notFound(CONTENT_MSG.courseNotFound);
  return course;
}

/** A course the person may see and change (owner, co-author or ADMIN): 404 if unseen, 403 if not theirs. */
export async function loadEditableCourse(models: ContentModels, user: Principal, rawId: unknown): Promise<CourseDoc> {
  const course = await loadVisibleCourse(models, user, rawId);
  authorizeCourseEdit(user, course);
  return course;
}

/**
 * Keeps status and isPublished saying the same thing. Status wins when given; isPublished alone
 * publishes, or unpublishes to draft (a hidden course stays hidden).
 */
export function publicationOf(
  input: { status?: CourseStatus; isPublished?: boolean },
  current?: CourseDoc,
): { status: CourseStatus; isPublished: boolean } {
  const { status, isPublished } = input;
  if (status !== undefined && isPublished !== undefined && (status === 'published') !== isPublished) {
    throw badRequest(CONTENT_MSG.statusConflict, 'isPublished');
  }
  let next: CourseStatus = current?.status ?? 'draft';
  if (status !== undefined) next = status;
  else if (isPublished === true) next = 'published';
  else if (isPublished === false && next === 'published') next = 'draft';
  return { status: next, isPublished: next === 'published' };
}

const publishedAtFor = (next: CourseStatus, current?: CourseDoc): Date | null =>
  next !== 'published' ? null : current?.status === 'published' ? (current.publishedAt ?? new Date()) : new Date();

/** A new course has no modules or lessons yet: its counts are known without counting. */
const EMPTY_COUNTS: CourseCounts = { modules: 0, lessons: 0, visibleModules: 0, visibleLessons: 0 };

export async function createCourse(deps: CommandDeps, input: CreateInput): Promise<CourseDoc> {
  const publication = publicationOf(input);
  const created = await deps.models.courses.create({
    title: input.title,
    description: input.description,
    price: input.price,
    duration: input.duration,
    level: input.level,
    ...publication,
    publishedAt: publishedAtFor(publication.status),
    createdBy: deps.actor.id,
    counts: EMPTY_COUNTS,
  });
  recordAudit(deps, { code: 'course.created', data: { title: created.title }, entityId: String(created._id) });
  return created.toObject();
}

/** `expected`: the versions the author's form was based on (412 when the course moved on since). */
export async function updateCourse(
  deps: CommandDeps,
  rawId: unknown,
  input: UpdateInput,
  expected?: number[],
): Promise<CourseDoc> {
  const current = await loadEditableCourse(deps.models, deps.actor, rawId);
  assertVersion(current, expected);
  const publication = publicationOf(input, current);
  const changes: Partial<CourseDoc> = {
    ...publication,
    publishedAt: publishedAtFor(publication.status, current),
    updatedAt: nextUpdatedAt(current.updatedAt),
  };
  // An ADMIN taking an archived course out of hiding restores it.
  if (current.archivedAt && publication.status !== 'hidden') changes.archivedAt = null;
  for (const key of ['title', 'description', 'price', 'duration', 'level'] as const) {
    if (input[key] !== undefined) Object.assign(changes, { [key]: input[key] });
  }
  const written = await writeVersioned(deps.models.courses, current, expected, { $set: changes }, { timestamps: false });
  if (!written) throw notFound(CONTENT_MSG.courseNotFound);
  const after = await deps.models.courses.findById(current._id).lean<CourseDoc>();
  if (!after) throw notFound(CONTENT_MSG.courseNotFound);
  recordAudit(deps, {
    code: 'course.updated',
    data: { title: after.title, changes: changesOf(current, after, ['title', 'status']) },
    entityId: String(after._id),
  });
  return after;
}

/**
 * The course goes with its modules, lessons, everyone's marks and its quizzes no other lesson holds.
 * Uploaded files stay (copies may share them). A curator's delete of a course learners have attempts
 * or progress in archives it instead (hidden, read-only for curators): only an ADMIN deletes it.
 */
export async function deleteCourse(deps: CommandDeps, rawId: unknown): Promise<{ course: CourseDoc; archived: boolean }> {
  const course = await loadEditableCourse(deps.models, deps.actor, rawId);
  if (archivesInsteadOfDeleting(deps.actor, course)) return { course: await archiveCourse(deps, course), archived: true };
  await deps.models.courses.deleteOne({ _id: course._id });
  await Promise.all([
    deps.models.blocks.deleteMany({ courseId: course._id }),
    deps.models.marks.deleteMany({ courseId: course._id }),
  ]);
  await deleteCourseQuizzes(deps.models, String(course._id));
  recordAudit(deps, { code: 'course.deleted', data: { title: course.title }, entityId: String(course._id) });
  return { course, archived: false };
}

/** Hidden from the catalogue and from learners (status hidden), kept with everything in it. */
async function archiveCourse(deps: CommandDeps, course: CourseDoc): Promise<CourseDoc> {
  await deps.models.courses.updateOne(
    { _id: course._id },
    {
      $set: {
        status: 'hidden',
        isPublished: false,
        publishedAt: null,
        archivedAt: new Date(),
        updatedAt: nextUpdatedAt(course.updatedAt),
      },
    },
    { timestamps: false },
  );
  recordAudit(deps, { code: 'course.archived', data: { title: course.title }, entityId: String(course._id) });
  const after = await deps.models.courses.findById(course._id).lean<CourseDoc>();
  if (!after) throw notFound(CONTENT_MSG.courseNotFound);
  return after;
}

/**
 * The progress service says a learner started an attempt or recorded progress in the course; from
 * then on a curator's delete archives it. Written once (a read first), so the catalogue is not
 * invalidated on every attempt. Answers the taking of the course's first version when it has none yet.
 */
export async function markLearnerActivity(
  models: ContentModels,
  rawId: unknown,
): Promise<{ firstVersion: () => Promise<void> } | null> {
  const course = await models.courses
    .findById(readCourseId(rawId, 'id'))
    .select({ learnerActivity: 1, status: 1, published: 1 })
    .lean<Pick<CourseDoc, '_id' | 'learnerActivity' | 'status' | 'published'>>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  if (!course.learnerActivity) {
    await models.courses.updateOne({ _id: course._id }, { $set: { learnerActivity: true } }, { timestamps: false });
  }
  // Its first learner began: what they study is kept as the first version, and edits go to the draft.
  // Taken after the answer (the learner's first completion does not wait for a copy of the course).
  if (!course.published && course.status === 'published') return { firstVersion: () => takeFirstVersion(models, course._id) };
  return null;
}

/** A deep copy with new ids throughout, titled '<title> (копия)', as a draft. */
export async function copyCourse(deps: CommandDeps, rawId: unknown): Promise<CourseDoc> {
  const source = await loadVisibleCourse(deps.models, deps.actor, rawId);
  // The copy carries every lesson, the quizzes' answer keys and the bank: only for the course's authors.
  if (!readsAsAuthor(deps.actor, source)) throw forbidden(CONTENT_MSG.courseAuthorsOnly);
  const blocks = await deps.models.blocks.find({ courseId: source._id }).lean<BlockDoc[]>();
  const title = `${source.title.slice(0, 200 - CONTENT_MSG.copySuffix.length)}${CONTENT_MSG.copySuffix}`;
  const copy = await deps.models.courses.create({
    title,
    description: source.description,
    price: source.price,
    duration: source.duration,
    level: source.level,
    status: 'draft',
    isPublished: false,
    publishedAt: null,
    createdBy: deps.actor.id,
  });
  const newIds = new Map(blocks.map((b) => [String(b._id), new Types.ObjectId()]));
  // The copy gets its own quizzes (and so its own attempts); lessons sharing a quiz share its copy.
  let quizIds: Map<string, string>;
  try {
    quizIds = await duplicateQuizzes(
      deps,
      blocks.filter((b) => b.type === 'LESSON').flatMap((b) => readContentBlocks(b.content)),
      String(copy._id),
    );
  } catch (err) {
    await deps.models.courses.deleteOne({ _id: copy._id }).catch(() => undefined);
    throw err;
  }
  const copies = blocks
    .filter((b) => b.type === 'MODULE' || newIds.has(String(b.moduleId)))
    .map((b) => {
      const id = newIds.get(String(b._id)) as Types.ObjectId;
      const content =
        b.type === 'LESSON'
          ? lessonContentFields(copiedBlocks(readContentBlocks(b.content), String(id), quizIds, randomUUID))
          : { content: b.content };
      return {
        _id: id,
        type: b.type,
        courseId: copy._id,
        moduleId: b.moduleId ? newIds.get(String(b.moduleId)) : null,
        title: b.title,
        description: b.description,
        ...content,
        position: b.position,
        status: b.status,
      };
    });
  // The course's question bank goes with it, so the copied quizzes' draws find their questions.
  const bank = await deps.models.bank
    .find({ courseId: String(source._id) })
    .sort({ _id: 1 })
    .limit(MAX_BANK_QUESTIONS)
    .lean<BankQuestionDoc[]>();
  const bankCopies = bank.map((q) => {
    const _id = new Types.ObjectId();
    return {
      _id,
      courseId: String(copy._id),
      tags: q.tags,
      question: { ...q.question, id: `bank-${String(_id)}` },
      createdBy: deps.actor.id,
    };
  });
  try {
    if (copies.length) await deps.models.blocks.insertMany(copies);
    if (bankCopies.length) await deps.models.bank.insertMany(bankCopies);
  } catch (err) {
    // No transactions on every store we run on: undo the half-made copy rather than leave it.
    await deps.models.bank.deleteMany({ courseId: String(copy._id) }).catch(() => undefined);
    await deps.models.blocks.deleteMany({ courseId: copy._id }).catch(() => undefined);
    await deps.models.quizzes.deleteMany({ courseId: String(copy._id) }).catch(() => undefined);
    await deps.models.courses.deleteOne({ _id: copy._id }).catch(() => undefined);
    throw err;
  }
  // The copy existed (empty) before its modules and lessons did: a page read in between is stale now.
  await touchCourse(deps.models, copy._id);
  recordAudit(deps, {
    code: 'course.copied',
    data: { title: source.title, sourceId: String(source._id) },
    entityId: String(copy._id),
  });
  const stored = await deps.models.courses.findById(copy._id).lean<CourseDoc>();
  if (!stored) throw notFound(CONTENT_MSG.courseNotFound);
  return stored;
}

/** The person's marks on some courses: which they favourited and started. */
export type CourseMarks = Awaited<ReturnType<typeof marksOf>>;

/** What course cards show beside the courses: the person's marks, and counts for courses from before counts. */
export interface CardFacts {
  marks: CourseMarks;
  backfilled: Map<string, CourseCounts>;
}

/**
 * What the cards of these courses need: two store reads whatever the courses hold; a course written
 * before counts existed is counted once and keeps its counts.
 */
export async function cardFactsOf(models: ContentModels, user: Principal, courses: CourseDoc[]): Promise<CardFacts> {
  if (!courses.length) return { marks: { favorite: new Set(), started: new Set() }, backfilled: new Map() };
  const [marks, backfilled] = await Promise.all([
    marksOf(
      models,
      user.id,
      courses.map((c) => c._id),
    ),
    backfillCounts(models, courses),
  ]);
  return { marks, backfilled };
}

/** Counts and stores the counts of the listed courses that have none yet (courses from before counts). */
async function backfillCounts(models: ContentModels, courses: CourseDoc[]): Promise<Map<string, CourseCounts>> {
  const missing = courses.filter((c) => !c.counts);
  const counted = await Promise.all(
    missing.map(async (c) => {
      const counts = await countCourse(models, c._id);
      await models.courses.updateOne({ _id: c._id, counts: op({ $exists: false }) }, { $set: { counts } }, { timestamps: false });
      return [String(c._id), counts] as const;
    }),
  );
  return new Map(counted);
}

/** The course's blocks the person may see, and their marks on it: what its whole page shows. */
export async function courseTreeOf(
  models: ContentModels,
  user: Principal,
  course: CourseDoc,
): Promise<{ marks: CourseMarks; blocks: BlockDoc[] }> {
  const [marks, blocks] = await Promise.all([
    marksOf(models, user.id, [course._id]),
    models.blocks.find({ courseId: course._id, ...visibleBlocksFilter(user, course) }).lean<BlockDoc[]>(),
  ]);
  return { marks, blocks };
}

/**
 * The courses a CURATOR may change (canEditCourse): owned or co-authored and not archived. Bounded
 * (MAX_EDITABLE_COURSES, newest first); two indexed reads.
 */
export async function editableCourseIds(models: ContentModels, userId: string): Promise<string[]> {
  const mine = { archivedAt: null };
  const read = (filter: Record<string, unknown>) =>
    models.courses
      .find({ ...filter, ...mine }, { _id: 1 })
      .sort({ _id: -1 })
      .limit(MAX_EDITABLE_COURSES)
      .lean<Array<{ _id: Types.ObjectId }>>();
  const [owned, coAuthored] = await Promise.all([read({ createdBy: userId }), read({ coAuthors: userId })]);
  const ids = [...new Set([...owned, ...coAuthored].map((c) => String(c._id)))];
  return ids.sort().reverse().slice(0, MAX_EDITABLE_COURSES);
}
