import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { z } from 'zod';
import {
  CONTENT_MSG,
  EDITOR_MSG,
  NEW_QUIZ_DEFAULTS,
  QUIZ_MSG,
  formatMessage,
  quizProblem,
  quizSettingsSchema,
  type ContentBlock,
  type InternalQuiz,
  type Question,
  type QuizSettings,
  type QuizSummary,
  type quizCreateSchema,
  type quizListQuerySchema,
  type quizUpdateSchema,
} from '@portal/contracts';
import {
  assertVersion,
  badRequest,
  conflict,
  escapeRegExp,
  notFound,
  op,
  parse,
  updateEach,
  writeVersioned,
  type Principal,
} from '@portal/service-kit';
import type { ContentModels } from '../models';
import { drawFromBank } from './bank';
import { assertCourseEditable, assertQuizEditable, readsQuizAsAuthor } from './ownership';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { canSeeBlock, canSeeCourse } from '../policies/content';
import { readContentBlocks } from '../presenters/block';
import { presentQuiz, presentQuizSummary } from '../presenters/quiz';
import { changesOf, recordAudit, type CommandDeps } from './deps';
import { readCourseId, readId } from './ids';
import { touchCourse } from './touch';
import { learnerSeesVersionLesson, readsPublished } from '../versions/published';
import { drawFromVersionBank, versionedQuiz, type VersionedQuiz } from '../versions/quizzes';

type CreateInput = z.output<typeof quizCreateSchema>;
type UpdateInput = z.output<typeof quizUpdateSchema>;
type ListQuery = z.output<typeof quizListQuerySchema>;

const LIST_LIMIT = 500;

export const readQuizId = (raw: unknown, field = 'id') => readId(raw, field, QUIZ_MSG.quizNotFound);

/** Given settings laid over a base; a problem is reported under settings.<name>. */
function settingsFrom(
  base: QuizSettings | typeof NEW_QUIZ_DEFAULTS.settings,
  given: Record<string, unknown> | undefined,
): QuizSettings {
  const merged = { ...base, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined)) };
  return parse(z.object({ settings: quizSettingsSchema }), { settings: merged }).settings;
}

function checkQuestions(questions: CreateInput['questions']): void {
  const problem = quizProblem(questions ?? []);
  if (problem) throw badRequest(problem.message, problem.path);
}

/** How many questions an attempt shows: the fixed ones and those drawn from the bank. */
const questionsShown = (quiz: Pick<QuizDoc, 'questions' | 'draws'>): number =>
  quiz.questions.length + (quiz.draws ?? []).reduce((sum, d) => sum + d.count, 0);

/** Questions keep the order they were sent in; `order` is renumbered 1..n to match. */
const ordered = (questions: NonNullable<CreateInput['questions']>) => questions.map((q, i) => ({ ...q, order: i + 1 }));

async function checkCourse(models: ContentModels, courseId: string | null | undefined): Promise<void> {
  if (!courseId) return;
  if (!(await models.courses.exists({ _id: readCourseId(courseId) }))) throw notFound(CONTENT_MSG.courseNotFound);
}

export async function loadQuiz(models: ContentModels, rawId: unknown): Promise<QuizDoc> {
  const quiz = await models.quizzes.findById(readQuizId(rawId)).lean<QuizDoc>();
  if (!quiz) throw notFound(QUIZ_MSG.quizNotFound);
  return quiz;
}

/** Lessons whose content holds a quiz block pointing at this quiz, oldest first. */
export async function lessonsHolding(models: ContentModels, quizId: string): Promise<BlockDoc[]> {
  // The content is stored as JSON we wrote ourselves, so the key and value appear exactly like this.
  const pattern = new RegExp(`"quizId":"${escapeRegExp(quizId)}"`);
  const candidates = await models.blocks
    .find({ type: 'LESSON', content: pattern })
    .sort({ createdAt: 1, _id: 1 })
    .lean<BlockDoc[]>();
  return candidates.filter((l) => readContentBlocks(l.content).some((b) => b.type === 'quiz' && b.content.quizId === quizId));
}

export async function createQuiz(deps: CommandDeps, input: CreateInput): Promise<QuizDoc> {
  checkQuestions(input.questions);
  await checkCourse(deps.models, input.courseId);
  if (input.courseId) await assertCourseEditable(deps.models, deps.actor, input.courseId);
  const settings = settingsFrom(NEW_QUIZ_DEFAULTS.settings, input.settings);
  const created = await deps.models.quizzes.create({
    title: input.title,
    description: input.description?.trim() ?? '',
    courseId: input.courseId ?? null,
    questions: ordered(input.questions ?? []),
    settings,
    draws: input.draws ?? [],
    createdBy: deps.actor.id,
  });
  recordAudit(deps, {
    code: 'quiz.created',
    data: { title: created.title, questions: created.questions.length, courseId: created.courseId },
    entityId: String(created._id),
  });
  return (await deps.models.quizzes.findById(created._id).lean<QuizDoc>()) as QuizDoc;
}

/** `expected`: the versions the author's copy was based on (412 when the quiz moved on since). */
export async function updateQuiz(deps: CommandDeps, rawId: unknown, input: UpdateInput, expected?: number[]): Promise<QuizDoc> {
  const { models } = deps;
  const current = await loadQuiz(models, rawId);
  await assertQuizEditable(models, deps.actor, current);
  assertVersion(current, expected);
  const changes: Partial<QuizDoc> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description.trim();
  if (input.courseId !== undefined) {
    await checkCourse(models, input.courseId);
    if (input.courseId) await assertCourseEditable(models, deps.actor, input.courseId);
    changes.courseId = input.courseId ?? null;
  }
  if (input.questions !== undefined) {
    checkQuestions(input.questions);
    changes.questions = ordered(input.questions);
  }
  if (input.settings !== undefined) changes.settings = settingsFrom(current.settings, input.settings);
  if (input.draws !== undefined) changes.draws = input.draws;
  if (!(await writeVersioned(models.quizzes, current, expected, { $set: changes }))) throw notFound(QUIZ_MSG.quizNotFound);
  const after = (await models.quizzes.findById(current._id).lean<QuizDoc>()) as QuizDoc;
  if (questionsShown(after) !== questionsShown(current))
    await syncQuestionsCount(models, String(after._id), questionsShown(after));
  recordAudit(deps, {
    code: 'quiz.updated',
    data: { title: after.title, questions: after.questions.length, changes: changesOf(current, after, ['title']) },
    entityId: String(after._id),
  });
  return after;
}

/** A quiz a lesson still shows cannot go: the lesson would silently lose its test. */
export async function deleteQuiz(deps: CommandDeps, rawId: unknown): Promise<QuizDoc> {
  const quiz = await loadQuiz(deps.models, rawId);
  await assertQuizEditable(deps.models, deps.actor, quiz);
  const [holder] = await lessonsHolding(deps.models, String(quiz._id));
  if (holder) throw conflict(formatMessage(EDITOR_MSG.quizInUse, { title: holder.title }));
  await deps.models.quizzes.deleteOne({ _id: quiz._id });
  recordAudit(deps, { code: 'quiz.deleted', data: { title: quiz.title }, entityId: String(quiz._id) });
  return quiz;
}

/**
 * GET /quizzes: newest first, by title (case-insensitive) and course; for a curator (`mine`) only the
 * quizzes of the courses they author and their own of no course.
 */
export async function listQuizzes(
  models: ContentModels,
  query: ListQuery,
  mine: { userId: string; courseIds: string[] } | null = null,
): Promise<QuizSummary[]> {
  const filter: Record<string, unknown> = {};
  if (mine) filter.$or = [{ courseId: op({ $in: mine.courseIds }) }, { courseId: null, createdBy: mine.userId }];
  if (query.courseId) filter.courseId = query.courseId;
  if (query.search) filter.title = new RegExp(escapeRegExp(query.search), 'i');
  const rows = await models.quizzes.find(filter).sort({ updatedAt: -1, _id: -1 }).limit(LIST_LIMIT).lean<QuizDoc[]>();
  return rows.map(presentQuizSummary);
}

/**
 * A learner may read a quiz that a lesson they can see holds: the course published, neither the
 * lesson nor its module hidden. Anything else does not exist for them.
 */
export async function loadQuizForLearner(models: ContentModels, user: Principal, rawId: unknown): Promise<QuizDoc> {
  return (await findQuizForLearner(models, user, rawId)).quiz;
}

/**
 * A quiz as it is stored now, and as the published version of its course holds it (if it has one);
 * the lessons holding it are read once, when first needed, for whichever rule asks.
 */
interface QuizSources {
  id: string;
  live: QuizDoc | null;
  versioned: VersionedQuiz | null;
  holders?: Promise<BlockDoc[]>;
}

const holdersOf = (models: ContentModels, sources: QuizSources) => (sources.holders ??= lessonsHolding(models, sources.id));

/** A course by id, taking the one the sources already read when it is that one. */
const courseFrom = (models: ContentModels, sources: QuizSources, courseId: string) =>
  sources.versioned && String(sources.versioned.course._id) === courseId
    ? Promise.resolve(sources.versioned.course)
    : models.courses.findById(courseId).lean<CourseDoc>();

async function readQuizSources(models: ContentModels, rawId: unknown): Promise<QuizSources> {
  const id = String(readQuizId(rawId));
  const live = await models.quizzes.findById(id).lean<QuizDoc>();
  return { id, live, versioned: await versionedQuiz(models, id, live) };
}

/** The quiz a learner may read, and the course of the first lesson they see holding it. */
export async function findQuizForLearner(
  models: ContentModels,
  user: Principal,
  rawId: unknown,
  sources?: QuizSources,
): Promise<{ quiz: QuizDoc; course: CourseDoc }> {
  // A learner of a course with a published version takes the quiz as the version holds it.
  const read = sources ?? (await readQuizSources(models, rawId));
  const { id, live, versioned } = read;
  if (versioned?.view && readsPublished(user, versioned.course)) {
    const { course, quiz } = versioned;
    const view = versioned.view;
    const seen = (view.quizHolders.get(id) ?? []).some((lessonId) => learnerSeesVersionLesson(view, lessonId));
    if (!quiz || !canSeeCourse(user, course) || !seen) throw notFound(QUIZ_MSG.quizNotFound);
    return { quiz, course };
  }
  if (!live) throw notFound(QUIZ_MSG.quizNotFound);
  const quiz = live;
  for (const lesson of await holdersOf(models, read)) {
    const [course, mod] = await Promise.all([
      courseFrom(models, read, String(lesson.courseId)),
      models.blocks.findById(lesson.moduleId).lean<BlockDoc>(),
    ]);
    if (course && canSeeCourse(user, course) && canSeeBlock(user, course, lesson) && mod && canSeeBlock(user, course, mod))
      return { quiz, course };
  }
  throw notFound(QUIZ_MSG.quizNotFound);
}

/**
 * The random seed of a quiz's learner view. Quizzes from before seeds get one now; two first reads
 * at once agree, since only the first write of it lands and both read it back.
 */
export async function learnerShuffleSeed(models: ContentModels, quiz: QuizDoc): Promise<string> {
  if (quiz.shuffleSeed) return quiz.shuffleSeed;
  await models.quizzes.updateOne(
    { _id: quiz._id, shuffleSeed: op({ $exists: false }) },
    { $set: { shuffleSeed: randomBytes(16).toString('hex') } },
    { timestamps: false },
  );
  const stored = await models.quizzes.findById(quiz._id).select({ shuffleSeed: 1 }).lean<Pick<QuizDoc, 'shuffleSeed'>>();
  if (!stored?.shuffleSeed) throw notFound(QUIZ_MSG.quizNotFound);
  return stored.shuffleSeed;
}

/** The fixed questions, then an attempt's draw from the bank numbered after them. */
export const withDrawn = (fixed: Question[], drawn: Question[]): Question[] => {
  const last = fixed.reduce((max, q) => Math.max(max, q.order), 0);
  return [...fixed, ...drawn.map((q, i) => ({ ...q, order: last + i + 1 }))];
};

/** How the progress service asks for a quiz: an attempt's draw, a lesson holding it, a person who must see it. */
export interface InternalQuizAsk {
  lessonId?: string;
  drawSeed?: string;
  /**
   * Whose sight it is (a quiz's card): by the rule of GET /api/quizzes/{id}, its authors always,
   * anyone else only when a lesson they see holds it; a quiz they may not see is not found.
   */
  reader?: Principal;
}

/** GET /internal/quizzes/{id}: the whole quiz and the lesson holding it (the one asked for, or the first). */
export async function internalQuiz(
  models: ContentModels,
  rawId: unknown,
  { lessonId, drawSeed, reader }: InternalQuizAsk = {},
): Promise<InternalQuiz> {
  const sources = await readQuizSources(models, rawId);
  const { id, live, versioned } = sources;
  if (reader) {
    if (!live) throw notFound(QUIZ_MSG.quizNotFound);
    // The sources read above serve the learner's rule too: one read of the quiz and its course.
    if (!(await readsQuizAsAuthor(models, reader, live))) await findQuizForLearner(models, reader, id, sources);
  }
  // An attempt on a course with a published version takes the quiz (and its bank) as the version holds it.
  if (versioned?.view && versioned.quiz) {
    const { course, quiz } = versioned;
    const view = versioned.view;
    const holders = view.quizHolders.get(id) ?? [];
    const lesson = (lessonId && holders.includes(lessonId) ? lessonId : holders[0]) ?? null;
    const presented = presentQuiz(quiz);
    const drawn = drawSeed ? await drawFromVersionBank(models, view, presented.draws, drawSeed) : [];
    return {
      ...presented,
      questions: withDrawn(presented.questions, drawn),
      lessonId: lesson,
      lessonTitle: lesson ? (view.lessons.get(lesson)?.entry.title ?? null) : null,
      courseId: String(course._id),
      courseTitle: course.title,
      courseVersion: view.version.number,
    };
  }
  if (!live) throw notFound(QUIZ_MSG.quizNotFound);
  const quiz = live;
  const holders = await holdersOf(models, sources);
  const lesson = (lessonId ? holders.find((l) => String(l._id) === lessonId) : undefined) ?? holders[0] ?? null;
  const courseId = lesson ? String(lesson.courseId) : quiz.courseId;
  // The course read while looking for a version is the same one unless the quiz sits in another course's lesson.
  const course = courseId && Types.ObjectId.isValid(courseId) ? await courseFrom(models, sources, courseId) : null;
  const presented = presentQuiz(quiz);
  // An attempt's own draw from the bank of the course the quiz was written for, after the fixed questions.
  const drawn = drawSeed ? await drawFromBank(models, quiz.courseId, presented.draws, drawSeed) : [];
  return {
    ...presented,
    questions: withDrawn(presented.questions, drawn),
    lessonId: lesson ? String(lesson._id) : null,
    lessonTitle: lesson ? lesson.title : null,
    courseId: courseId ?? null,
    courseTitle: course?.title ?? null,
    courseVersion: null,
  };
}

/** The quiz blocks of lessons keep the number of questions they show in step with the quiz. */
export async function syncQuestionsCount(models: ContentModels, quizId: string, count: number): Promise<void> {
  const lessons = await lessonsHolding(models, quizId);
  const writes = lessons.map((lesson) => {
    const blocks = readContentBlocks(lesson.content).map((b) =>
      b.type === 'quiz' && b.content.quizId === quizId ? { ...b, content: { ...b.content, questionsCount: count } } : b,
    );
    return { updateOne: { filter: { _id: lesson._id }, update: { $set: { content: JSON.stringify(blocks) } } } };
  });
  await updateEach(models.blocks, writes);
  // The lessons' content changed: the pages of their courses must not be served from the cache.
  const courses = new Map(lessons.map((l) => [String(l.courseId), l.courseId]));
  for (const courseId of courses.values()) await touchCourse(models, courseId);
}

/**
 * Copies of the quizzes some content blocks point at, for copied lessons: a copy must not share
 * its test (and its attempts) with the original. Answers old id → new id; unknown ids stay as they are.
 */
export async function duplicateQuizzes(
  deps: CommandDeps,
  blocks: ContentBlock[],
  courseId: string,
): Promise<Map<string, string>> {
  const ids = [
    ...new Set(
      blocks.flatMap((b) =>
        b.type === 'quiz' && b.content.quizId && Types.ObjectId.isValid(b.content.quizId) ? [b.content.quizId] : [],
      ),
    ),
  ];
  if (!ids.length) return new Map();
  const sources = await deps.models.quizzes.find({ _id: op({ $in: ids.map((id) => new Types.ObjectId(id)) }) }).lean<QuizDoc[]>();
  const copies = sources.map((q) => ({
    _id: new Types.ObjectId(),
    title: q.title,
    description: q.description,
    courseId,
    questions: q.questions,
    settings: q.settings,
    draws: q.draws ?? [],
    createdBy: deps.actor.id,
  }));
  if (copies.length) await deps.models.quizzes.insertMany(copies);
  return new Map(sources.map((q, i) => [String(q._id), String(copies[i]._id)]));
}

/** Content blocks for a copied lesson: new ids, the new lesson, quiz blocks pointing at the quiz copies. */
export const copiedBlocks = (
  blocks: ContentBlock[],
  lessonId: string,
  quizIds: Map<string, string>,
  newId: () => string,
): ContentBlock[] =>
  blocks.map((b) => {
    const copy = { ...b, id: newId(), lessonId } as ContentBlock;
    if (copy.type === 'quiz' && copy.content.quizId && quizIds.has(copy.content.quizId)) {
      copy.content = { ...copy.content, quizId: quizIds.get(copy.content.quizId) };
    }
    return copy;
  });

/** When a course goes, so do the quizzes written for it that no lesson elsewhere still holds. */
export async function deleteCourseQuizzes(models: ContentModels, courseId: string): Promise<void> {
  const quizzes = await models.quizzes.find({ courseId }).select({ _id: 1 }).lean<Pick<QuizDoc, '_id'>[]>();
  const orphans: Types.ObjectId[] = [];
  for (const q of quizzes) if (!(await lessonsHolding(models, String(q._id))).length) orphans.push(q._id);
  if (orphans.length) await models.quizzes.deleteMany({ _id: op({ $in: orphans }) });
}
