import { PROGRESS_MSG, formatMessage, type AttemptAnswerInput, type AttemptAnswersSaved } from '@portal/contracts';
import { badRequest, conflict, notFound, op, serialised, type Principal } from '@portal/service-kit';
import type { AttemptDoc } from '../models/attempt';
import type { AttemptDraftDoc, SavedAnswer } from '../models/attemptDraft';
import { GRACE_MS, isLate } from './attemptExpiry';
import type { ProgressDeps } from './deps';

/** The claim that closes an attempt (a submit) and that a save of its answers takes too. */
export const closeKey = (id: string) => `attempts:${id}:close`;

/** The saved answers of the attempt, when any were saved and it is unfinished (docs/decisions/099). */
export const savedDraft = (deps: ProgressDeps, attemptId: AttemptDoc['_id'] | string) =>
  deps.models.attemptDrafts.findById(attemptId, { answers: 1, savedAt: 1 }).lean<Pick<AttemptDraftDoc, 'answers' | 'savedAt'>>();

/** What a save reads of the attempt when it has no draft yet: the rule's fields and the draft's own. */
type DraftSource = Pick<AttemptDoc, 'userId' | 'status' | 'deadline' | 'questions' | 'quizId' | 'quizTitle' | 'attemptNumber'>;

/**
 * Keeps the answers given so far on the learner's own unfinished attempt (docs/decisions/095), in the
 * attempt's draft (docs/decisions/099): one conditional write of that small document, nothing read
 * before it. Its filter is the whole rule: the learner's own, within the deadline and the grace the
 * submit allows, holding every question answered. The first save finds no draft: the attempt is read
 * once, to check the rule (404 not theirs, 409 closed or time up, 400 an unknown question, as the
 * submit refuses it) and to write the draft. Nothing is graded or told.
 *
 * A save racing the submit: the submit closes the attempt and deletes its draft under its claim
 * (`closeKey`); the save takes the same claim, so one goes at a time, and a save after the close finds
 * no draft and the attempt closed (409). The claim is held in Redis, one command to take and one to
 * release, and in the store (an insert and a delete) only while Redis does not answer (docs/decisions/101).
 */
export async function saveAnswers(
  deps: ProgressDeps,
  actor: Principal,
  id: string,
  answers: AttemptAnswerInput[],
): Promise<AttemptAnswersSaved> {
  const { attemptDrafts } = deps.models;
  const now = new Date();
  const questionIds = answers.map((a) => a.questionId);
  const saved: SavedAnswer[] = answers.map((a) => ({
    questionId: a.questionId,
    answer: a.answer ?? null,
    timeSpent: a.timeSpent ?? 0,
  }));
  await serialised(
    attemptDrafts.db,
    closeKey(id),
    async () => {
      const write = await attemptDrafts.updateOne(
        {
          _id: id,
          userId: actor.id,
          $or: [{ deadline: null }, { deadline: op({ $gte: new Date(now.getTime() - GRACE_MS) }) }],
          // One equality a question, not `$all`: FerretDB matches nothing for `$all` of two or more on an array's field.
          ...(questionIds.length ? { $and: questionIds.map((q) => ({ questionIds: q })) } : {}),
        },
        { $set: { answers: saved, savedAt: now } },
      );
      if (write.matchedCount) return;
      const attempt = await deps.models.attempts
        .findById(id, { userId: 1, status: 1, deadline: 1, questions: 1, quizId: 1, quizTitle: 1, attemptNumber: 1 })
        .lean<DraftSource>();
      const refusal = saveRefusal(attempt, actor, questionIds, now);
      if (refusal) throw refusal;
      // The first save: the draft is written with what the next saves are checked against.
      await attemptDrafts.updateOne(
        { _id: id },
        {
          $set: {
            userId: attempt!.userId,
            quizId: attempt!.quizId,
            quizTitle: attempt!.quizTitle,
            attemptNumber: attempt!.attemptNumber,
            deadline: attempt!.deadline,
            questionIds: attempt!.questions.map((q) => q.id),
            answers: saved,
            savedAt: now,
          },
        },
        { upsert: true },
      );
    },
    { redis: deps.claims },
  );
  return { savedAt: now.toISOString() };
}

/** Why a save may not go into the attempt, in the order the rule reads; null when it may. */
function saveRefusal(a: DraftSource | null, actor: Principal, questionIds: string[], now: Date) {
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
  return null;
}
