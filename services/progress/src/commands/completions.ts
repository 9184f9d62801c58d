import {
  PROGRESS_MSG,
  SCORM_MSG,
  completedLessonIdsOf,
  computeCourseProgress,
  isFinalPass,
  type CourseOutline,
  type CourseProgress,
  type LessonCompleteResult,
} from '@portal/contracts';
import { conflict, notFound, op, type Principal } from '@portal/service-kit';
import type { ProgressModels } from '../models';
import type { AttemptDoc } from '../models/attempt';
import { noteLearnerActivity } from './activity';
import type { ProgressDeps } from './deps';
import { assertCourseOpen, onCourseCompleted } from './programEnrolment';

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

type QuizTry = { lessonId: string; status: string; awaitingReview?: boolean; completedAt?: Date | null };

/**
 * Whether a completion at `at` still counts for the lesson: a published version may have required it
 * to be taken again (`retakeSince`, docs/decisions/093), and then only what came after counts.
 */
export const countsFor = (lesson: { retakeSince?: string } | undefined, at: Date | null | undefined): boolean =>
  !lesson?.retakeSince || (!!at && new Date(at).getTime() >= new Date(lesson.retakeSince).getTime());

/** A lesson the learner marked completed, and when. */
type Marked = { lessonId: string; completedAt: Date };

/** The learner's completion records of the lessons the course holds now. */
function markedLessons(models: ProgressModels, userId: string, course: CourseOutline): Promise<Marked[]> {
  const lessonIds = course.modules.flatMap((m) => m.lessons.map((l) => l.id));
  if (!lessonIds.length) return Promise.resolve([]);
  return models.completions
    .find({ userId, courseId: course.id, lessonId: op({ $in: lessonIds }) }, { lessonId: 1, completedAt: 1 })
    .lean<Marked[]>();
}

/**
 * The learner's progress in a course as its structure stands now, by the one rule of completion
 * (`completedLessonIdsOf`): marked lessons without a quiz, and lessons whose quiz is passed. A
 * caller that has just read the learner's completion records, and written none, hands them on (`marked`).
 */
export async function courseProgressFor(
  models: ProgressModels,
  userId: string,
  course: CourseOutline,
  known?: { marked: Marked[] },
): Promise<CourseProgress> {
  const lessons = course.modules.flatMap((m) => m.lessons);
  const [marked, tries, finished] = await Promise.all([
    known?.marked ?? markedLessons(models, userId, course),
    lessons.some((l) => l.hasQuiz)
      ? models.attempts
          .find({ userId, courseId: course.id }, { lessonId: 1, status: 1, awaitingReview: 1, completedAt: 1 })
          .lean<QuizTry[]>()
      : [],
    models.courseCompletions.findOne({ userId, courseId: course.id }, { completedAt: 1 }).lean<{ completedAt: Date }>(),
  ]);
  const byId = new Map(lessons.map((l) => [l.id, l]));
  const completed = completedLessonIdsOf(
    lessons,
    marked.filter((d) => countsFor(byId.get(d.lessonId), d.completedAt)).map((d) => d.lessonId),
    tries.filter((a) => isFinalPass(a) && countsFor(byId.get(a.lessonId), a.completedAt)).map((a) => a.lessonId),
  );
  return computeCourseProgress(course, completed, finished ? finished.completedAt.toISOString() : null, {
    awaitingReview: tries.filter((a) => a.awaitingReview && a.status !== 'in_progress').map((a) => a.lessonId),
    attempted: tries.map((a) => a.lessonId),
  });
}

/**
 * «Завершить урок» on a lesson with a quiz: refused until a quiz of it is passed (a pass completes
 * it by itself), saying whether an answer still waits for a person.
 */
async function assertQuizPassed(
  models: ProgressModels,
  userId: string,
  lesson: { id: string; retakeSince?: string },
): Promise<void> {
  const tries = await models.attempts
    .find({ userId, lessonId: lesson.id }, { status: 1, awaitingReview: 1, completedAt: 1 })
    .lean<QuizTry[]>();
  if (tries.some((a) => isFinalPass(a) && countsFor(lesson, a.completedAt))) return;
  const waiting = tries.some((a) => a.awaitingReview && a.status !== 'in_progress');
  throw conflict(waiting ? PROGRESS_MSG.lessonNeedsReview : PROGRESS_MSG.lessonNeedsQuiz);
}

/**
 * Whether a lesson is played as a SCORM package: the outline says so (`hasScorm`); an outline from
 * before the field asks the content service for the lesson's SCO.
 */
async function holdsSco(deps: ProgressDeps, lesson: { id: string; hasScorm?: boolean }): Promise<boolean> {
  if (lesson.hasScorm !== undefined) return lesson.hasScorm;
  return (await deps.content.scormBinding(lesson.id)) !== null;
}

/** A pass of the lesson's quiz as its caller holds it, already stored (a submit, a review's last grade). */
export type HeldPass = Pick<AttemptDoc, 'userId' | 'courseId' | 'lessonId' | 'status' | 'awaitingReview' | 'completedAt'>;

/**
 * Marks a lesson completed for the learner (idempotent: a second call changes nothing) and, when
 * it was the last one, records the course as completed. Each new record publishes one audit event.
 * A lesson with a quiz is completed only once its quiz is passed (409 before); any other lesson with
 * a SCORM package only by its SCO (`bySco`, when the package reports completion): 409 otherwise.
 *
 * A caller holding the learner's stored pass of the lesson's quiz hands it on (`pass`), and the store
 * is not asked what it answers: whether the quiz is passed, and whether the learner's activity in the
 * course is still to be noted (an attempt of theirs in it is one, so it was noted at its start).
 */
export async function completeLesson(
  deps: ProgressDeps,
  actor: Principal,
  course: CourseOutline,
  lessonId: string,
  { bySco = false, pass }: { bySco?: boolean; pass?: HeldPass } = {},
): Promise<LessonCompleteResult> {
  const { models, audit } = deps;
  const lesson = course.modules.flatMap((m) => m.lessons).find((l) => l.id === lessonId);
  if (!lesson) throw notFound(PROGRESS_MSG.lessonNotFound);
  const held = pass && pass.userId === actor.id && pass.courseId === course.id && pass.lessonId === lessonId && isFinalPass(pass);
  // A lesson with a quiz counts by its quiz whatever else it holds (completedLessonIdsOf).
  const lessonRule = async () => {
    if (lesson.hasQuiz) {
      if (!bySco && !(held && countsFor(lesson, pass.completedAt))) await assertQuizPassed(models, actor.id, lesson);
    } else if (!bySco && (await holdsSco(deps, lesson))) throw conflict(SCORM_MSG.lessonIsScorm);
  };
  // Three reads that do not wait for one another: the lesson's rule, whether the course's program
  // stage is open (a course of a closed stage is not completed lesson by lesson before it opens), and
  // the learner's completions in the course, read once (whether this lesson's is stored already,
  // whether their activity in the course was noted, and, with this one, the progress below). A refusal
  // is the first of the checks' in that order, whichever answered first.
  const [rule, open, read] = await Promise.allSettled([
    lessonRule(),
    assertCourseOpen(deps, actor, course.id),
    markedLessons(models, actor.id, course),
  ]);
  for (const check of [rule, open]) if (check.status === 'rejected') throw check.reason;
  if (read.status === 'rejected') throw read.reason;
  const marked = read.value;
  if (!held) await noteLearnerActivity(deps, actor, course.id, { completed: marked.length > 0 });
  const now = new Date();
  const stored = marked.find((d) => d.lessonId === lessonId);
  let created = false;
  let completedAt = stored?.completedAt ?? now;
  if (stored && !countsFor(lesson, stored.completedAt)) {
    // A lesson to be taken again: the completion before the requirement is replaced by this one.
    await models.completions.updateOne({ userId: actor.id, lessonId }, { $set: { completedAt: now } });
    [created, completedAt] = [true, now];
  } else if (!stored) {
    try {
      const write = await models.completions.updateOne(
        { userId: actor.id, lessonId },
        { $setOnInsert: { courseId: course.id, completedAt: now } },
        { upsert: true },
      );
      created = write.upsertedCount > 0;
    } catch (err) {
      if (!isDuplicate(err)) throw err; // a simultaneous call wrote it first
    }
    // A simultaneous call wrote it first: its record is the one kept.
    if (!created) {
      const record = await models.completions.findOne({ userId: actor.id, lessonId }, { completedAt: 1 }).lean();
      if (record) completedAt = record.completedAt;
    }
  }
  if (created) {
    audit.publish({
      code: 'lesson.completed',
      data: { lesson: lesson.title, course: course.title, courseId: course.id },
      entityId: lessonId,
      actor,
    });
  }

  // A call that wrote a record reads the completions again: another lesson of the course completed
  // at the same moment is not in the first read, and one of the two calls must see both. A call that
  // wrote nothing changed nothing, so its first read stands.
  const known = created ? undefined : { marked: [...marked.filter((d) => d.lessonId !== lessonId), { lessonId, completedAt }] };
  let progress = await courseProgressFor(models, actor.id, course, known);
  if (progress.isCompleted && !progress.completedAt) {
    progress = { ...progress, completedAt: (await recordCourseCompletion(deps, actor, course, now)).toISOString() };
  }
  // Programs holding the course move on: a stage completes, the next one opens (a quiz passed again
  // counts in a recurring program, so this runs whenever the course stands completed).
  if (progress.isCompleted) await onCourseCompleted(deps, actor, course.id);
  return { lessonId, courseId: course.id, completedAt: completedAt.toISOString(), created, progress };
}

async function recordCourseCompletion(deps: ProgressDeps, actor: Principal, course: CourseOutline, at: Date): Promise<Date> {
  const { models, audit } = deps;
  try {
    const write = await models.courseCompletions.updateOne(
      { userId: actor.id, courseId: course.id },
      { $setOnInsert: { courseTitle: course.title, completedAt: at } },
      { upsert: true },
    );
    if (write.upsertedCount > 0) {
      audit.publish({ code: 'course.completed', data: { course: course.title }, entityId: course.id, actor });
    }
  } catch (err) {
    if (!isDuplicate(err)) throw err;
  }
  const stored = await models.courseCompletions.findOne({ userId: actor.id, courseId: course.id }).lean();
  return stored?.completedAt ?? at;
}
