import {
  DEFAULT_SHOW_CORRECT_ANSWERS,
  seededOrder,
  type LearnerQuestion,
  type LearnerQuiz,
  type Question,
  type Quiz,
  type QuizSummary,
} from '@portal/contracts';
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
  version: doc.version ?? 0,
  questions: (doc.questions ?? []).map(presentQuestion),
  settings: {
    randomizeQuestions: doc.settings.randomizeQuestions,
    randomizeAnswers: doc.settings.randomizeAnswers,
    passingScore: doc.settings.passingScore,
    maxAttempts: doc.settings.maxAttempts,
    showExplanations: doc.settings.showExplanations,
    showCorrectAnswers: doc.settings.showCorrectAnswers ?? DEFAULT_SHOW_CORRECT_ANSWERS,
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

/** Shown shuffled, and never in the stored (correct) order. */
const solvedNever = { avoidIdentity: true };

function learnerQuestion(q: Question, seed: string): LearnerQuestion {
  const base: LearnerQuestion = { id: q.id, type: q.type, question: q.question, options: [], order: q.order, points: q.points };
  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice':
      return { ...base, options: [...q.options] };
    case 'ordering':
      // Stored in the correct order: shown shuffled.
      return { ...base, options: seededOrder(seed, `${q.id}:options`, q.options.length, solvedNever).map((i) => q.options[i]) };
    case 'matching': {
      const pairs = q.pairs ?? [];
      return {
        ...base,
        left: pairs.map((p) => p.left),
        right: seededOrder(seed, `${q.id}:right`, pairs.length, solvedNever).map((i) => pairs[i].right),
      };
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
 * shuffled, fill_blanks as a count. `seed`: the quiz's own random shuffle seed (never a secret of
 * the service), so the view is the same on every load and cannot be rebuilt without the store.
 */
export function presentQuizForLearner(quiz: Quiz, seed: string): LearnerQuiz {
  return {
    id: quiz.id,
    title: quiz.title,
    description: quiz.description,
    courseId: quiz.courseId ?? null,
    version: quiz.version,
    settings: { ...quiz.settings },
    createdAt: quiz.createdAt,
    updatedAt: quiz.updatedAt,
    questions: [...quiz.questions].sort((a, b) => a.order - b.order).map((q) => learnerQuestion(q, seed)),
  };
}
