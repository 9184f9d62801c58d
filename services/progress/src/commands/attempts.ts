import { countsFor } from './completions';
import { randomUUID } from 'node:crypto';
import {
  ATTEMPT_GRACE_SECONDS,
  CANDIDATE_LINK_MSG,
  DEFAULT_SHOW_CORRECT_ANSWERS,
  PROGRESS_MSG,
  formatMessage,
  isStaff,
  quizInfoOf,
  type AttemptAnswerInput,
  type AttemptAnswersSaved,
  type AttemptDetail,
  type AttemptStartInput,
  type AttemptStatus,
  type QuizCard,
  type StartedAttempt,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, notFound, op, serialised, type Principal } from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import type { AttemptDoc, SavedAnswer } from '../models/attempt';
import { authorizeStart, correctAnswersRevealed, maySeeAttempt, questionsRevealed, startRefusal } from '../policies/attempts';
import {
  hiddenFrom,
  presentAttemptDetail,
  presentAttemptSummary,
  presentQuizInfo,
  presentSavedAnswers,
  withoutResult,
} from '../presenters/attempt';
import { completeLesson } from './completions';
import type { ProgressDeps } from './deps';
import { assertCourseOpen } from './programEnrolment';
import { DEFAULT_SCORING, deadlineOf, isLate as isPastDeadline, maxScoreOf, toQuizTerms } from '@portal/quiz-engine';
import { gradeAttempt, newShuffleSeed, playerQuestion, presentQuestions } from './grading';

const GRACE_MS = ATTEMPT_GRACE_SECONDS * 1000;
/**
 * The expiry closes an attempt this long after the last moment a save is taken (deadline + grace):
 * a save's write (FerretDB rewrites the whole document) then lands before the close, never over it,
 * without the expiry's bulk close taking each attempt's claim.
 */
const EXPIRY_AFTER_SAVES_MS = 2000;
const isLate = (a: Pick<AttemptDoc, 'deadline'>, now: Date) => isPastDeadline(a.deadline, now);
const FINISHED = () => op({ $in: ['passed', 'failed'] as AttemptStatus[] });
const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;
/** The claim that closes an attempt (a submit) and that a save of its answers takes too. */
const closeKey = (id: string) => `attempts:${id}:close`;

/**
 * The saved answers that can be graded: each of a question the attempt holds, in a form that fits it.
 * A save checks the question ids but not each answer's fit (that needs the questions read, and a save
 * reads nothing), so an answer that does not fit counts as unanswered here rather than refusing a
 * close that nobody is waiting for.
 */
function gradableSaved(a: Pick<AttemptDoc, 'questions' | 'savedAnswers'>): AttemptAnswerInput[] {
  const byId = new Map(a.questions.map((q) => [q.id, q]));
  return (a.savedAnswers ?? []).filter((x) => {
    const q = byId.get(x.questionId);
    return !!q && toQuizTerms(q, x.answer ?? null).ok;
  });
}

/** Seconds from the start to the deadline: the whole time an expired attempt had. */
const timeAllowed = (a: Pick<AttemptDoc, 'startedAt' | 'deadline'>) =>
  a.deadline ? (a.deadline.getTime() - a.startedAt.getTime()) / 1000 : 0;

/** Whether an unfinished attempt is for the expiry to close: its deadline, the grace and the saves' margin are past. */
const isExpired = (a: Pick<AttemptDoc, 'deadline'>, now: Date) =>
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
const expiryGrade = (a: AttemptDoc) =>
  gradeAttempt({
    questions: a.questions,
    answers: gradableSaved(a),
    passingScore: a.passingScore,
    late: false,
    elapsedSeconds: timeAllowed(a),
    scoring: a.scoring,
  });

/**
 * Closes expired attempts already read (`isExpired`): one write for all of them, nothing when there
 * are none. Answers how each closes (whether this call or a simultaneous one closed it).
 */
async function closeExpired(
  deps: ProgressDeps,
  expired: AttemptDoc[],
): Promise<Array<{ attempt: AttemptDoc; result: ReturnType<typeof expiryGrade> }>> {
  if (!expired.length) return [];
  const { attempts } = deps.models;
  const graded = expired.map((a) => ({ attempt: a, result: expiryGrade(a) }));
  // One write for all of them (a store call per attempt would grow with the list being read). The
  // stamp tells which ones this call closed, when another request closed some of them meanwhile.
  const expiredBy = randomUUID();
  const write = await attempts.bulkWrite(
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
    { ordered: false },
  );
  let closed = graded;
  if (write.modifiedCount < graded.length) {
    const mine = await attempts
      .find({ _id: op({ $in: expired.map((a) => a._id) }), expiredBy }, { _id: 1 })
      .lean<Array<{ _id: AttemptDoc['_id'] }>>();
    const ids = new Set(mine.map((a) => String(a._id)));
    closed = graded.filter(({ attempt }) => ids.has(String(attempt._id)));
  }
  for (const { attempt: a, result } of closed) {
    deps.audit.publish({
      action: 'update',
      entity: 'quiz',
      entityId: a.quizId,
      details: `Время попытки ${a.attemptNumber} квиза «${a.quizTitle}» (${a.userName}) истекло: ${result.score} из ${result.maxScore} (${result.percentage}%)`,
      actor: null,
    });
  }
  return graded;
}

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

function started(a: AttemptDoc, resumed: boolean): StartedAttempt {
  return {
    attempt: presentAttemptSummary(a),
    quiz: presentQuizInfo(a),
    questions: a.questions.map(playerQuestion),
    deadline: a.deadline ? a.deadline.toISOString() : null,
    serverNow: new Date().toISOString(),
    resumed,
    ...(resumed && a.savedAnswers?.length ? { savedAnswers: presentSavedAnswers(a) } : {}),
  };
}

async function openAttempt(deps: ProgressDeps, userId: string, quizId: string): Promise<AttemptDoc | null> {
  return deps.models.attempts.findOne({ userId, quizId, status: 'in_progress' }).lean<AttemptDoc>();
}

/**
 * Every attempt of the learner at the quiz, in one query (two equalities the store's index serves):
 * the unfinished one to resume, those whose time ran out, and the tries counted against the limit.
 * The graded answers are not needed here; the questions and saved answers are (a resume, an expiry).
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
  if (open) return { body: started(open, true), created: false };

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
      action: 'create',
      entity: 'quiz',
      entityId: quiz.id,
      details: `Начата попытка ${attemptNumber} квиза «${quiz.title}» (курс «${course.title}»)`,
      actor,
    });
    return { body: started(doc.toObject<AttemptDoc>(), false), created: true };
  } catch (err) {
    // Two starts raced for the same attempt number: the other one won, so resume it.
    if (!isDuplicate(err)) throw err;
    const winner = await openAttempt(deps, actor.id, quiz.id);
    if (!winner) throw err;
    return { body: started(winner, true), created: false };
  }
}

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
  const saved = a.userId === viewer.id ? presentSavedAnswers(a) : undefined;
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
  const onSaved = late && !!attempt.savedAnswers?.length;
  const graded = gradeAttempt({
    questions: attempt.questions,
    answers: onSaved ? gradableSaved(attempt) : answers,
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
  // learner be shown a result other than the one stored.
  const write = await serialised(models.attempts.db, closeKey(String(attempt._id)), () =>
    models.attempts.updateOne({ _id: attempt._id, status: 'in_progress' }, { $set: closing }),
  );
  // A simultaneous submit finished it first: its grade is the one stored, and the one shown.
  if (!write.modifiedCount) return detailFor(deps, actor, (await models.attempts.findById(attempt._id).lean<AttemptDoc>())!);
  // This write closed it: the attempt as stored now is the one read with the write applied.
  const stored: AttemptDoc = { ...attempt, ...closing };

  const verdict = graded.status === 'passed' ? 'пройден' : 'не пройден';
  audit.publish({
    action: 'update',
    entity: 'quiz',
    entityId: attempt.quizId,
    details: `Квиз «${attempt.quizTitle}» ${verdict}: ${graded.score} из ${graded.maxScore} (${graded.percentage}%), попытка ${attempt.attemptNumber}${late ? ', время вышло' : ''}`,
    actor,
  });
  if (graded.status === 'passed' && !graded.pendingReviews) {
    // The lesson is completed on the server too (a pass still waiting for a person completes it once
    // graded); the attempt stands even if the content service is away.
    try {
      const course = await content.outlineFor(attempt.courseId, actor);
      await completeLesson(deps, actor, course, attempt.lessonId);
    } catch (err) {
      logger.warn({ attempt: id, err: (err as Error).message }, 'lesson not completed after a passed quiz');
    }
  }
  return detailFor(deps, actor, stored);
}

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
export async function quizCard(deps: ProgressDeps, actor: Principal, authorization: string, quizId: string): Promise<QuizCard> {
  // The internal route answers any quiz; a learner may only see the card of one a visible lesson holds.
  // Read with a draw, as an attempt is: the card counts the questions an attempt will have, bank ones too.
  const [quiz] = await Promise.all([
    deps.content.getQuiz(quizId, newShuffleSeed()),
    deps.content.assertQuizVisible(quizId, authorization),
  ]);
  const read = () =>
    deps.models.attempts
      .find({ userId: actor.id, quizId: quiz.id }, { questions: 0, answers: 0, savedAnswers: 0 })
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
