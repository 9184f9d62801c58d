import {
  PROGRESS_MSG,
  isAnswerCorrect,
  scoreAttempt,
  type AnswerValue,
  type PlayerQuestion,
  type Question,
  type QuestionResult,
  type Quiz,
  type QuizInfo,
} from '@portal/contracts';

/**
 * Preview of a quiz by its author, who holds the answers already: shown in the authored order,
 * graded here with the same rules as the server, and reported nowhere.
 */
export const previewQuizInfo = (quiz: Quiz): QuizInfo => ({
  id: quiz.id,
  title: quiz.title,
  description: quiz.description ?? '',
  questionsCount: quiz.questions.length,
  passingScore: quiz.settings.passingScore,
  maxAttempts: quiz.settings.maxAttempts,
  timeLimit: quiz.settings.timeLimit && quiz.settings.timeLimit > 0 ? quiz.settings.timeLimit : null,
  showExplanations: quiz.settings.showExplanations,
  showCorrectAnswers: quiz.settings.showCorrectAnswers,
});

const sorted = (quiz: Quiz) => [...quiz.questions].sort((a, b) => a.order - b.order);

export const previewQuestions = (quiz: Quiz): PlayerQuestion[] =>
  sorted(quiz).map((q) => ({
    id: q.id,
    type: q.type,
    question: q.question,
    options: q.options,
    left: q.pairs?.map((p) => p.left),
    right: q.pairs?.map((p) => p.right),
    blanksCount: q.blanks?.length,
  }));

const blank = (a: AnswerValue | undefined) =>
  a === undefined || a === null || (typeof a === 'string' && !a.trim()) || (Array.isArray(a) && !a.length);

function text(q: Question, a: AnswerValue | undefined): string | null {
  if (blank(a)) return null;
  if (q.type === 'single_choice' && typeof a === 'number') return q.options[a] ?? null;
  if (Array.isArray(a)) return (a as Array<number | string>).map((v) => (typeof v === 'number' ? q.options[v] : v)).join('; ');
  if (q.type === 'true_false') return a === 'true' ? PROGRESS_MSG.trueLabel : PROGRESS_MSG.falseLabel;
  return typeof a === 'object' ? JSON.stringify(a) : String(a);
}

export function gradePreview(quiz: Quiz, answers: Record<string, AnswerValue>, timeSpent: Record<string, number>) {
  const questions: QuestionResult[] = sorted(quiz).map((q) => {
    const isCorrect = !blank(answers[q.id]) && isAnswerCorrect(q, answers[q.id]);
    return {
      questionId: q.id,
      type: q.type,
      question: q.question,
      answerText: text(q, answers[q.id]),
      isCorrect,
      correctAnswerText: null,
      explanation: q.explanation?.trim() ? q.explanation : null,
      timeSpent: Math.round(timeSpent[q.id] ?? 0),
    };
  });
  const score = scoreAttempt(questions.filter((q) => q.isCorrect).length, questions.length, quiz.settings.passingScore);
  return { ...score, questions };
}
