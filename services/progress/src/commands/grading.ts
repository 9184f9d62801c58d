import { randomBytes } from 'node:crypto';
import {
  PROGRESS_MSG,
  formatMessage,
  isAnswerCorrect,
  scoreAttempt,
  seededOrder,
  type AnswerValue,
  type AttemptAnswerInput,
  type PlayerQuestion,
  type Question,
  type QuizSettings,
} from '@portal/contracts';
import { badRequest } from '@portal/service-kit';
import type { StoredAnswer, StoredQuestion } from '../models/attempt';

/* ------------------------------------------------------------ presenting */

const identity = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
/** An ordering task or a matching shown solved is no task. */
const solvedNever = { avoidIdentity: true };

/** A new attempt's shuffle seed: 128 random bits, stored with the attempt, derived from nothing. */
export const newShuffleSeed = (): string => randomBytes(16).toString('hex');

/**
 * Fixes, for one attempt, the order of the questions and of their options. Choice options are
 * shuffled when the quiz says randomizeAnswers; ordering items and the right column of a matching
 * are always shuffled, since their order is the answer. Every order comes from the attempt's
 * random seed (the shared engine, seededOrder), so the same seed always gives the same attempt.
 */
export function presentQuestions(
  questions: Question[],
  settings: Pick<QuizSettings, 'randomizeQuestions' | 'randomizeAnswers'>,
  seed: string = newShuffleSeed(),
): StoredQuestion[] {
  const sorted = [...questions].sort((a, b) => a.order - b.order);
  const order = settings.randomizeQuestions ? seededOrder(seed, 'questions', sorted.length) : identity(sorted.length);
  return order.map((index) => {
    const q = sorted[index];
    const pairs = q.pairs ?? [];
    const choice = q.type === 'single_choice' || q.type === 'multiple_choice';
    return {
      ...q,
      optionOrder:
        q.type === 'ordering'
          ? seededOrder(seed, `${q.id}:options`, q.options.length, solvedNever)
          : choice && settings.randomizeAnswers
            ? seededOrder(seed, `${q.id}:options`, q.options.length)
            : identity(q.options.length),
      leftOrder:
        q.type === 'matching' && settings.randomizeAnswers
          ? seededOrder(seed, `${q.id}:left`, pairs.length)
          : identity(pairs.length),
      rightOrder: q.type === 'matching' ? seededOrder(seed, `${q.id}:right`, pairs.length, solvedNever) : [],
    };
  });
}

const BLANK = /_{3,}/g;

/** What the learner's browser receives: the text and the options as shown, nothing that tells the answer. */
export function playerQuestion(q: StoredQuestion): PlayerQuestion {
  const base: PlayerQuestion = { id: q.id, type: q.type, question: q.question, options: [] };
  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice':
    case 'ordering':
      return { ...base, options: q.optionOrder.map((i) => q.options[i]) };
    case 'matching': {
      const pairs = q.pairs ?? [];
      return { ...base, left: q.leftOrder.map((i) => pairs[i].left), right: q.rightOrder.map((i) => pairs[i].right) };
    }
    case 'fill_blanks':
      return { ...base, blanksCount: Math.max(q.blanks?.length ?? 0, q.question.match(BLANK)?.length ?? 0) };
    default:
      return base;
  }
}

/* ---------------------------------------------------------- the answers */

const refuse = (index: number, q: StoredQuestion): never => {
  throw badRequest(`Ответ не подходит к вопросу «${q.question.slice(0, 80)}»`, `answers.${index}.answer`);
};
const isIndex = (v: unknown, n: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < n;

/** Nothing chosen or typed. */
export const isBlank = (answer: AnswerValue | undefined): boolean =>
  answer === null ||
  answer === undefined ||
  (typeof answer === 'string' && answer.trim() === '') ||
  (Array.isArray(answer) && (answer.length === 0 || answer.every((v) => typeof v === 'string' && v.trim() === ''))) ||
  (typeof answer === 'object' && !Array.isArray(answer) && Object.keys(answer).length === 0);

/**
 * Turns an answer given in the order shown into the quiz's own terms, refusing (400) one that
 * cannot belong to the question: an index out of range, a list for a single choice, and so on.
 */
export function toQuizTerms(q: StoredQuestion, answer: AnswerValue, index: number): AnswerValue {
  if (isBlank(answer)) return null;
  switch (q.type) {
    case 'single_choice':
      return isIndex(answer, q.optionOrder.length) ? q.optionOrder[answer] : refuse(index, q);
    case 'multiple_choice': {
      if (!Array.isArray(answer) || !answer.every((v) => isIndex(v, q.optionOrder.length))) return refuse(index, q);
      return [...new Set((answer as number[]).map((v) => q.optionOrder[v]))].sort((a, b) => a - b);
    }
    case 'ordering': {
      const list = answer as number[];
      if (
        !Array.isArray(answer) ||
        list.length !== q.optionOrder.length ||
        new Set(list).size !== list.length ||
        !list.every((v) => isIndex(v, q.optionOrder.length))
      ) {
        return refuse(index, q);
      }
      return list.map((v) => q.optionOrder[v]);
    }
    case 'matching': {
      if (typeof answer !== 'object' || Array.isArray(answer)) return refuse(index, q);
      const mapped: Record<string, number> = {};
      for (const [left, right] of Object.entries(answer as Record<string, number>)) {
        if (!isIndex(Number(left), q.leftOrder.length) || !isIndex(right, q.rightOrder.length)) return refuse(index, q);
        mapped[String(q.leftOrder[Number(left)])] = q.rightOrder[right];
      }
      return mapped;
    }
    case 'true_false':
      return answer === 'true' || answer === 'false' ? answer : refuse(index, q);
    case 'numeric':
      return typeof answer === 'number' ? answer : typeof answer === 'string' ? answer.trim() : refuse(index, q);
    case 'fill_blanks':
      return Array.isArray(answer) && answer.every((v) => typeof v === 'string') ? answer : refuse(index, q);
    case 'short_answer':
    case 'long_answer':
      return typeof answer === 'string' ? answer : refuse(index, q);
    default:
      // A type the player cannot show: whatever came is kept as text and never counts.
      return typeof answer === 'string' ? answer : null;
  }
}

export interface GradeInput {
  questions: StoredQuestion[];
  answers: AttemptAnswerInput[];
  passingScore: number;
  /** Answers that came after the time limit and its grace count as unanswered. */
  late: boolean;
  /** Seconds since the attempt started: no question took longer than the whole attempt. */
  elapsedSeconds: number;
}

/** Grades with the spec's rules (section 5) and scores (section 4). Unknown question ids are a 400. */
export function gradeAttempt({ questions, answers, passingScore, late, elapsedSeconds }: GradeInput) {
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
    return {
      questionId: q.id,
      answer,
      isCorrect: !late && answer !== null && isAnswerCorrect(q, answer),
      timeSpent: Math.min(cap, Math.round(a?.timeSpent ?? 0)),
      late: late && answer !== null,
    };
  });
  const correct = stored.filter((a) => a.isCorrect).length;
  return { answers: stored, ...scoreAttempt(correct, questions.length, passingScore) };
}

/* ------------------------------------------------------- reading them back */

const trueFalse = (v: string | undefined) =>
  v === 'true' ? PROGRESS_MSG.trueLabel : v === 'false' ? PROGRESS_MSG.falseLabel : (v ?? '');
const list = (items: string[], sep = '; ') => items.filter((s) => s !== undefined).join(sep);

/** The learner's answer in words, for the attempt's details and the CSV. */
export function answerText(q: StoredQuestion, answer: AnswerValue): string | null {
  if (isBlank(answer)) return null;
  const pairs = q.pairs ?? [];
  switch (q.type) {
    case 'single_choice':
      return typeof answer === 'number' ? (q.options[answer] ?? null) : null;
    case 'multiple_choice':
      return Array.isArray(answer) ? list((answer as number[]).map((i) => q.options[i])) : null;
    case 'ordering':
      return Array.isArray(answer)
        ? list(
            (answer as number[]).map((i) => q.options[i]),
            ' → ',
          )
        : null;
    case 'matching':
      return typeof answer === 'object' && !Array.isArray(answer)
        ? list(
            Object.entries(answer as Record<string, number>)
              .sort(([a], [b]) => Number(a) - Number(b))
              .map(([l, r]) => `${pairs[Number(l)]?.left} — ${pairs[r]?.right}`),
          )
        : null;
    case 'true_false':
      return trueFalse(String(answer));
    case 'fill_blanks':
      return Array.isArray(answer) ? list(answer as string[]) : null;
    default:
      return String(answer);
  }
}

/** The right answer in words; null where there is none to give (a long answer, an unsupported type). */
export function correctAnswerText(q: StoredQuestion): string | null {
  const pairs = q.pairs ?? [];
  switch (q.type) {
    case 'single_choice':
      return q.correctAnswers.length ? (q.options[q.correctAnswers[0]] ?? null) : null;
    case 'multiple_choice':
      return list([...q.correctAnswers].sort((a, b) => a - b).map((i) => q.options[i]));
    case 'ordering':
      return list(q.options, ' → ');
    case 'matching':
      return list(pairs.map((p) => `${p.left} — ${p.right}`));
    case 'true_false':
      return trueFalse(q.correctAnswer);
    case 'short_answer':
      return q.correctAnswer ?? null;
    case 'numeric':
      return q.tolerance ? `${q.correctAnswer} ± ${q.tolerance}` : (q.correctAnswer ?? null);
    case 'fill_blanks':
      return list(q.blanks ?? []);
    default:
      return null;
  }
}
