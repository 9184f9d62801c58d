import { newQuestion, type Quiz } from '@portal/contracts';
import { gradePreview, previewQuestions, previewQuizInfo } from './preview';

const quiz: Quiz = {
  id: 'q',
  title: 'Превью',
  description: '',
  courseId: null,
  version: 0,
  createdAt: '',
  updatedAt: '',
  questions: [
    { ...newQuestion('true_false', 'b', 1), correctAnswer: 'false' },
    { ...newQuestion('single_choice', 'a', 0), options: ['14', '28'], correctAnswers: [1], explanation: 'ТК РФ' },
    newQuestion('hotspot', 'c', 2),
  ],
  settings: {
    randomizeQuestions: false,
    randomizeAnswers: true,
    passingScore: 60,
    maxAttempts: 1,
    showExplanations: 'after_submission',
    showCorrectAnswers: 'after_pass_or_last',
    scoring: 'all_or_nothing',
    timeLimit: 0,
  },
};

describe('preview of a quiz by its author (reported nowhere)', () => {
  it('shows the questions in the authored order and treats a 0 time limit as none', () => {
    expect(previewQuestions(quiz).map((q) => q.id)).toEqual(['a', 'b', 'c']);
    expect(previewQuizInfo(quiz)).toMatchObject({ questionsCount: 3, timeLimit: null, passingScore: 60 });
  });

  it('grades with the shared rules: a type without a player never counts', () => {
    const result = gradePreview(quiz, { a: 1, b: 'false', c: 'x' }, { a: 3.4 });
    expect(result).toMatchObject({ score: 2, maxScore: 3, percentage: 67, status: 'passed' });
    expect(result.questions[0]).toMatchObject({
      questionId: 'a',
      isCorrect: true,
      answerText: '28',
      explanation: 'ТК РФ',
      timeSpent: 3,
    });
    expect(result.questions[2]).toMatchObject({ questionId: 'c', isCorrect: false });
    expect(gradePreview(quiz, {}, {})).toMatchObject({ score: 0, status: 'failed' });
  });
});
