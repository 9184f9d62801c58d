import { ANALYSIS_MSG, ANALYSIS_SAMPLE_LIMIT, type AttemptStatus, type QuizAnalysisReport } from '@portal/contracts';
import { analyseQuiz, type AnalysedAttempt } from '@portal/quiz-engine';
import { forbidden, op, type Principal } from '@portal/service-kit';
import { curates } from '../clients/content';
import type { AttemptDoc, StoredAnswer } from '../models/attempt';
import type { ProgressDeps } from './deps';

/** What an answer earned: the person's grade once given, else the engine's points (older attempts: right or not). */
const earnedBy = (a: StoredAnswer, points: number): number =>
  a.review ? a.review.score : (a.points ?? (a.isCorrect ? points : 0));

export const analysedAttempt = (a: Pick<AttemptDoc, 'percentage' | 'questions' | 'answers'>): AnalysedAttempt => {
  const points = new Map(a.questions.map((q) => [q.id, q.points ?? 1]));
  return {
    percentage: a.percentage,
    questions: a.questions,
    answers: a.answers.map((x) => ({
      questionId: x.questionId,
      answer: x.answer,
      earned: earnedBy(x, points.get(x.questionId) ?? 1),
      timeSpent: x.timeSpent,
    })),
  };
};

/**
 * Item analysis of one quiz for ADMIN and the curators of its course: the latest final attempts
 * (none still waiting for a person), at most ANALYSIS_SAMPLE_LIMIT of them, one index walk; and a count.
 */
export async function analyseQuizAttempts(deps: ProgressDeps, actor: Principal, quizId: string): Promise<QuizAnalysisReport> {
  const quiz = await deps.content.getQuiz(quizId);
  if (!curates(await deps.content.curatedCourses(actor), quiz.courseId)) throw forbidden(ANALYSIS_MSG.notCourseCurator);
  const filter = {
    quizId: quiz.id,
    status: op({ $in: ['passed', 'failed'] as AttemptStatus[] }),
    awaitingReview: op({ $ne: true }),
  };
  const [attempts, totalAttempts] = await Promise.all([
    deps.models.attempts
      .find(filter, { percentage: 1, questions: 1, answers: 1 })
      .sort({ completedAt: -1, _id: -1 })
      .limit(ANALYSIS_SAMPLE_LIMIT)
      .lean<AttemptDoc[]>(),
    deps.models.attempts.countDocuments(filter),
  ]);
  return {
    quizId: quiz.id,
    quizTitle: quiz.title,
    totalAttempts,
    sampleLimit: ANALYSIS_SAMPLE_LIMIT,
    ...analyseQuiz(attempts.map(analysedAttempt)),
  };
}
