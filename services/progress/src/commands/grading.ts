import { randomBytes } from 'node:crypto';
import {
  PROGRESS_MSG,
  formatMessage,
  type AnswerValue,
  type AttemptAnswerInput,
  type PlayerQuestion,
  type Question,
  type QuizSettings,
} from '@portal/contracts';
import {
  DEFAULT_SCORING,
  answerText as engineAnswerText,
  correctAnswerText as engineCorrectAnswerText,
  gradeQuestion,
  isBlank,
  maxScoreOf,
  playerQuestion as enginePlayerQuestion,
  presentQuestions as enginePresentQuestions,
  scoreAttempt,
  toQuizTerms as engineToQuizTerms,
  type ScoringMode,
} from '@portal/quiz-engine';
import { badRequest } from '@portal/service-kit';
import type { StoredAnswer, StoredQuestion } from '../models/attempt';

/**
 * An attempt's questions, answers and grades: the quiz engine's rules (one definition with the
 * content service and the player), with the service's refusals and records around them.
 */

/* ------------------------------------------------------------ presenting */

/** A new attempt's shuffle seed: 128 random bits, stored with the attempt, derived from nothing. */
export const newShuffleSeed = (): string => randomBytes(16).toString('hex');

/** Fixes, for one attempt, the order of the questions and of their parts (the engine's rules, from the attempt's seed). */
export const presentQuestions = (
  questions: Question[],
  settings: Pick<QuizSettings, 'randomizeQuestions' | 'randomizeAnswers'>,
  seed: string = newShuffleSeed(),
): StoredQuestion[] => enginePresentQuestions(questions, settings, seed);

/** What the learner's browser receives: the text and the options as shown, nothing that tells the answer. */
export const playerQuestion = (q: StoredQuestion): PlayerQuestion => enginePlayerQuestion(q);

/* ---------------------------------------------------------- the answers */

export { isBlank };

/**
 * Turns an answer given in the order shown into the quiz's own terms, refusing (400) one that
 * cannot belong to the question: an index out of range, a list for a single choice, and so on.
 */
export function toQuizTerms(q: StoredQuestion, answer: AnswerValue, index: number): AnswerValue {
  const translated = engineToQuizTerms(q, answer);
  if (!translated.ok) throw badRequest(`Ответ не подходит к вопросу «${q.question.slice(0, 80)}»`, `answers.${index}.answer`);
  return translated.value;
}

export interface GradeInput {
  questions: StoredQuestion[];
  answers: AttemptAnswerInput[];
  passingScore: number;
  /** Answers that came after the time limit and its grace count as unanswered. */
  late: boolean;
  /** Seconds since the attempt started: no question took longer than the whole attempt. */
  elapsedSeconds: number;
  /** The quiz's scoring when the attempt started (attempts from before it: all or nothing). */
  scoring?: ScoringMode;
}

/**
 * Grades with the engine (the spec's rules, section 5, with points and the quiz's partial credit)
 * and scores (section 4). Unknown question ids are a 400.
 */
export function gradeAttempt({ questions, answers, passingScore, late, elapsedSeconds, scoring = DEFAULT_SCORING }: GradeInput) {
  const byId = new Map(questions.map((q) => [q.id, q]));
  answers.forEach((a, i) => {
    if (!byId.has(a.questionId))
      throw badRequest(formatMessage(PROGRESS_MSG.answerUnknownQuestion, { id: a.questionId }), `answers.${i}.questionId`);
  });
  const given = new Map(
    answers.map((a, i) => [
      a.questionId,
      { answer: toQuizTerms(byId.get(a.questionId)!, a.answer ?? null, i), timeSpent: a.timeSpent ?? 0 },
    ]),
  );
  const cap = Math.max(0, Math.ceil(elapsedSeconds));
  const stored: StoredAnswer[] = questions.map((q) => {
    const a = given.get(q.id);
    const answer = a?.answer ?? null;
    const grade = gradeQuestion(q, late ? null : answer, scoring);
    return {
      questionId: q.id,
      answer,
      isCorrect: grade.correct,
      points: grade.earned,
      ...(grade.manual && !late ? { needsReview: true } : {}),
      timeSpent: Math.min(cap, Math.round(a?.timeSpent ?? 0)),
      late: late && answer !== null,
    };
  });
  const max = maxScoreOf(questions);
  const earned = stored.reduce((sum, a) => sum + (a.points ?? 0), 0);
  const pendingReviews = stored.filter((a) => a.needsReview).length;
  return { answers: stored, pendingReviews, ...scoreAttempt(earned, max, passingScore) };
}

/* ------------------------------------------------------- reading them back */

/** The learner's answer in words, for the attempt's details and the CSV. */
export const answerText = (q: StoredQuestion, answer: AnswerValue): string | null => engineAnswerText(q, answer);

/** The right answer in words; null where there is none to give (a long answer, a survey, a hotspot). */
export const correctAnswerText = (q: StoredQuestion): string | null => engineCorrectAnswerText(q);
