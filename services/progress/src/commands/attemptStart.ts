import {
  CANDIDATE_LINK_MSG,
  DEFAULT_SHOW_CORRECT_ANSWERS,
  PROGRESS_MSG,
  isStaff,
  type AttemptStartInput,
  type SavedAnswers,
  type StartedAttempt,
} from '@portal/contracts';
import { badRequest, forbidden, notFound, type Principal } from '@portal/service-kit';
import { DEFAULT_SCORING, deadlineOf, maxScoreOf } from '@portal/quiz-engine';
import { isValidObjectId } from 'mongoose';
import type { AttemptDoc } from '../models/attempt';
import { authorizeStart } from '../policies/attempts';
import { presentAttemptSummary, presentQuizInfo, presentSavedAnswers } from '../presenters/attempt';
import { savedDraft } from './attemptAnswers';
import { closeExpired, isExpired } from './attemptExpiry';
import { countsFor } from './completions';
import type { ProgressDeps } from './deps';
import { newShuffleSeed, playerQuestion, presentQuestions } from './grading';
import { assertCourseOpen } from './programEnrolment';

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

/**
 * A candidate «по ссылке» takes the link's quiz where the link put it, once, with the link's time
 * limit (or the quiz's when the link sets none) and its rule on showing the result.
 */
async function linkTermsFor(
  deps: ProgressDeps,
  actor: Principal,
  input: AttemptStartInput,
): Promise<{ linkId: string; timeLimit: number | null; showResult: boolean } | null> {
  const scope = actor.linkScope;
  if (!scope) return null;
  if (scope.quizId !== input.quizId || scope.courseId !== input.courseId || scope.lessonId !== input.lessonId) {
    throw forbidden(CANDIDATE_LINK_MSG.scopeOnly);
  }
  const link = isValidObjectId(scope.linkId)
    ? await deps.models.candidateLinks.findById(scope.linkId, { timeLimitMinutes: 1, showResult: 1 }).lean()
    : null;
  if (!link) throw notFound(CANDIDATE_LINK_MSG.notFound);
  return { linkId: scope.linkId, timeLimit: link.timeLimitMinutes, showResult: link.showResult };
}

/** A check's refusal kept to be thrown later: the error it threw, or null when it passed. */
const refusalOf = (check: Promise<void>): Promise<unknown> =>
  check.then(
    () => null,
    (err: unknown) => err,
  );

function started(a: AttemptDoc, resumed: false | { saved: SavedAnswers | undefined }): StartedAttempt {
  return {
    attempt: presentAttemptSummary(a),
    quiz: presentQuizInfo(a),
    questions: a.questions.map(playerQuestion),
    deadline: a.deadline ? a.deadline.toISOString() : null,
    serverNow: new Date().toISOString(),
    resumed: !!resumed,
    ...(resumed && resumed.saved?.answers.length ? { savedAnswers: resumed.saved } : {}),
  };
}

/** An unfinished attempt taken up again, with the answers saved so far (one read of its small draft). */
const resume = async (deps: ProgressDeps, a: AttemptDoc) =>
  started(a, { saved: presentSavedAnswers(await savedDraft(deps, a._id)) });

async function openAttempt(deps: ProgressDeps, userId: string, quizId: string): Promise<AttemptDoc | null> {
  return deps.models.attempts.findOne({ userId, quizId, status: 'in_progress' }).lean<AttemptDoc>();
}

/**
 * Every attempt of the learner at the quiz, in one query (two equalities the store's index serves):
 * the unfinished one to resume, those whose time ran out, and the tries counted against the limit.
 * The graded answers are not needed here; the questions are (a resume, an expiry).
 */
const attemptsAtQuiz = (deps: ProgressDeps, userId: string, quizId: string) =>
  deps.models.attempts.find({ userId, quizId }, { answers: 0 }).lean<AttemptDoc[]>();

/**
 * Starts an attempt, or resumes the unfinished one (same questions, same deadline): closing the
 * player neither spends an attempt nor restarts the clock. Refused (409) beyond maxAttempts.
 *
 * The content service is asked once, with the learner as data: the quiz must stand in that lesson of
 * a course the learner can see (no taking quizzes by guessing ids), and it answers the quiz as they
 * take it, the course and the lesson's entry. A learner's first record in the course is noted there
 * within the same call, when the start is not refused by what is known here before it.
 *
 * The store is asked twice before the content service, at once (under an exam storm the
 * store is the bound): the learner's attempts at the quiz (the one to resume, the expired ones, the
 * tries) and the program lock; then the new attempt is written. Whether the course knows of learners
 * is the content service's own course flag (it reads that course anyway, and writes nothing once set),
 * so it is not asked here: a learner with an attempt at this quiz was noted by its start.
 */
export async function startAttempt(
  deps: ProgressDeps,
  actor: Principal,
  input: AttemptStartInput,
): Promise<{ body: StartedAttempt; created: boolean }> {
  const { models, content, audit } = deps;
  // A link session is refused before the content service is asked anything for it.
  const link = await linkTermsFor(deps, actor, input);
  // A course of a stage its program keeps closed: no quiz until the stage before it is complete. Known
  // before the call (a start it refuses notes no activity), refused after it, as the content service's
  // refusals come first.
  const [mine, stage] = await Promise.all([
    attemptsAtQuiz(deps, actor.id, input.quizId),
    link ? null : refusalOf(assertCourseOpen(deps, actor, input.courseId)),
  ]);
  // The attempt's seed orders what it shows and draws its questions from the course's bank.
  const shuffleSeed = newShuffleSeed();
  const { quiz, course, lesson } = await content.attemptStart({
    quizId: input.quizId,
    courseId: input.courseId,
    lessonId: input.lessonId,
    drawSeed: shuffleSeed,
    learner: { id: actor.id, role: actor.role, ...(actor.linkScope ? { linkScope: actor.linkScope } : {}) },
    // Staff trying their own course out count for nothing.
    noteActivity: !isStaff(actor.role) && !mine.length && !stage,
  });
  if (stage) throw stage;

  const now = new Date();
  const unfinished = mine.filter((a) => a.status === 'in_progress');
  const expired = await closeExpired(
    deps,
    unfinished.filter((a) => isExpired(a, now)),
  );
  const open = unfinished.find((a) => !isExpired(a, now));
  if (open) return { body: await resume(deps, open), created: false };

  // The tries: those finished before, and those whose time ran out just now, as they closed.
  const tried: Array<Pick<AttemptDoc, 'status' | 'attemptNumber' | 'completedAt'>> = [
    ...mine.filter((a) => a.status !== 'in_progress'),
    ...expired.map(({ attempt, result }) => ({
      status: result.status,
      attemptNumber: attempt.attemptNumber,
      completedAt: attempt.deadline,
    })),
  ];
  // A lesson a published version requires to be taken again: the attempts before it are not counted.
  const previous = tried.filter((a) => countsFor(lesson, a.completedAt));
  const maxAttempts = link ? 1 : quiz.settings.maxAttempts;
  const quizLimit = quiz.settings.timeLimit && quiz.settings.timeLimit > 0 ? quiz.settings.timeLimit : null;
  const timeLimit = link?.timeLimit ?? quizLimit;
  authorizeStart(maxAttempts, previous);
  if (!quiz.questions.length) throw badRequest(PROGRESS_MSG.quizEmpty, 'quizId');

  const startedAt = new Date();
  const attemptNumber = tried.reduce((max, a) => Math.max(max, a.attemptNumber), 0) + 1;
  try {
    const doc = await models.attempts.create({
      userId: actor.id,
      userName: actor.fullName,
      quizId: quiz.id,
      quizTitle: quiz.title,
      quizDescription: quiz.description ?? '',
      courseId: course.id,
      courseTitle: course.title,
      courseVersion: quiz.courseVersion ?? null,
      lessonId: input.lessonId,
      attemptNumber,
      status: 'in_progress',
      passingScore: quiz.settings.passingScore,
      maxAttempts,
      showExplanations: quiz.settings.showExplanations,
      showCorrectAnswers: quiz.settings.showCorrectAnswers ?? DEFAULT_SHOW_CORRECT_ANSWERS,
      scoring: quiz.settings.scoring ?? DEFAULT_SCORING,
      shuffleSeed,
      timeLimit,
      startedAt,
      deadline: deadlineOf(startedAt, timeLimit),
      viaLinkId: link?.linkId ?? null,
      resultHidden: link ? !link.showResult : false,
      questions: presentQuestions(quiz.questions, quiz.settings, shuffleSeed),
      maxScore: maxScoreOf(quiz.questions),
    });
    audit.publish({
      code: 'attempt.started',
      data: {
        quiz: quiz.title,
        course: course.title,
        attemptNumber,
        attemptId: String(doc._id),
        courseId: course.id,
        lessonId: input.lessonId,
      },
      entityId: quiz.id,
      actor,
    });
    return { body: started(doc.toObject<AttemptDoc>(), false), created: true };
  } catch (err) {
    // Two starts raced for the same attempt number: the other one won, so resume it.
    if (!isDuplicate(err)) throw err;
    const winner = await openAttempt(deps, actor.id, quiz.id);
    if (!winner) throw err;
    return { body: await resume(deps, winner), created: false };
  }
}
