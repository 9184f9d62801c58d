import {
  DEFAULT_SHOW_CORRECT_ANSWERS,
  minutesBetween,
  type AttemptDetail,
  type AttemptSummary,
  type QuizInfo,
  type SavedAnswers,
} from '@portal/contracts';
import type { AttemptDoc } from '../models/attempt';
import type { AttemptDraftDoc } from '../models/attemptDraft';
import { answerText, correctAnswerText } from '../commands/grading';

type SummaryFields = Omit<
  AttemptDoc,
  'questions' | 'answers' | 'quizDescription' | 'maxAttempts' | 'showExplanations' | 'timeLimit' | 'deadline'
>;

/** One row of the results: never the questions or the answers. */
export const presentAttemptSummary = (a: SummaryFields): AttemptSummary => ({
  id: String(a._id),
  userId: a.userId,
  userName: a.userName,
  quizId: a.quizId,
  quizTitle: a.quizTitle,
  courseId: a.courseId,
  courseTitle: a.courseTitle,
  lessonId: a.lessonId,
  ...(a.courseVersion ? { courseVersion: a.courseVersion } : {}),
  attemptNumber: a.attemptNumber,
  status: a.status,
  score: a.score,
  maxScore: a.maxScore,
  percentage: a.percentage,
  passingScore: a.passingScore,
  startedAt: a.startedAt.toISOString(),
  completedAt: a.completedAt ? a.completedAt.toISOString() : null,
  durationMinutes: a.completedAt ? minutesBetween(a.startedAt, a.completedAt) : null,
  ...(a.pendingReviews ? { pendingReviews: a.pendingReviews } : {}),
  ...(a.viaLinkId ? { viaLink: true } : {}),
});

/** Whether the viewer is the candidate whose link hides their result (staff always see it). */
export const hiddenFrom = (viewerId: string, a: Pick<AttemptDoc, 'userId' | 'resultHidden' | 'status'>): boolean =>
  !!a.resultHidden && a.userId === viewerId && a.status !== 'in_progress';

/** A finished attempt as its candidate sees it when the link hides the result: that it was sent, nothing more. */
export function withoutResult<T extends AttemptSummary>(view: T): T {
  const hidden = {
    ...view,
    status: 'submitted' as const,
    score: 0,
    maxScore: 0,
    percentage: 0,
    passingScore: 0,
    pendingReviews: 0,
  };
  const result =
    'questions' in view
      ? { ...hidden, questions: [], questionsRevealed: false, correctAnswersRevealed: false, lateAnswers: 0 }
      : hidden;
  return { ...result, resultHidden: true } as T;
}

/** The quiz as the attempt froze it, for the player: settings and counts only. */
export const presentQuizInfo = (a: AttemptDoc): QuizInfo => ({
  id: a.quizId,
  title: a.quizTitle,
  description: a.quizDescription,
  questionsCount: a.questions.length,
  passingScore: a.passingScore,
  maxAttempts: a.maxAttempts,
  timeLimit: a.timeLimit,
  showExplanations: a.showExplanations,
  showCorrectAnswers: a.showCorrectAnswers ?? DEFAULT_SHOW_CORRECT_ANSWERS,
});

/**
 * A finished attempt with its per-question results. `revealed` false keeps the questions out
 * entirely (after_course before the course is done); an unfinished attempt never shows them.
 * `answersRevealed` false leaves out every right answer (the quiz's showCorrectAnswers).
 */
export function presentAttemptDetail(a: AttemptDoc, revealed: boolean, answersRevealed: boolean): AttemptDetail {
  const finished = a.status !== 'in_progress';
  const answers = new Map(a.answers.map((x) => [x.questionId, x]));
  const show = finished && revealed;
  return {
    ...presentAttemptSummary(a),
    showExplanations: a.showExplanations,
    questionsRevealed: show,
    correctAnswersRevealed: show && answersRevealed,
    lateAnswers: a.answers.filter((x) => x.late).length,
    pendingReviews: a.pendingReviews ?? 0,
    questions: show
      ? a.questions.map((q) => {
          const given = answers.get(q.id);
          const isCorrect = given?.isCorrect ?? false;
          return {
            questionId: q.id,
            type: q.type,
            question: q.question,
            answerText: given && !given.late ? answerText(q, given.answer) : null,
            isCorrect,
            correctAnswerText: isCorrect || !answersRevealed ? null : correctAnswerText(q),
            explanation: q.explanation?.trim() ? q.explanation : null,
            timeSpent: given?.timeSpent ?? 0,
            ...(given?.needsReview
              ? {
                  review: given.review
                    ? {
                        score: given.review.score,
                        comment: given.review.comment,
                        reviewerName: given.review.byName,
                        reviewedAt: new Date(given.review.at).toISOString(),
                      }
                    : null,
                }
              : {}),
          };
        })
      : [],
  };
}

/**
 * The answers an unfinished attempt's learner saved, for the player to go on with (docs/decisions/095):
 * given back as the player sent them, nothing graded. Undefined when none were saved. A draft lives
 * only while its attempt is unfinished (docs/decisions/099).
 */
export function presentSavedAnswers(draft: Pick<AttemptDraftDoc, 'answers' | 'savedAt'> | null): SavedAnswers | undefined {
  if (!draft) return undefined;
  return {
    answers: draft.answers.map(({ questionId, answer, timeSpent }) => ({ questionId, answer, timeSpent })),
    savedAt: draft.savedAt.toISOString(),
  };
}
