import { quizInfoOf, type PlayerQuestion, type QuestionResult, type Quiz, type QuizInfo } from '@portal/contracts';
import {
  DEFAULT_SCORING,
  answerText,
  gradeQuestion,
  maxScoreOf,
  playerQuestion,
  presentQuestions,
  scoreAttempt,
  toQuizTerms,
  type AnswerValue,
  type ShownQuestion,
} from '@portal/quiz-engine';

/**
 * Preview of a quiz by its author, who holds the answers already: shown and graded by the quiz
 * engine exactly as an attempt would be (the same shuffle rules, from a seed of its own), and
 * reported nowhere.
 */
export const previewQuizInfo: (quiz: Quiz) => QuizInfo = quizInfoOf;

/** A preview session: the questions as shown (with their orders, for grading) and the learner's view of them. */
export interface PreviewSession {
  shown: ShownQuestion[];
  questions: PlayerQuestion[];
}

export const newPreviewSeed = (): string => Math.random().toString(36).slice(2) + Date.now().toString(36);

export function previewSession(quiz: Quiz, seed: string = newPreviewSeed()): PreviewSession {
  const shown = presentQuestions(quiz.questions, quiz.settings, seed);
  return { shown, questions: shown.map(playerQuestion) };
}

/** Grades the answers given (in the order shown) with the engine; an answer that does not fit counts as none. */
export function gradePreview(
  quiz: Quiz,
  session: PreviewSession,
  answers: Record<string, AnswerValue>,
  timeSpent: Record<string, number>,
) {
  const scoring = quiz.settings.scoring ?? DEFAULT_SCORING;
  let earned = 0;
  const questions: QuestionResult[] = session.shown.map((q) => {
    const translated = toQuizTerms(q, answers[q.id]);
    const answer = translated.ok ? translated.value : null;
    const grade = gradeQuestion(q, answer, scoring);
    earned += grade.earned;
    return {
      questionId: q.id,
      type: q.type,
      question: q.question,
      answerText: answerText(q, answer),
      isCorrect: grade.correct,
      correctAnswerText: null,
      explanation: q.explanation?.trim() ? q.explanation : null,
      timeSpent: Math.round(timeSpent[q.id] ?? 0),
    };
  });
  return { ...scoreAttempt(earned, maxScoreOf(session.shown), quiz.settings.passingScore), questions };
}
