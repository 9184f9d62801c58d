import { randomUUID } from 'node:crypto';
import { ATTEMPT_GRACE_SECONDS, type AttemptAnswerInput } from '@portal/contracts';
import { op, updateEach } from '@portal/service-kit';
import { isLate as isPastDeadline, toQuizTerms } from '@portal/quiz-engine';
import type { AttemptDoc } from '../models/attempt';
import type { AttemptDraftDoc, SavedAnswer } from '../models/attemptDraft';
import type { ProgressDeps } from './deps';
import { gradeAttempt } from './grading';

/**
 * An attempt's clock: when its answers come too late, when its time has run out for good, and the
 * close of the attempts whose time ran out without a submission (docs/decisions/095).
 */

export const GRACE_MS = ATTEMPT_GRACE_SECONDS * 1000;
/**
 * The expiry closes an attempt this long after the last moment a save is taken (deadline + grace):
 * a save's write (FerretDB rewrites the whole document) then lands before the close, never over it,
 * without the expiry's bulk close taking each attempt's claim.
 */
const EXPIRY_AFTER_SAVES_MS = 2000;

/** Whether answers given at `now` come past the deadline and its grace. */
export const isLate = (a: Pick<AttemptDoc, 'deadline'>, now: Date) => isPastDeadline(a.deadline, now);

/**
 * The saved answers that can be graded: each of a question the attempt holds, in a form that fits it.
 * A save checks the question ids but not each answer's fit (that needs the questions read, and a save
 * reads nothing), so an answer that does not fit counts as unanswered here rather than refusing a
 * close that nobody is waiting for.
 */
export function gradableSaved(a: Pick<AttemptDoc, 'questions'>, saved: SavedAnswer[]): AttemptAnswerInput[] {
  const byId = new Map(a.questions.map((q) => [q.id, q]));
  return saved.filter((x) => {
    const q = byId.get(x.questionId);
    return !!q && toQuizTerms(q, x.answer ?? null).ok;
  });
}

/** Seconds from the start to the deadline: the whole time an expired attempt had. */
export const timeAllowed = (a: Pick<AttemptDoc, 'startedAt' | 'deadline'>) =>
  a.deadline ? (a.deadline.getTime() - a.startedAt.getTime()) / 1000 : 0;

/** Whether an unfinished attempt is for the expiry to close: its deadline, the grace and the saves' margin are past. */
export const isExpired = (a: Pick<AttemptDoc, 'deadline'>, now: Date) =>
  !!a.deadline && a.deadline.getTime() < now.getTime() - GRACE_MS - EXPIRY_AFTER_SAVES_MS;

/**
 * Attempts whose time ran out without a submission are closed as they stand: graded on the answers
 * the learner saved as they went (every one saved in time: a save past the deadline and its grace is
 * refused), or with none when nothing was saved.
 */
export async function finalizeExpired(deps: ProgressDeps, filter: { userId?: string; quizId?: string } = {}): Promise<void> {
  const now = new Date();
  const expired = await deps.models.attempts
    .find(
      { ...filter, status: 'in_progress', deadline: op({ $lt: new Date(now.getTime() - GRACE_MS - EXPIRY_AFTER_SAVES_MS) }) },
      { answers: 0 },
    )
    .limit(500)
    .lean<AttemptDoc[]>();
  await closeExpired(deps, expired);
}

/** The grade an expired attempt closes with (on its answers saved in time). */
const expiryGrade = (a: AttemptDoc, saved: SavedAnswer[]) =>
  gradeAttempt({
    questions: a.questions,
    answers: gradableSaved(a, saved),
    passingScore: a.passingScore,
    late: false,
    elapsedSeconds: timeAllowed(a),
    scoring: a.scoring,
  });

/**
 * Closes expired attempts already read (`isExpired`): an update each, nothing when there are none. Answers how each closes (whether this call or a simultaneous one closed it).
 */
export async function closeExpired(
  deps: ProgressDeps,
  expired: AttemptDoc[],
): Promise<Array<{ attempt: AttemptDoc; result: ReturnType<typeof expiryGrade> }>> {
  if (!expired.length) return [];
  const { attempts, attemptDrafts } = deps.models;
  // Their drafts in one query. An `$in` on `_id` is a scan on FerretDB: of the drafts alone, which
  // live only while their attempts are unfinished.
  const ids = expired.map((a) => a._id);
  const drafts = await attemptDrafts
    .find({ _id: op({ $in: ids }) }, { answers: 1 })
    .lean<Array<Pick<AttemptDraftDoc, '_id' | 'answers'>>>();
  const savedOf = new Map(drafts.map((d) => [String(d._id), d.answers]));
  const graded = expired.map((a) => ({ attempt: a, result: expiryGrade(a, savedOf.get(String(a._id)) ?? []) }));
  // One update each, a few at a time (updateEach: a bulk of them can stop FerretDB). The stamp tells
  // which ones this call closed, when another request closed some of them meanwhile.
  const expiredBy = randomUUID();
  const write = await updateEach(
    attempts,
    graded.map(({ attempt, result }) => ({
      updateOne: {
        filter: { _id: attempt._id, status: 'in_progress' },
        update: {
          $set: {
            status: result.status,
            score: result.score,
            maxScore: result.maxScore,
            percentage: result.percentage,
            answers: result.answers,
            completedAt: attempt.deadline,
            expiredBy,
          },
        },
      },
    })),
  );
  let closed = graded;
  if (write.modified < graded.length) {
    const mine = await attempts
      .find({ _id: op({ $in: expired.map((a) => a._id) }), expiredBy }, { _id: 1 })
      .lean<Array<{ _id: AttemptDoc['_id'] }>>();
    const mineIds = new Set(mine.map((a) => String(a._id)));
    closed = graded.filter(({ attempt }) => mineIds.has(String(attempt._id)));
  }
  // Graded now: their drafts go (a simultaneous close deletes the same ones).
  if (drafts.length) await attemptDrafts.deleteMany({ _id: op({ $in: drafts.map((d) => d._id) }) });
  for (const { attempt: a, result } of closed) {
    deps.audit.publish({
      code: 'attempt.expired',
      data: {
        quiz: a.quizTitle,
        attemptNumber: a.attemptNumber,
        learner: a.userName,
        score: result.score,
        maxScore: result.maxScore,
        percentage: result.percentage,
        attemptId: String(a._id),
        courseId: a.courseId,
        userId: a.userId,
      },
      entityId: a.quizId,
      actor: null,
    });
  }
  return graded;
}
