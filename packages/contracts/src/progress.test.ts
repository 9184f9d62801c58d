import type { Course } from './content';
import { attemptSubmitSchema, formatCountdown, minutesBetween, resultLine, resultsQuerySchema } from './progress';
import { completedLessonIdsOf, computeCourseProgress, isFinalPass } from './progressRules';

const lessons = (...ids: string[]) => ids.map((id) => ({ id }));
const course = (modules: Array<{ id: string; lessons: Array<{ id: string }> }>) =>
  ({ id: 'c1', modules }) as unknown as Pick<Course, 'id' | 'modules'>;

describe('course progress (completed over all lessons, over 1 when none)', () => {
  it('counts only lessons the course still has and rounds the share', () => {
    const p = computeCourseProgress(course([{ id: 'm1', lessons: lessons('a', 'b', 'c') }]), ['a', 'gone']);
    expect(p).toMatchObject({
      totalLessons: 3,
      completedLessons: 1,
      percentage: 33,
      completedLessonIds: ['a'],
      isCompleted: false,
    });
  });

  it('a course without lessons is 0% and not completed', () => {
    expect(computeCourseProgress(course([]), [])).toMatchObject({ totalLessons: 0, percentage: 0, isCompleted: false });
    expect(computeCourseProgress(course([{ id: 'm1', lessons: [] }]), []).modules).toEqual([
      { moduleId: 'm1', totalLessons: 0, completedLessons: 0, isCompleted: false },
    ]);
  });

  it('derives module and course completion', () => {
    const p = computeCourseProgress(
      course([
        { id: 'm1', lessons: lessons('a') },
        { id: 'm2', lessons: lessons('b', 'c') },
      ]),
      ['a', 'b'],
    );
    expect(p.modules.map((m) => m.isCompleted)).toEqual([true, false]);
    expect(p).toMatchObject({ percentage: 67, isCompleted: false });
    expect(computeCourseProgress(course([{ id: 'm1', lessons: lessons('a') }]), ['a'], '2026-01-01T00:00:00.000Z')).toMatchObject(
      { percentage: 100, isCompleted: true, completedAt: '2026-01-01T00:00:00.000Z' },
    );
  });
});

describe('one rule of lesson completion (docs/decisions/034)', () => {
  it('a lesson without a quiz is complete when marked; a lesson with a quiz only when its quiz is passed', () => {
    const outline = [{ id: 'text' }, { id: 'quiz', hasQuiz: true }, { id: 'essay', hasQuiz: true }];
    expect(completedLessonIdsOf(outline, ['text', 'quiz'], [])).toEqual(['text']);
    expect(completedLessonIdsOf(outline, ['text'], ['quiz'])).toEqual(['text', 'quiz']);
  });

  it('a pass still waiting for a person is not a pass yet', () => {
    expect(isFinalPass({ status: 'passed' })).toBe(true);
    expect(isFinalPass({ status: 'passed', awaitingReview: true })).toBe(false);
    expect(isFinalPass({ status: 'failed' })).toBe(false);
  });

  it('names the open lessons waiting for a grade and those whose quiz was tried, never a complete one', () => {
    const p = computeCourseProgress(course([{ id: 'm1', lessons: lessons('a', 'b', 'c') }]), ['a'], null, {
      awaitingReview: ['b', 'a'],
      attempted: ['a', 'b', 'c'],
    });
    expect(p).toMatchObject({ awaitingReviewLessonIds: ['b'], attemptedLessonIds: ['c'] });
  });
});

describe('player and results helpers', () => {
  it('shows the countdown as m:ss, never below zero', () => {
    expect(formatCountdown(600)).toBe('10:00');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(0.2)).toBe('0:01');
    expect(formatCountdown(-3)).toBe('0:00');
  });

  it('computes minutes from start to end with one decimal', () => {
    expect(minutesBetween('2026-01-01T10:00:00Z', '2026-01-01T10:03:30Z')).toBe(3.5);
    expect(minutesBetween('2026-01-01T10:00:00Z', '2026-01-01T09:00:00Z')).toBe(0);
  });

  it('writes the result line of the dialog', () => {
    expect(resultLine({ score: 2, maxScore: 3, percentage: 67 })).toBe('Ваш результат: 2 из 3 (67%)');
  });

  it('refuses an answer given twice for one question, naming it', () => {
    const parsed = attemptSubmitSchema.safeParse({
      answers: [
        { questionId: 'q1', answer: 1 },
        { questionId: 'q1', answer: 2 },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['answers', 1, 'questionId'],
      message: 'Ответ на вопрос указан дважды: q1',
    });
  });

  it('reads the results filter: all means no status, paging has bounds', () => {
    expect(resultsQuerySchema.parse({ status: 'all' })).toMatchObject({ status: undefined, page: 1, limit: 20 });
    expect(resultsQuerySchema.safeParse({ status: 'lost' }).success).toBe(false);
    expect(resultsQuerySchema.safeParse({ limit: '1000' }).success).toBe(false);
  });
});
