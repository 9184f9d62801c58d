import { newQuestion, type Quiz } from '@portal/contracts';
import { gradePreview, previewQuizInfo, previewSession } from './preview';

const quiz: Quiz = {
  id: 'q',
  title: 'Превью',
  description: '',
  courseId: null,
  draws: [],
  version: 0,
  createdAt: '',
  updatedAt: '',
  questions: [
    { ...newQuestion('true_false', 'b', 1), correctAnswer: 'false' },
    { ...newQuestion('single_choice', 'a', 0), options: ['14', '28'], correctAnswers: [1], explanation: 'ТК РФ' },
    { ...newQuestion('long_answer', 'c', 2) },
    { ...newQuestion('scale', 'd', 3) },
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
  it('shows the questions in the authored order, as the engine shows a learner, and treats a 0 time limit as none', () => {
    const session = previewSession(quiz, 'seed');
    expect(session.questions.map((q) => q.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(JSON.stringify(session.questions)).not.toContain('correct');
    expect(previewQuizInfo(quiz)).toMatchObject({ questionsCount: 4, timeLimit: null, passingScore: 60 });
  });

  it('grades answers given in the shown order with the engine: long answers wait for a person, scales count nothing', () => {
    const session = previewSession(quiz, 'seed');
    const right = session.shown[0].optionOrder.indexOf(1);
    const result = gradePreview(quiz, session, { a: right, b: 'false', c: 'эссе', d: 2 }, { a: 3.4 });
    expect(result).toMatchObject({ score: 2, maxScore: 3, percentage: 67, status: 'passed' });
    expect(result.questions[0]).toMatchObject({
      questionId: 'a',
      isCorrect: true,
      answerText: '28',
      explanation: 'ТК РФ',
      timeSpent: 3,
    });
    expect(result.questions[3]).toMatchObject({ questionId: 'd', isCorrect: false, answerText: '3 — Затрудняюсь ответить' });
    // An answer that cannot belong to the question counts as none; nothing answered scores nothing.
    expect(gradePreview(quiz, session, { a: 9 }, {}).questions[0]).toMatchObject({ answerText: null, isCorrect: false });
    expect(gradePreview(quiz, session, {}, {})).toMatchObject({ score: 0, status: 'failed' });
  });
});
