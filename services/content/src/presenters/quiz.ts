import { presentQuestions, playerQuestion } from '@portal/quiz-engine';
import {
  DEFAULT_SCORING,
  type BankQuestion,
  DEFAULT_SHOW_CORRECT_ANSWERS,
  type LearnerQuestion,
  type LearnerQuiz,
  type Question,
  type Quiz,
  type QuizSummary,
} from '@portal/contracts';
import type { BankQuestionDoc } from '../models/bankQuestion';
import type { QuizDoc } from '../models/quiz';

const iso = (d: Date) => new Date(d).toISOString();

/** Only the fields a question has; optional ones appear when set. */
export const presentQuestion = (q: Question): Question => ({
  id: q.id,
  type: q.type,
  question: q.question,
  options: [...(q.options ?? [])],
  correctAnswers: [...(q.correctAnswers ?? [])],
  ...(q.correctAnswer !== undefined && q.correctAnswer !== null ? { correctAnswer: q.correctAnswer } : {}),
  ...(q.pairs ? { pairs: q.pairs.map((p) => ({ left: p.left, right: p.right })) } : {}),
  ...(q.blanks ? { blanks: [...q.blanks] } : {}),
  ...(q.tolerance !== undefined && q.tolerance !== null ? { tolerance: q.tolerance } : {}),
  ...(q.rows ? { rows: [...q.rows] } : {}),
  ...(q.image !== undefined && q.image !== null ? { image: q.image } : {}),
  ...(q.imageAlt !== undefined && q.imageAlt !== null ? { imageAlt: q.imageAlt } : {}),
  ...(q.areas
    ? {
        areas: q.areas.map((a) =>
          a.shape === 'rect' ? { ...a } : { shape: a.shape, points: a.points.map((p) => ({ x: p.x, y: p.y })) },
        ),
      }
    : {}),
  ...(q.markers ? { markers: q.markers.map((m) => ({ x: m.x, y: m.y, label: m.label })) } : {}),
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
    scoring: doc.settings.scoring ?? DEFAULT_SCORING,
    timeLimit: doc.settings.timeLimit ?? null,
  },
  draws: (doc.draws ?? []).map((d) => ({ tag: d.tag, count: d.count })),
  ...(doc.generated ? { generated: true } : {}),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export const presentQuizSummary = (doc: QuizDoc): QuizSummary => {
  const { questions, ...rest } = presentQuiz(doc);
  return { ...rest, courseId: rest.courseId ?? null, description: rest.description ?? '', questionsCount: questions.length };
};

/* ----------------------------------------------------------- learner view */

/** The quiz's authored order and unshuffled choices: only what must be shuffled is (the engine's rules). */
const AS_AUTHORED = { randomizeQuestions: false, randomizeAnswers: false };

/**
 * The one view of a quiz a learner's browser gets: the quiz engine's learner view (no correct
 * answers, blanks, tolerance, pairs, areas, labels in place or explanations; matching as `left`
 * and a shuffled `right`, ordering options and image labels shuffled, fill_blanks as a count). `seed`: the quiz's own random shuffle seed (never a secret of
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
    // Tags and counts only: which bank questions an attempt draws is decided when it starts.
    draws: quiz.draws.map((d) => ({ ...d })),
    createdAt: quiz.createdAt,
    updatedAt: quiz.updatedAt,
    questions: presentQuestions(quiz.questions, AS_AUTHORED, seed).map((q): LearnerQuestion => ({
      ...playerQuestion(q),
      order: q.order,
      points: q.points,
    })),
  };
}

/** A bank question, answers included: for the course's authors only. */
export const presentBankQuestion = (doc: BankQuestionDoc): BankQuestion => ({
  id: String(doc._id),
  courseId: doc.courseId,
  tags: [...doc.tags],
  question: presentQuestion(doc.question),
  version: doc.version ?? 0,
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});
