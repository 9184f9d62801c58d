/** @jest-environment jsdom */
import { act, renderHook } from '@testing-library/react';
import { NEW_QUIZ_DEFAULTS, newQuestion, type Quiz } from '@portal/contracts';
import { useQuizAttempt } from './useQuizAttempt';

const stored = { id: 'q', description: '', courseId: null, draws: [], version: 0, createdAt: '', updatedAt: '' };

/** A new quiz of two true/false questions, all to be right, two attempts, with this time limit in minutes. */
const quiz = (timeLimit: number): Quiz => ({
  ...NEW_QUIZ_DEFAULTS,
  ...stored,
  questions: [
    { ...newQuestion('true_false', 'a', 0), correctAnswer: 'false' },
    { ...newQuestion('true_false', 'b', 1), correctAnswer: 'true' },
  ],
  settings: { ...NEW_QUIZ_DEFAULTS.settings, randomizeAnswers: false, passingScore: 100, maxAttempts: 2, timeLimit },
});

describe('an attempt at a quiz, from start to result (an author preview, graded in the page)', () => {
  afterEach(() => jest.useRealTimers());

  it('starts on the first question, moves only between existing ones, and a right set of answers passes', async () => {
    const onPreviewPassed = jest.fn();
    const { result } = renderHook(() => useQuizAttempt({ kind: 'preview', quiz: quiz(0) }, { onPreviewPassed }));
    expect(result.current).toMatchObject({ phase: 'playing', index: 0, secondsLeft: null });

    act(() => result.current.goTo(-1));
    expect(result.current.index).toBe(0);
    act(() => result.current.answer('a', 'false'));
    act(() => result.current.goTo(1));
    act(() => result.current.goTo(2));
    expect(result.current.index).toBe(1);
    act(() => result.current.answer('b', 'true'));
    await act(() => result.current.submit(false));

    expect(result.current).toMatchObject({ phase: 'result', timedOut: false, canRetry: false });
    expect(result.current.outcome).toMatchObject({ status: 'passed', percentage: 100 });
    expect(onPreviewPassed).toHaveBeenCalledTimes(1);
  });

  it('submits by itself when the time is up, and a failed attempt with attempts left can start again', async () => {
    jest.useFakeTimers();
    const onPreviewPassed = jest.fn();
    const { result } = renderHook(() => useQuizAttempt({ kind: 'preview', quiz: quiz(1) }, { onPreviewPassed }));
    expect(result.current.secondsLeft).toBe(60);

    await act(async () => {
      jest.advanceTimersByTime(60_000);
    });

    expect(result.current).toMatchObject({ phase: 'result', timedOut: true, secondsLeft: null, canRetry: true });
    expect(result.current.outcome).toMatchObject({ status: 'failed' });
    expect(onPreviewPassed).not.toHaveBeenCalled();

    await act(() => result.current.start());
    expect(result.current).toMatchObject({ phase: 'playing', index: 0, timedOut: false, outcome: null, answers: {} });
  });
});
