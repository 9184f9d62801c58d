import type { LearnerQuestion, LearnerQuiz, Question, Quiz, QuizSummary } from '@portal/contracts';
import type { QuizDoc } from '../models/quiz';

const iso = (d: Date) => new Date(d).toISOString();

/** Only the fields a question has; optional ones appear when set. */
const presentQuestion = (q: Question): Question => ({
  id: q.id,
  type: q.type,
  question: q.question,
  options: [...(q.options ?? [])],
  correctAnswers: [...(q.correctAnswers ?? [])],
  ...(q.correctAnswer !== undefined && q.correctAnswer !== null ? { correctAnswer: q.correctAnswer } : {}),
  ...(q.pairs ? { pairs: q.pairs.map((p) => ({ left: p.left, right: p.right })) } : {}),
  ...(q.blanks ? { blanks: [...q.blanks] } : {}),
  ...(q.tolerance !== undefined && q.tolerance !== null ? { tolerance: q.tolerance } : {}),
  ...(q.explanation !== undefined && q.explanation !== null ? { explanation: q.explanation } : {}),
  order: q.order,
  points: q.points,
});

/** The whole quiz, answers included: for its authors and for other services only. */
export const presentQuiz = (doc: QuizDoc): Quiz => ({
  id: String(doc._id),
  title: doc.title,
  description: doc.description,
  courseId: doc.courseId ?? null,
  questions: (doc.questions ?? []).map(presentQuestion),
  settings: {
    randomizeQuestions: doc.settings.randomizeQuestions,
    randomizeAnswers: doc.settings.randomizeAnswers,
    passingScore: doc.settings.passingScore,
    maxAttempts: doc.settings.maxAttempts,
    showExplanations: doc.settings.showExplanations,
    timeLimit: doc.settings.timeLimit ?? null,
  },
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export const presentQuizSummary = (doc: QuizDoc): QuizSummary => {
  const { questions, ...rest } = presentQuiz(doc);
  return { ...rest, courseId: rest.courseId ?? null, description: rest.description ?? '', questionsCount: questions.length };
};

/* ----------------------------------------------------------- learner view */

/** FNV-1a, so the order a learner sees is the same on every load. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32 */
function randomFrom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order a list is shown in: result[shown position] = original index. Seeded with a server
 * secret, so the page cannot be used to work the original (correct) order back out; never the
 * original order itself when there are two or more items.
 */
export function shownOrder(seed: string, n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const random = randomFrom(hash32(seed));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  if (n > 1 && order.every((v, i) => v === i)) order.push(order.shift() as number);
  return order;
}

function learnerQuestion(q: Question, seed: string): LearnerQuestion {
  const base: LearnerQuestion = { id: q.id, type: q.type, question: q.question, options: [], order: q.order, points: q.points };
  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice':
      return { ...base, options: [...q.options] };
    case 'ordering':
      // Stored in the correct order: shown shuffled.
      return { ...base, options: shownOrder(seed, q.options.length).map((i) => q.options[i]) };
    case 'matching': {
      const pairs = q.pairs ?? [];
      return { ...base, left: pairs.map((p) => p.left), right: shownOrder(seed, pairs.length).map((i) => pairs[i].right) };
    }
    case 'fill_blanks':
      return { ...base, blanksCount: (q.blanks ?? []).length };
    default:
      return base;
  }
}

/**
 * The one view of a quiz a learner's browser gets: no correct answers, correct answer, blanks,
 * tolerance, pairs or explanations; matching as `left` and a shuffled `right`, ordering options
 * shuffled, fill_blanks as a count.
 */
export function presentQuizForLearner(quiz: Quiz, secret: string): LearnerQuiz {
  return {
    id: quiz.id,
    title: quiz.title,
    description: quiz.description,
    courseId: quiz.courseId ?? null,
    settings: { ...quiz.settings },
    createdAt: quiz.createdAt,
    updatedAt: quiz.updatedAt,
    questions: [...quiz.questions]
      .sort((a, b) => a.order - b.order)
      .map((q) => learnerQuestion(q, `${secret}:${quiz.id}:${q.id}`)),
  };
}
