import {
  PROGRESS_MSG,
  RESULTS_ALL_ROLES,
  ROLES,
  STUDY_ROLES,
  formatMessage,
  type AttemptStatus,
  type Role,
  type ShowCorrectAnswers,
} from '@portal/contracts';
import { conflict, definePolicy, forbidden, op, type Principal } from '@portal/service-kit';
import { curates, type CuratedCourses } from '../clients/content';

/**
 * Why a new attempt may not start, or null when it may: attempts are limited by maxAttempts, and
 * with a single attempt a pass is final. Unfinished attempts are resumed,
 * not counted here.
 */
export function startRefusal(maxAttempts: number, finished: Array<{ status: AttemptStatus }>): string | null {
  if (finished.length < maxAttempts) return null;
  if (maxAttempts === 1 && finished.some((a) => a.status === 'passed')) return PROGRESS_MSG.alreadyPassed;
  return formatMessage(PROGRESS_MSG.attemptsExhausted, { used: finished.length, max: maxAttempts });
}

export function authorizeStart(maxAttempts: number, finished: Array<{ status: AttemptStatus }>): void {
  const reason = startRefusal(maxAttempts, finished);
  if (reason) throw conflict(reason);
}

/** ADMIN and CURATOR read results beyond their own (a CURATOR only those of their courses: `answerScope`). */
export const seesAllResults = (role: Role): boolean => RESULTS_ALL_ROLES.includes(role);

/**
 * One rule for whose answers a person reads (an attempt, the results and their exports, item
 * analysis, grading): a learner their own; an ADMIN everyone's; a CURATOR those of the courses they
 * own or co-author, as the content service decides (`curatedCourses`). Other curators' learners are
 * not theirs to read.
 */
export const readsAnswersOf = (courses: CuratedCourses, courseId: string | null | undefined): boolean =>
  curates(courses, courseId);

/**
 * The store filter of the results a request may read: the asked-for person (or everyone) within the
 * reader's courses for staff, oneself for everyone else (asking for someone else is 403).
 */
export function resultsScope(user: Principal, askedFor: string | undefined, courses: CuratedCourses): Record<string, unknown> {
  if (!seesAllResults(user.role)) {
    if (askedFor && askedFor !== user.id) throw forbidden(PROGRESS_MSG.notOwnResults);
    return { userId: user.id };
  }
  const person = askedFor ? { userId: askedFor } : {};
  return courses === 'all' ? person : { ...person, courseId: op({ $in: [...courses] }) };
}

/** A learner may read their own attempt, its course's authors and ADMIN any. Anyone else's is "not found", so ids leak nothing. */
export const maySeeAttempt = (user: Principal, attempt: { userId: string; courseId: string }, courses: CuratedCourses): boolean =>
  attempt.userId === user.id || readsAnswersOf(courses, attempt.courseId);

/**
 * Per-question results and explanations: hidden from the learner until the course is completed
 * when the quiz says after_course (docs/decisions/030); staff always see them.
 */
export const questionsRevealed = (user: Principal, showExplanations: string, courseCompleted: boolean): boolean =>
  seesAllResults(user.role) || showExplanations !== 'after_course' || courseCompleted;

/**
 * «Показывать правильные ответы»: staff always see them; a learner after every attempt, never, or
 * (the default) once done with the quiz: passed, or the last attempt used.
 */
export const correctAnswersRevealed = (user: Principal, setting: ShowCorrectAnswers, doneWithQuiz: boolean): boolean =>
  seesAllResults(user.role) || setting === 'after_each_attempt' || (setting === 'after_pass_or_last' && doneWithQuiz);

/**
 * Saving an attempt's answers as one goes: the studying roles reach the route; the attempt's own rule
 * (only one's own, else 404) is the save's store filter (`saveAnswers`).
 */
export const ownAttemptAnswers = definePolicy('ownAttemptAnswers', STUDY_ROLES);

/**
 * Taking a quiz (its card, a start, a submit): the studying roles reach the routes (a start and a
 * submit then ask for the consent, in their handlers); a submitted attempt's own rule (only one's own,
 * else 404) follows its load.
 */
export const quizTakers = definePolicy('quizTakers', STUDY_ROLES);

/**
 * Reading an attempt with its results: anyone signed in reaches the route; then `maySeeAttempt`
 * (one's own, ADMIN any, a CURATOR those of the courses they own or co-author) or 404, so no role is
 * refused as such.
 */
export const attemptReaders = definePolicy('attemptReaders', ROLES);
