import {
  PROGRESS_MSG,
  RESULTS_ALL_ROLES,
  formatMessage,
  type AttemptStatus,
  type Role,
  type ShowCorrectAnswers,
} from '@portal/contracts';
import { conflict, forbidden, type Principal } from '@portal/service-kit';

/**
 * Why a new attempt may not start, or null when it may: attempts are limited by maxAttempts, and
 * with a single attempt a pass is final (spec sections 2 and 4). Unfinished attempts are resumed,
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

/** ADMIN and CURATOR read everyone's results; everybody else only their own. */
export const seesAllResults = (role: Role): boolean => RESULTS_ALL_ROLES.includes(role);

/** Whose results a request may read: the asked-for person for staff, oneself for everyone else. */
export function resultsOwner(user: Principal, askedFor: string | undefined): string | undefined {
  if (seesAllResults(user.role)) return askedFor;
  if (askedFor && askedFor !== user.id) throw forbidden(PROGRESS_MSG.notOwnResults);
  return user.id;
}

/** A learner may read their own attempt; staff any. Someone else's is "not found", so ids leak nothing. */
export const maySeeAttempt = (user: Principal, attempt: { userId: string }): boolean =>
  seesAllResults(user.role) || attempt.userId === user.id;

/**
 * Per-question results and explanations: hidden from the learner until the course is completed
 * when the quiz says after_course (spec section 4); staff always see them.
 */
export const questionsRevealed = (user: Principal, showExplanations: string, courseCompleted: boolean): boolean =>
  seesAllResults(user.role) || showExplanations !== 'after_course' || courseCompleted;

/**
 * «Показывать правильные ответы»: staff always see them; a learner after every attempt, never, or
 * (the default) once done with the quiz: passed, or the last attempt used.
 */
export const correctAnswersRevealed = (user: Principal, setting: ShowCorrectAnswers, doneWithQuiz: boolean): boolean =>
  seesAllResults(user.role) || setting === 'after_each_attempt' || (setting === 'after_pass_or_last' && doneWithQuiz);
