import { EDITOR_MSG, QUIZ_MSG, newQuestion, type Quiz } from '@portal/contracts';
import {
  addQuestion,
  checkDraft,
  draftOf,
  duplicateQuestion,
  markCorrect,
  questionIndexOf,
  removeOption,
  setBlankText,
  shiftOption,
} from './quizDraft';

describe('a quiz being edited', () => {
  it("starts from the spec's new quiz defaults", () => {
    expect(draftOf(null)).toEqual({
      title: 'Новый квиз',
      description: '',
      questions: [],
      draws: [],
      settings: {
        randomizeQuestions: false,
        randomizeAnswers: true,
        passingScore: '70',
        maxAttempts: '3',
        showExplanations: 'after_submission',
        showCorrectAnswers: 'after_pass_or_last',
        scoring: 'all_or_nothing',
        timeLimit: '',
      },
    });
  });

  it('adds questions of each type with the spec defaults, and duplicates one with a new id', () => {
    let questions = addQuestion([], 'single_choice');
    questions = addQuestion(questions, 'true_false');
    expect(questions.map((q) => [q.type, q.question, q.order])).toEqual([
      ['single_choice', 'Новый вопрос', 1],
      ['true_false', 'Новый вопрос', 2],
    ]);
    expect(questions[0]).toMatchObject({ options: ['Вариант 1', 'Вариант 2'], correctAnswers: [0] });
    expect(questions[1].correctAnswer).toBe('true');
    const copied = duplicateQuestion(questions, 0);
    expect(copied.map((q) => q.order)).toEqual([1, 2, 3]);
    expect(copied[1].id).not.toBe(copied[0].id);
    expect(copied[1].options).toEqual(copied[0].options);
  });

  it('keeps the correct answers on the same texts when options are removed or moved', () => {
    const q = { ...newQuestion('multiple_choice', 'q', 1), options: ['A', 'B', 'C', 'D'], correctAnswers: [1, 3] };
    expect(removeOption(q, 0)).toMatchObject({ options: ['B', 'C', 'D'], correctAnswers: [0, 2] });
    expect(removeOption(q, 1)).toMatchObject({ options: ['A', 'C', 'D'], correctAnswers: [2] });
    expect(shiftOption(q, 1, -1)).toMatchObject({ options: ['B', 'A', 'C', 'D'], correctAnswers: [0, 3] });
    expect(shiftOption(q, 3, 1)).toBe(q);
    expect(markCorrect(q, 2, true).correctAnswers).toEqual([1, 2, 3]);
    expect(markCorrect(q, 1, false).correctAnswers).toEqual([3]);
    expect(markCorrect({ ...q, type: 'single_choice' }, 2, true).correctAnswers).toEqual([2]);
  });

  it('sizes the answers of a fill-the-blanks question by the blanks in its text', () => {
    const q = { ...newQuestion('fill_blanks', 'q', 1), blanks: ['сто'] };
    expect(setBlankText(q, 'Вода кипит при ___ °C и замерзает при ___ °C').blanks).toEqual(['сто', '']);
    expect(setBlankText(q, 'Без пропусков').blanks).toEqual([]);
  });

  it('is checked before saving by the same rules as on the server, and names where the problem is', () => {
    const draft = draftOf(null);
    expect(checkDraft({ ...draft, title: ' ' }, null)).toEqual({ ok: false, message: QUIZ_MSG.titleRequired, path: 'title' });
    expect(checkDraft({ ...draft, settings: { ...draft.settings, passingScore: '150' } }, null)).toMatchObject({
      ok: false,
      message: QUIZ_MSG.passingScoreRange,
      path: 'settings.passingScore',
    });
    expect(checkDraft({ ...draft, settings: { ...draft.settings, maxAttempts: '11' } }, null)).toMatchObject({
      ok: false,
      message: QUIZ_MSG.maxAttemptsRange,
    });
    expect(checkDraft({ ...draft, settings: { ...draft.settings, timeLimit: '-5' } }, null)).toMatchObject({
      ok: false,
      message: QUIZ_MSG.timeLimitMin,
    });
    const broken = addQuestion(addQuestion([], 'true_false'), 'short_answer');
    const check = checkDraft({ ...draft, questions: broken }, null);
    expect(check).toEqual({ ok: false, message: EDITOR_MSG.shortAnswerRequired, path: 'questions.1.correctAnswer' });
    expect(questionIndexOf(check.ok ? '' : check.path)).toBe(1);
    expect(checkDraft({ ...draft, questions: [{ ...broken[0], question: '  ' }] }, null)).toMatchObject({
      ok: false,
      message: QUIZ_MSG.questionRequired,
      path: 'questions.0.question',
    });
  });

  it('turns empty settings into the spec fallbacks and gives the payload to save', () => {
    const draft = {
      ...draftOf(null),
      title: ' Итоговый тест ',
      settings: { ...draftOf(null).settings, passingScore: '', maxAttempts: '', timeLimit: '' },
    };
    const check = checkDraft({ ...draft, questions: addQuestion([], 'true_false') }, 'course-1');
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.input).toMatchObject({
      title: 'Итоговый тест',
      courseId: 'course-1',
      settings: { passingScore: 0, maxAttempts: 1, timeLimit: null },
    });
    expect(check.input.questions?.[0].order).toBe(1);
  });

  it('edits a stored quiz as it is', () => {
    const quiz: Quiz = {
      id: 'z',
      title: 'Т',
      description: 'Д',
      draws: [],
      questions: [newQuestion('true_false', 'a', 1)],
      settings: {
        randomizeQuestions: true,
        randomizeAnswers: false,
        passingScore: 50,
        maxAttempts: 2,
        showExplanations: 'immediately',
        showCorrectAnswers: 'never',
        scoring: 'proportional',
        timeLimit: 15,
      },
      version: 0,
      createdAt: '',
      updatedAt: '',
    };
    expect(draftOf(quiz).settings).toEqual({
      randomizeQuestions: true,
      randomizeAnswers: false,
      passingScore: '50',
      maxAttempts: '2',
      showExplanations: 'immediately',
      showCorrectAnswers: 'never',
      scoring: 'proportional',
      timeLimit: '15',
    });
  });
});
