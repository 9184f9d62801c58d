import {
  PROGRESS_MSG,
  SCORM_MSG,
  isObjectIdHex,
  scormCountsAsCompleted,
  type CourseOutline,
  type ScormCommitInput,
  type ScormLessonBinding,
} from '@portal/contracts';
import { conflict, notFound, op, type Principal } from '@portal/service-kit';
import { noteLearnerActivity } from '../commands/activity';
import { completeLesson } from '../commands/completions';
import type { ProgressDeps } from '../commands/deps';
import type { ScormAttemptDoc } from '../models/scormAttempt';
import { exitOf, interactionsOf, scoreOf, sessionSecondsOf } from './cmi';

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

/** What opening needs of the lesson: the learner may see it, and it holds a SCO. */
export interface ScormLesson {
  course: CourseOutline;
  binding: ScormLessonBinding;
}

/**
 * The lesson as the learner may see it (the course's outline as the content service answers it for
 * them) and its SCO; 404 when the lesson is not in the course or holds no SCORM block.
 */
export async function loadScormLesson(
  deps: ProgressDeps,
  learner: Principal,
  courseId: string,
  lessonId: string,
): Promise<ScormLesson> {
  const course = await deps.content.outlineFor(courseId, learner);
  if (!course.modules.some((m) => m.lessons.some((l) => l.id === lessonId))) throw notFound(PROGRESS_MSG.lessonNotFound);
  const binding = await deps.content.scormBinding(lessonId);
  if (!binding || binding.courseId !== courseId) throw notFound(SCORM_MSG.packageNotFound);
  return { course, binding };
}

const latestAttempt = (deps: ProgressDeps, userId: string, lessonId: string) =>
  deps.models.scormAttempts.findOne({ userId, lessonId }).sort({ number: -1 }).lean<ScormAttemptDoc>();

/**
 * The learner's current attempt at the lesson's SCO, attempt 1 when there is none. `fresh` after a
 * completed attempt starts the next one, if the lesson allows it (409 otherwise); an unfinished
 * attempt is always the one resumed. Two opens racing for the same number make one attempt: the
 * unique index refuses the second, which then reads the first.
 */
export async function openScormAttempt(
  deps: ProgressDeps,
  actor: Principal,
  { course, binding }: ScormLesson,
  fresh = false,
): Promise<ScormAttemptDoc> {
  const latest = await latestAttempt(deps, actor.id, binding.lessonId);
  if (latest && !(fresh && latest.completedAt)) return latest;
  if (latest && !binding.allowNewAttempt) throw conflict(SCORM_MSG.newAttemptNotAllowed);

  await noteLearnerActivity(deps, actor, course.id);
  const number = (latest?.number ?? 0) + 1;
  try {
    const created = await deps.models.scormAttempts.create({
      userId: actor.id,
      userName: actor.fullName,
      courseId: course.id,
      courseTitle: course.title,
      lessonId: binding.lessonId,
      lessonTitle: binding.lessonTitle,
      packageId: binding.packageId,
      scoId: binding.scoId,
      number,
    });
    return created.toObject<ScormAttemptDoc>();
  } catch (err) {
    if (!isDuplicate(err)) throw err;
    const winner = await latestAttempt(deps, actor.id, binding.lessonId);
    if (!winner) throw err;
    return winner;
  }
}

/** The attempt, if it is the learner's own; anyone else's is "not found", so ids leak nothing. */
export async function ownScormAttempt(deps: ProgressDeps, actor: Principal, id: string): Promise<ScormAttemptDoc> {
  const attempt = isObjectIdHex(id) ? await deps.models.scormAttempts.findById(id).lean<ScormAttemptDoc>() : null;
  if (!attempt || attempt.userId !== actor.id) throw notFound(SCORM_MSG.attemptNotFound);
  return attempt;
}

export interface CommitOutcome {
  /** False when the commit's sequence was at or below the stored one: nothing changed. */
  applied: boolean;
  attempt: ScormAttemptDoc;
}

/**
 * Stores a commit of the package (durable and idempotent) in one store operation: the person's own
 * attempt is updated only when the commit's sequence is above the stored one (a conditional
 * `findOneAndUpdate` answering the stored attempt), so a resent, repeated or late commit changes
 * nothing; only then is the attempt read again, to tell a stale commit (applied: false) from
 * someone else's or no attempt (404). When the attempt counts as completed and the lesson was not
 * completed through it yet, the lesson is completed as a native one (course progress, course
 * completion, assignments and certificates follow); a resend after a failure between the two
 * completes it then.
 */
export async function commitScormAttempt(
  deps: ProgressDeps,
  actor: Principal,
  attemptId: string,
  commit: ScormCommitInput,
  { final }: { final: boolean },
): Promise<CommitOutcome> {
  const { scormAttempts } = deps.models;
  const cmi = commit.runtimeData.cmi;
  const written = isObjectIdHex(attemptId)
    ? await scormAttempts
        .findOneAndUpdate(
          { _id: attemptId, userId: actor.id, sequence: op({ $lt: commit.commitSequence }) },
          {
            $set: {
              cmi: JSON.stringify(commit.runtimeData),
              sequence: commit.commitSequence,
              completionStatus: commit.completionStatus ?? 'unknown',
              successStatus: commit.successStatus ?? 'unknown',
              score: scoreOf(commit.score),
              totalTimeSeconds: commit.totalTimeSeconds ?? 0,
              sessionTimeSeconds: sessionSecondsOf(cmi),
              interactions: interactionsOf(cmi),
              exit: exitOf(cmi),
              ...(final ? { ended: true } : {}),
            },
          },
          { returnDocument: 'after' },
        )
        .lean<ScormAttemptDoc>()
    : null;
  const stored = written ?? (await ownScormAttempt(deps, actor, attemptId));
  if (!stored.completedAt && scormCountsAsCompleted(stored.completionStatus, stored.successStatus)) {
    const course = await deps.content.outlineFor(stored.courseId, actor);
    await completeLesson(deps, actor, course, stored.lessonId, { bySco: true });
    const completed = await scormAttempts
      .findOneAndUpdate(
        { _id: stored._id, completedAt: null },
        { $set: { completedAt: new Date() } },
        { returnDocument: 'after' },
      )
      .lean<ScormAttemptDoc>();
    return { applied: written !== null, attempt: completed ?? (await ownScormAttempt(deps, actor, attemptId)) };
  }
  return { applied: written !== null, attempt: stored };
}
