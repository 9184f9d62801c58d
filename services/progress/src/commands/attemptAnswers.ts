import { PROGRESS_MSG, formatMessage, type AttemptAnswerInput, type AttemptAnswersSaved } from '@portal/contracts';
import { badRequest, conflict, notFound, op, serialised, type Principal } from '@portal/service-kit';
import type { AttemptDoc, SavedAnswer } from '../models/attempt';
import { GRACE_MS, isLate } from './attemptExpiry';
import type { ProgressDeps } from './deps';

/** The claim that closes an attempt (a submit) and that a save of its answers takes too. */
export const closeKey = (id: string) => `attempts:${id}:close`;

/**
 * Keeps the answers given so far on the learner's own unfinished attempt (docs/decisions/095): one
 * conditional write, nothing read before it. Its filter is the whole rule: the learner's own (else
 * 404), unfinished (else 409), within the deadline and the grace the submit allows (else 409), and
 * holding every question answered (else 400, as the submit refuses it). Nothing is graded or told.
 *
 * A save racing the submit: FerretDB runs a conditional update as a read and then a rewrite of the
 * whole document, so a save that read the attempt open could write it back open over the submit's
 * grade. The save therefore takes the submit's own claim (`closeKey`): one at a time, and a save after
 * the close matches nothing (409). Uncontended, the claim is one insert and one delete of a tiny row.
 */
export async function saveAnswers(
  deps: ProgressDeps,
  actor: Principal,
  id: string,
  answers: AttemptAnswerInput[],
): Promise<AttemptAnswersSaved> {
  const { attempts } = deps.models;
  const now = new Date();
  const questionIds = answers.map((a) => a.questionId);
  const saved: SavedAnswer[] = answers.map((a) => ({
    questionId: a.questionId,
    answer: a.answer ?? null,
    timeSpent: a.timeSpent ?? 0,
  }));
  const write = await serialised(attempts.db, closeKey(id), () =>
    attempts.updateOne(
      {
        _id: id,
        userId: actor.id,
        status: 'in_progress',
        $or: [{ deadline: null }, { deadline: op({ $gte: new Date(now.getTime() - GRACE_MS) }) }],
        // One equality a question, not `$all`: FerretDB matches nothing for `$all` of two or more on an array's field.
        ...(questionIds.length ? { $and: questionIds.map((q) => ({ 'questions.id': q })) } : {}),
      },
      { $set: { savedAnswers: saved, savedAt: now } },
    ),
  );
  if (write.matchedCount) return { savedAt: now.toISOString() };
  throw await saveRefusal(deps, actor, id, questionIds, now);
}

/** Why a save matched nothing: read only then, and told in the order the rule reads. */
async function saveRefusal(deps: ProgressDeps, actor: Principal, id: string, questionIds: string[], now: Date) {
  const a = await deps.models.attempts
    .findById(id, { userId: 1, status: 1, deadline: 1, questions: 1 })
    .lean<Pick<AttemptDoc, 'userId' | 'status' | 'deadline' | 'questions'>>();
  if (!a || a.userId !== actor.id) return notFound(PROGRESS_MSG.attemptNotFound);
  if (a.status !== 'in_progress') return conflict(PROGRESS_MSG.answersAttemptClosed);
  if (isLate(a, now)) return conflict(PROGRESS_MSG.answersTimeUp);
  const known = new Set(a.questions.map((q) => q.id));
  const unknown = questionIds.findIndex((q) => !known.has(q));
  if (unknown >= 0)
    return badRequest(
      formatMessage(PROGRESS_MSG.answerUnknownQuestion, { id: questionIds[unknown] }),
      `answers.${unknown}.questionId`,
    );
  // Nothing explains it now (the deadline passed between the write and this read, at most): refused as closed.
  return conflict(PROGRESS_MSG.answersAttemptClosed);
}
