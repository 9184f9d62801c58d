import { scoreAttempt, type Question } from '@portal/contracts';
import { HttpError } from '@portal/service-kit';
import type { StoredQuestion } from '../models/attempt';
import { answerText, correctAnswerText, gradeAttempt, playerQuestion, presentQuestions, toQuizTerms } from './grading';

const base = { question: 'Вопрос', options: [], correctAnswers: [], order: 0, points: 1 };
/** A question as an attempt stores it, with the order its options were shown in. */
const stored = (q: Partial<StoredQuestion> & Pick<Question, 'id' | 'type'>): StoredQuestion => ({
  ...base,
  optionOrder: (q.options ?? []).map((_, i) => i),
  leftOrder: (q.pairs ?? []).map((_, i) => i),
  rightOrder: (q.pairs ?? []).map((_, i) => i),
  ...q,
});

const grade = (
  questions: StoredQuestion[],
  answers: Array<{ questionId: string; answer: unknown; timeSpent?: number }>,
  passingScore = 70,
  late = false,
) => gradeAttempt({ questions, answers: answers as never, passingScore, late, elapsedSeconds: 600 });

describe('grading every rule on the server, in the order the learner was shown', () => {
  it('single choice: the chosen shown option maps back and must be the first correct answer', () => {
    // Shown: ['56', '14', '28'] → original indexes [2, 0, 1]; correct is original 1 ('28'), shown at 2.
    const q = stored({
      id: 'a',
      type: 'single_choice',
      options: ['14', '28', '56'],
      correctAnswers: [1, 2],
      optionOrder: [2, 0, 1],
    });
    expect(playerQuestion(q).options).toEqual(['56', '14', '28']);
    expect(grade([q], [{ questionId: 'a', answer: 2 }]).answers[0]).toMatchObject({ answer: 1, isCorrect: true });
    // Original 2 is also listed as correct, but only the first correct answer counts (the grading rule).
    expect(grade([q], [{ questionId: 'a', answer: 0 }]).answers[0]).toMatchObject({ answer: 2, isCorrect: false });
  });

  it('multiple choice: exactly the correct set, in any order, duplicates ignored', () => {
    const q = stored({
      id: 'm',
      type: 'multiple_choice',
      options: ['a', 'b', 'c', 'd'],
      correctAnswers: [0, 2],
      optionOrder: [3, 2, 1, 0],
    });
    expect(grade([q], [{ questionId: 'm', answer: [3, 1, 1] }]).answers[0]).toMatchObject({ answer: [0, 2], isCorrect: true });
    expect(grade([q], [{ questionId: 'm', answer: [3] }]).answers[0].isCorrect).toBe(false);
    expect(grade([q], [{ questionId: 'm', answer: [3, 1, 0] }]).answers[0].isCorrect).toBe(false);
  });

  it('true/false compares with the stored answer', () => {
    const q = stored({ id: 't', type: 'true_false', correctAnswer: 'false' });
    expect(grade([q], [{ questionId: 't', answer: 'false' }]).answers[0].isCorrect).toBe(true);
    expect(grade([q], [{ questionId: 't', answer: 'true' }]).answers[0].isCorrect).toBe(false);
  });

  it('short answer: trimmed and case-insensitive, Cyrillic included', () => {
    const q = stored({ id: 's', type: 'short_answer', correctAnswer: 'Трудовой Кодекс' });
    expect(grade([q], [{ questionId: 's', answer: '  трудовой КОДЕКС  ' }]).answers[0].isCorrect).toBe(true);
    expect(grade([q], [{ questionId: 's', answer: 'трудовой' }]).answers[0].isCorrect).toBe(false);
  });

  it('numeric: within the tolerance, at its edge, and a decimal comma', () => {
    const q = stored({ id: 'n', type: 'numeric', correctAnswer: '28', tolerance: 0.5 });
    expect(grade([q], [{ questionId: 'n', answer: '28,5' }]).answers[0].isCorrect).toBe(true);
    expect(grade([q], [{ questionId: 'n', answer: 27.5 }]).answers[0].isCorrect).toBe(true);
    expect(grade([q], [{ questionId: 'n', answer: '28.51' }]).answers[0].isCorrect).toBe(false);
    expect(grade([q], [{ questionId: 'n', answer: 'двадцать восемь' }]).answers[0].isCorrect).toBe(false);
  });

  it('ordering: the shown items put back in the stored (correct) order', () => {
    // Stored correct order a, b, c; shown c, a, b.
    const q = stored({ id: 'o', type: 'ordering', options: ['a', 'b', 'c'], optionOrder: [2, 0, 1] });
    expect(playerQuestion(q).options).toEqual(['c', 'a', 'b']);
    expect(grade([q], [{ questionId: 'o', answer: [1, 2, 0] }]).answers[0]).toMatchObject({ answer: [0, 1, 2], isCorrect: true });
    expect(grade([q], [{ questionId: 'o', answer: [0, 1, 2] }]).answers[0].isCorrect).toBe(false);
  });

  it('matching: every left item with its own right item, through both shown orders', () => {
    const pairs = [
      { left: 'Отпуск', right: '28 дней' },
      { left: 'Испытание', right: '3 месяца' },
    ];
    // Left shown in stored order; right shown swapped.
    const q = stored({ id: 'p', type: 'matching', pairs, rightOrder: [1, 0] });
    expect(playerQuestion(q)).toMatchObject({ left: ['Отпуск', 'Испытание'], right: ['3 месяца', '28 дней'] });
    expect(grade([q], [{ questionId: 'p', answer: { 0: 1, 1: 0 } }]).answers[0]).toMatchObject({
      answer: { 0: 0, 1: 1 },
      isCorrect: true,
    });
    expect(grade([q], [{ questionId: 'p', answer: { 0: 0, 1: 1 } }]).answers[0].isCorrect).toBe(false);
    expect(grade([q], [{ questionId: 'p', answer: { 0: 1 } }]).answers[0].isCorrect).toBe(false);
  });

  it('fill in the blanks: every blank, trimmed and in any case', () => {
    const q = stored({ id: 'f', type: 'fill_blanks', question: 'Отпуск ___ дней, испытание ___ месяца', blanks: ['28', 'три'] });
    expect(playerQuestion(q).blanksCount).toBe(2);
    expect(grade([q], [{ questionId: 'f', answer: [' 28', 'ТРИ '] }]).answers[0].isCorrect).toBe(true);
    expect(grade([q], [{ questionId: 'f', answer: ['28', ''] }]).answers[0].isCorrect).toBe(false);
  });

  it('a long answer is never correct; a survey scale is kept and worth nothing', () => {
    const long = stored({ id: 'l', type: 'long_answer', correctAnswer: 'эссе' });
    const scale = stored({ id: 'x', type: 'scale', options: ['1', '2', '3', '4', '5'], correctAnswer: '5' });
    const result = grade(
      [long, scale],
      [
        { questionId: 'l', answer: 'эссе' },
        { questionId: 'x', answer: 4 },
      ],
    );
    expect(result.answers.map((a) => [a.answer, a.isCorrect])).toEqual([
      ['эссе', false],
      [4, false],
    ]);
    expect(result).toMatchObject({ score: 0, maxScore: 1, percentage: 0, status: 'failed' });
  });

  it('an unanswered question is wrong; a blank answer counts as none', () => {
    const q = stored({ id: 's', type: 'short_answer', correctAnswer: '' });
    expect(grade([q], [{ questionId: 's', answer: '   ' }]).answers[0]).toMatchObject({ answer: null, isCorrect: false });
    expect(grade([q], []).answers[0]).toMatchObject({ questionId: 's', answer: null, isCorrect: false, timeSpent: 0 });
  });

  it('refuses with 400 an answer that cannot belong to its question, or an unknown question', () => {
    const q = stored({ id: 'a', type: 'single_choice', options: ['x', 'y'], correctAnswers: [0] });
    const refusal = (answers: Array<{ questionId: string; answer: unknown }>) => {
      try {
        grade([q], answers);
      } catch (err) {
        return err as HttpError;
      }
      throw new Error('not refused');
    };
    expect(refusal([{ questionId: 'a', answer: 2 }])).toMatchObject({ statusCode: 400, field: 'answers.0.answer' });
    expect(refusal([{ questionId: 'a', answer: [0] }])).toMatchObject({ statusCode: 400, field: 'answers.0.answer' });
    expect(refusal([{ questionId: 'zz', answer: 0 }])).toMatchObject({
      statusCode: 400,
      field: 'answers.0.questionId',
      message: 'В квизе нет вопроса zz',
    });
    expect(() => toQuizTerms(stored({ id: 'o', type: 'ordering', options: ['a', 'b'] }), [0, 0], 3)).toThrow(HttpError);
  });

  it('late answers count as unanswered but are kept, marked late', () => {
    const q = stored({ id: 't', type: 'true_false', correctAnswer: 'true' });
    const result = grade([q], [{ questionId: 't', answer: 'true' }], 0, true);
    expect(result.answers[0]).toMatchObject({ answer: 'true', isCorrect: false, late: true });
    expect(result.score).toBe(0);
  });

  it('time spent is whole seconds and never more than the attempt has lasted', () => {
    const q = stored({ id: 't', type: 'true_false', correctAnswer: 'true' });
    const result = gradeAttempt({
      questions: [q],
      answers: [{ questionId: 't', answer: 'true', timeSpent: 9999.4 }],
      passingScore: 0,
      late: false,
      elapsedSeconds: 41.2,
    });
    expect(result.answers[0].timeSpent).toBe(42);
  });
});

describe('score, percentage and pass mark at the boundaries', () => {
  const tf = (id: string) => stored({ id, type: 'true_false', correctAnswer: 'true' });
  const questions = [tf('1'), tf('2'), tf('3')];
  const answered = (n: number) => questions.slice(0, n).map((q) => ({ questionId: q.id, answer: 'true' }));

  it('2 of 3 is 67%: passes at 67, fails at 68', () => {
    expect(grade(questions, answered(2), 67)).toMatchObject({ score: 2, maxScore: 3, percentage: 67, status: 'passed' });
    expect(grade(questions, answered(2), 68)).toMatchObject({ percentage: 67, status: 'failed' });
  });

  it('1 of 3 rounds down to 33%; all passes at 100; none passes only at 0', () => {
    expect(grade(questions, answered(1), 33)).toMatchObject({ percentage: 33, status: 'passed' });
    expect(grade(questions, answered(3), 100)).toMatchObject({ percentage: 100, status: 'passed' });
    expect(grade(questions, [], 0)).toMatchObject({ percentage: 0, status: 'passed' });
    expect(grade(questions, [], 1)).toMatchObject({ percentage: 0, status: 'failed' });
  });

  it('a half rounds up: 1 of 8 is 13%, 7 of 8 is 88%', () => {
    expect(scoreAttempt(1, 8, 13)).toMatchObject({ percentage: 13, status: 'passed' });
    expect(scoreAttempt(7, 8, 88)).toMatchObject({ percentage: 88, status: 'passed' });
    expect(scoreAttempt(7, 10, 70).status).toBe('passed');
    expect(scoreAttempt(69, 100, 70).status).toBe('failed');
  });
});

describe('what the learner is shown', () => {
  const questions: Question[] = [
    {
      ...base,
      id: 'c',
      type: 'single_choice',
      options: ['a', 'b', 'c', 'd', 'e', 'f'],
      correctAnswers: [3],
      explanation: 'секрет',
      order: 2,
    },
    { ...base, id: 'o', type: 'ordering', options: ['1', '2', '3'], order: 1 },
    {
      ...base,
      id: 'm',
      type: 'matching',
      pairs: [
        { left: 'l1', right: 'r1' },
        { left: 'l2', right: 'r2' },
      ],
      order: 0,
    },
    { ...base, id: 's', type: 'short_answer', correctAnswer: 'ответ', order: 3 },
  ];

  it('never carries correct answers, pairs, blanks, tolerance or explanations', () => {
    const shown = presentQuestions(questions, { randomizeQuestions: true, randomizeAnswers: true }).map(playerQuestion);
    const text = JSON.stringify(shown);
    for (const secret of ['correctAnswers', 'correctAnswer', 'explanation', 'секрет', 'ответ', 'pairs', 'blanks', 'tolerance'])
      expect(text).not.toContain(secret);
  });

  it('keeps the authored order unless randomizeQuestions, and choice options unless randomizeAnswers', () => {
    const kept = presentQuestions(questions, { randomizeQuestions: false, randomizeAnswers: false });
    expect(kept.map((q) => q.id)).toEqual(['m', 'o', 'c', 's']);
    expect(playerQuestion(kept[2]).options).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    // Ordering items and the right column are shuffled always: shown in the answer's order they would give it away.
    expect(kept[1].optionOrder).not.toEqual([0, 1, 2]);
    expect(kept[0].rightOrder).toEqual([1, 0]);
  });

  it('shuffles questions and options when asked (over many draws, not always the same)', () => {
    const orders = new Set<string>();
    const optionOrders = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const shown = presentQuestions(questions, { randomizeQuestions: true, randomizeAnswers: true });
      orders.add(shown.map((q) => q.id).join());
      optionOrders.add(shown.find((q) => q.id === 'c')!.optionOrder.join());
    }
    expect(orders.size).toBeGreaterThan(1);
    expect(optionOrders.size).toBeGreaterThan(1);
  });
});

describe('answers in words, for details and the CSV', () => {
  it('says what was chosen and what was right', () => {
    const single = stored({ id: 'a', type: 'single_choice', options: ['14', '28'], correctAnswers: [1] });
    expect(answerText(single, 0)).toBe('14');
    expect(correctAnswerText(single)).toBe('28');
    const tf = stored({ id: 't', type: 'true_false', correctAnswer: 'true' });
    expect(answerText(tf, 'false')).toBe('Неверно');
    expect(correctAnswerText(tf)).toBe('Верно');
    const ordering = stored({ id: 'o', type: 'ordering', options: ['a', 'b', 'c'] });
    expect(answerText(ordering, [2, 0, 1])).toBe('c → a → b');
    expect(correctAnswerText(ordering)).toBe('a → b → c');
    const matching = stored({
      id: 'p',
      type: 'matching',
      pairs: [
        { left: 'x', right: '1' },
        { left: 'y', right: '2' },
      ],
    });
    expect(answerText(matching, { 1: 0, 0: 1 })).toBe('x — 2; y — 1');
    expect(correctAnswerText(stored({ id: 'n', type: 'numeric', correctAnswer: '28', tolerance: 1 }))).toBe('28 ± 1');
    expect(correctAnswerText(stored({ id: 'l', type: 'long_answer' }))).toBeNull();
    expect(answerText(single, null)).toBeNull();
  });
});
