import {
  DEFAULT_SHOW_CORRECT_ANSWERS,
  PROGRESS_MSG,
  quizInfoOf,
  type AttemptAnswerInput,
  type AttemptDetail,
  type AttemptStatus,
  type QuizCard,
} from '@portal/contracts';
import { notFound, op, serialised, type Principal } from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import type { AttemptDoc } from '../models/attempt';
import { correctAnswersRevealed, maySeeAttempt, questionsRevealed, startRefusal } from '../policies/attempts';
import {
  hiddenFrom,
  presentAttemptDetail,
  presentAttemptSummary,
  presentSavedAnswers,
  withoutResult,
} from '../presenters/attempt';
import { closeKey, savedDraft } from './attemptAnswers';
import { finalizeExpired, gradableSaved, isExpired, isLate, timeAllowed } from './attemptExpiry';
import { completeLesson } from './completions';
import type { ProgressDeps } from './deps';
import { gradeAttempt, newShuffleSeed } from './grading';

/** An attempt's start and the saves of its answers have files of their own; the routes take them from here. */
export { saveAnswers } from './attemptAnswers';
export { startAttempt } from './attemptStart';

const FINISHED = () => op({ $in: ['passed', 'failed'] as AttemptStatus[] });

async function isCourseCompleted(deps: ProgressDeps, userId: string, courseId: string): Promise<boolean> {
  return !!(await deps.models.courseCompletions.exists({ userId, courseId }));
}

/**
 * Whether the learner is done with the quiz for «after passing or the last attempt»: this attempt
 * passed or was the last allowed, or another of theirs passed, or they have used every attempt.
 */
async function doneWithQuiz(deps: ProgressDeps, a: AttemptDoc): Promise<boolean> {
  if (a.status === 'passed' || a.attemptNumber >= a.maxAttempts) return true;
  const finished = await deps.models.attempts
    .find({ userId: a.userId, quizId: a.quizId, status: FINISHED() }, { status: 1 })
    .lean<Pick<AttemptDoc, 'status'>[]>();
  return finished.some((x) => x.status === 'passed') || finished.length >= a.maxAttempts;
}

export async function detailFor(deps: ProgressDeps, viewer: Principal, a: AttemptDoc): Promise<AttemptDetail> {
  // The learner's own unfinished attempt: what they saved so far, for a player on another device.
  const saved =
    a.userId === viewer.id && a.status === 'in_progress' ? presentSavedAnswers(await savedDraft(deps, a._id)) : undefined;
  if (saved) return { ...presentAttemptDetail(a, false, false), savedAnswers: saved };
  if (hiddenFrom(viewer.id, a)) return withoutResult(presentAttemptDetail(a, false, false));
  const courseDone = a.showExplanations === 'after_course' ? await isCourseCompleted(deps, a.userId, a.courseId) : false;
  const setting = a.showCorrectAnswers ?? DEFAULT_SHOW_CORRECT_ANSWERS;
  const done = setting === 'after_pass_or_last' && a.status !== 'in_progress' ? await doneWithQuiz(deps, a) : false;
  return presentAttemptDetail(
    a,
    questionsRevealed(viewer, a.showExplanations, courseDone),
    correctAnswersRevealed(viewer, setting, done),
  );
}

/** Loads an attempt the viewer may see (`maySeeAttempt`); anyone else's is "not found". */
export async function loadAttempt(deps: ProgressDeps, viewer: Principal, id: string): Promise<AttemptDoc> {
  const attempt = isValidObjectId(id) ? await deps.models.attempts.findById(id).lean<AttemptDoc>() : null;
  if (!attempt) throw notFound(PROGRESS_MSG.attemptNotFound);
  // The content service is asked only when the attempt is not the viewer's own.
  const courses = attempt.userId === viewer.id ? new Set<string>() : await deps.content.curatedCourses(viewer);
  if (!maySeeAttempt(viewer, attempt, courses)) throw notFound(PROGRESS_MSG.attemptNotFound);
  return attempt;
}

/**
 * Grades the learner's answers on the server. Submitting twice answers the first result (a retry
 * after a lost connection must not fail). Answers past the time limit and its grace count as
 * unanswered. A pass completes the lesson the quiz stands in.
 */
export async function submitAttempt(
  deps: ProgressDeps,
  actor: Principal,
  id: string,
  answers: AttemptAnswerInput[],
): Promise<AttemptDetail> {
  const { models, content, audit, logger } = deps;
  const attempt = await loadAttempt(deps, actor, id);
  if (attempt.userId !== actor.id) throw notFound(PROGRESS_MSG.attemptNotFound);
  if (attempt.status !== 'in_progress') return detailFor(deps, actor, attempt);

  const now = new Date();
  const late = isLate(attempt, now);
  // Past the deadline and its grace the answers sent now do not count, but those saved in time do,
  // as when the attempt is closed by its expiry (a submit refused under load and retried too late).
  const saved = late ? (await savedDraft(deps, attempt._id))?.answers : undefined;
  const onSaved = !!saved?.length;
  const graded = gradeAttempt({
    questions: attempt.questions,
    answers: saved?.length ? gradableSaved(attempt, saved) : answers,
    passingScore: attempt.passingScore,
    late: late && !onSaved,
    elapsedSeconds: onSaved ? timeAllowed(attempt) : (now.getTime() - attempt.startedAt.getTime()) / 1000,
    scoring: attempt.scoring,
  });
  const closing = {
    status: graded.status,
    score: graded.score,
    maxScore: graded.maxScore,
    percentage: graded.percentage,
    answers: graded.answers,
    pendingReviews: graded.pendingReviews,
    awaitingReview: graded.pendingReviews > 0,
    completedAt: late && attempt.deadline ? attempt.deadline : now,
  } satisfies Partial<AttemptDoc>;
  // Two submits of one attempt (two tabs, a retry) close it one at a time: FerretDB runs the
  // conditional update as a read and then a write, so without the claim both could match and the
  // learner be shown a result other than the one stored. The saved answers go with the close, under
  // the same claim, so a save after it finds the attempt closed.
  const write = await serialised(
    models.attempts.db,
    closeKey(String(attempt._id)),
    async () => {
      const closed = await models.attempts.updateOne({ _id: attempt._id, status: 'in_progress' }, { $set: closing });
      if (closed.modifiedCount) await models.attemptDrafts.deleteOne({ _id: attempt._id });
      return closed;
    },
    { redis: deps.claims },
  );
  // A simultaneous submit finished it first: its grade is the one stored, and the one shown.
  if (!write.modifiedCount) return detailFor(deps, actor, (await models.attempts.findById(attempt._id).lean<AttemptDoc>())!);
  // This write closed it: the attempt as stored now is the one read with the write applied.
  const stored: AttemptDoc = { ...attempt, ...closing };

  audit.publish({
    code: graded.status === 'passed' ? 'attempt.passed' : 'attempt.failed',
    data: {
      quiz: attempt.quizTitle,
      attemptNumber: attempt.attemptNumber,
      score: graded.score,
      maxScore: graded.maxScore,
      percentage: graded.percentage,
      ...(late ? { late } : {}),
      attemptId: id,
      courseId: attempt.courseId,
    },
    entityId: attempt.quizId,
    actor,
  });
  if (graded.status === 'passed' && !graded.pendingReviews) {
    // The lesson is completed on the server too (a pass still waiting for a person completes it once
    // graded); the attempt stands even if the content service is away.
    try {
      // The pass as stored is handed on: the completion does not ask the store about it again.
      const course = await content.outlineFor(attempt.courseId, actor);
      await completeLesson(deps, actor, course, attempt.lessonId, { pass: stored });
    } catch (err) {
      logger.warn({ attempt: id, err: (err as Error).message }, 'lesson not completed after a passed quiz');
    }
  }
  return detailFor(deps, actor, stored);
}

/**
 * The attempt the card shows: the highest percentage, a pass before a fail at the same percentage,
 * then the earlier one. An attempt closed when its time ran out never hides a better one before it.
 */
function bestOf<T extends Pick<AttemptDoc, 'percentage' | 'status' | 'attemptNumber'>>(finished: T[]): T | null {
  let best: T | null = null;
  for (const a of finished) {
    const better =
      !best ||
      a.percentage > best.percentage ||
      (a.percentage === best.percentage && a.status === 'passed' && best.status !== 'passed') ||
      (a.percentage === best.percentage && a.status === best.status && a.attemptNumber < best.attemptNumber);
    if (better) best = a;
  }
  return best;
}

const ownView = (actor: Principal, a: AttemptDoc) =>
  hiddenFrom(actor.id, a) ? withoutResult(presentAttemptSummary(a)) : presentAttemptSummary(a);

/** What the quiz card in a lesson shows: the quiz (without answers), the latest attempt, and whether one may start. */
export async function quizCard(deps: ProgressDeps, actor: Principal, quizId: string): Promise<QuizCard> {
  // A learner may only see the card of a quiz a visible lesson holds: one call, in which the content
  // service checks that with the person as data (never with their token). Read with a draw, as an
  // attempt is: the card counts the questions an attempt will have, bank ones too.
  const quiz = await deps.content.getQuiz(quizId, newShuffleSeed(), actor);
  const read = () =>
    deps.models.attempts
      .find({ userId: actor.id, quizId: quiz.id }, { questions: 0, answers: 0 })
      .sort({ attemptNumber: -1 })
      .lean<AttemptDoc[]>();
  // One query as a rule; an attempt whose time ran out is closed first, and the list read again.
  let mine = await read();
  const now = new Date();
  if (mine.some((a) => a.status === 'in_progress' && isExpired(a, now))) {
    await finalizeExpired(deps, { userId: actor.id, quizId: quiz.id });
    mine = await read();
  }
  const finished = mine.filter((a) => a.status !== 'in_progress');
  const open = mine.find((a) => a.status === 'in_progress');
  const best = bestOf(finished);
  const reason = open ? null : quiz.questions.length ? startRefusal(quiz.settings.maxAttempts, finished) : PROGRESS_MSG.quizEmpty;
  return {
    quiz: quizInfoOf(quiz),
    attemptsUsed: finished.length,
    latest: finished[0] ? ownView(actor, finished[0]) : null,
    best: best ? ownView(actor, best) : null,
    inProgress: open ? { id: String(open._id), deadline: open.deadline ? open.deadline.toISOString() : null } : null,
    canStart: !reason,
    blockedReason: reason,
  };
}
