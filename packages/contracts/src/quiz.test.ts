import { isAnswerCorrect, newQuestion, quizSettingsSchema, scoreAttempt, type Question } from './quiz';

const q = (patch: Partial<Question>): Question => ({ ...newQuestion('single_choice', 'q', 0), ...patch });

describe('grading (the first correct answer counts; score = right answers)', () => {
  it('single choice: the chosen index equals the first correct answer', () => {
    expect(isAnswerCorrect(q({ correctAnswers: [1, 2] }), 1)).toBe(true);
    expect(isAnswerCorrect(q({ correctAnswers: [1, 2] }), 2)).toBe(false);
  });
  it('multiple choice: the chosen set equals the correct set exactly', () => {
    const m = q({ type: 'multiple_choice', correctAnswers: [0, 2] });
    expect(isAnswerCorrect(m, [2, 0])).toBe(true);
    expect(isAnswerCorrect(m, [0])).toBe(false);
    expect(isAnswerCorrect(m, [0, 1, 2])).toBe(false);
  });
  it('true/false, short answer (trimmed, any case), numeric within tolerance', () => {
    expect(isAnswerCorrect(q({ type: 'true_false', correctAnswer: 'false' }), 'false')).toBe(true);
    expect(isAnswerCorrect(q({ type: 'true_false', correctAnswer: 'false' }), 'true')).toBe(false);
    expect(isAnswerCorrect(q({ type: 'short_answer', correctAnswer: 'Трудовой кодекс' }), '  трудовой КОДЕКС ')).toBe(true);
    expect(isAnswerCorrect(q({ type: 'numeric', correctAnswer: '28', tolerance: 0.5 }), '28,4')).toBe(true);
    expect(isAnswerCorrect(q({ type: 'numeric', correctAnswer: '28', tolerance: 0.5 }), 29)).toBe(false);
  });
  it('ordering, matching and blanks must be exact; long answers never count', () => {
    expect(isAnswerCorrect(q({ type: 'ordering', options: ['a', 'b', 'c'] }), [0, 1, 2])).toBe(true);
    expect(isAnswerCorrect(q({ type: 'ordering', options: ['a', 'b', 'c'] }), [1, 0, 2])).toBe(false);
    const matching = q({
      type: 'matching',
      pairs: [
        { left: 'a', right: '1' },
        { left: 'b', right: '2' },
      ],
    });
    expect(isAnswerCorrect(matching, { 0: 0, 1: 1 })).toBe(true);
    expect(isAnswerCorrect(matching, { 0: 1, 1: 0 })).toBe(false);
    expect(isAnswerCorrect(q({ type: 'fill_blanks', blanks: ['отпуск', '28'] }), ['Отпуск ', '28'])).toBe(true);
    expect(isAnswerCorrect(q({ type: 'fill_blanks', blanks: ['отпуск', '28'] }), ['отпуск'])).toBe(false);
    expect(isAnswerCorrect(q({ type: 'long_answer', correctAnswer: 'x' }), 'x')).toBe(false);
    expect(isAnswerCorrect(q({}), null)).toBe(false);
  });
});

describe('score and pass mark at the boundaries', () => {
  it('rounds the share and passes at exactly the passing score', () => {
    expect(scoreAttempt(2, 3, 67)).toEqual({ score: 2, maxScore: 3, percentage: 67, status: 'passed' });
    expect(scoreAttempt(2, 3, 68).status).toBe('failed');
    expect(scoreAttempt(0, 0, 0)).toMatchObject({ percentage: 0, status: 'passed' });
    expect(scoreAttempt(7, 10, 70).status).toBe('passed');
    expect(scoreAttempt(69, 100, 70).status).toBe('failed');
  });
  it('reads blank settings as the spec says', () => {
    expect(quizSettingsSchema.parse({ passingScore: '', maxAttempts: '', timeLimit: '' })).toMatchObject({
      passingScore: 0,
      maxAttempts: 1,
      timeLimit: null,
    });
    expect(quizSettingsSchema.safeParse({ passingScore: 101 }).success).toBe(false);
    expect(quizSettingsSchema.safeParse({ passingScore: 50, maxAttempts: 11 }).success).toBe(false);
  });
});
