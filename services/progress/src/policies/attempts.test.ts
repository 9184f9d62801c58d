import { PROGRESS_MSG } from '@portal/contracts';
import { maySeeAttempt, questionsRevealed, resultsScope, startRefusal } from './attempts';

const learner = { id: 'u1', role: 'CANDIDATE' as const, fullName: 'А', email: 'a@x.test' };
const curator = { ...learner, id: 'c1', role: 'CURATOR' as const };
const admin = { ...learner, id: 'a1', role: 'ADMIN' as const };

describe('who may start another attempt', () => {
  it('allows attempts up to maxAttempts, whatever their results', () => {
    expect(startRefusal(3, [])).toBeNull();
    expect(startRefusal(3, [{ status: 'failed' }, { status: 'passed' }])).toBeNull();
    expect(startRefusal(3, [{ status: 'failed' }, { status: 'failed' }, { status: 'failed' }])).toBe(
      'Попытки закончились: использовано 3 из 3',
    );
  });

  it('with a single attempt a pass is final, and a fail is the end as well', () => {
    expect(startRefusal(1, [{ status: 'passed' }])).toBe(PROGRESS_MSG.alreadyPassed);
    expect(startRefusal(1, [{ status: 'failed' }])).toBe('Попытки закончились: использовано 1 из 1');
  });
});

describe('whose results', () => {
  it('a learner reads only their own, and asking for someone else is refused', () => {
    expect(resultsScope(learner, undefined, new Set())).toEqual({ userId: 'u1' });
    expect(resultsScope(learner, 'u1', new Set())).toEqual({ userId: 'u1' });
    expect(() => resultsScope(learner, 'u2', new Set())).toThrow(PROGRESS_MSG.notOwnResults);
  });

  it('an ADMIN reads everyone’s or one person’s; a curator only within the courses they own or co-author', () => {
    expect(resultsScope(admin, undefined, 'all')).toEqual({});
    expect(resultsScope(admin, 'u2', 'all')).toEqual({ userId: 'u2' });
    expect(resultsScope(curator, 'u2', new Set(['k1']))).toMatchObject({ userId: 'u2', courseId: { $in: ['k1'] } });
    expect(resultsScope(curator, undefined, new Set())).toMatchObject({ courseId: { $in: [] } });
  });

  it('an attempt is its learner’s, its course’s authors’ and the ADMIN’s to read', () => {
    const attempt = { userId: 'u1', courseId: 'k1' };
    expect(maySeeAttempt(learner, attempt, new Set())).toBe(true);
    expect(maySeeAttempt({ ...learner, id: 'u2' }, attempt, new Set())).toBe(false);
    expect(maySeeAttempt(curator, attempt, new Set(['k1']))).toBe(true);
    expect(maySeeAttempt(curator, attempt, new Set(['k2']))).toBe(false);
    expect(maySeeAttempt(admin, attempt, 'all')).toBe(true);
  });

  it('after_course keeps per-question results from the learner until the course is done; staff always see them', () => {
    expect(questionsRevealed(learner, 'after_course', false)).toBe(false);
    expect(questionsRevealed(learner, 'after_course', true)).toBe(true);
    expect(questionsRevealed(learner, 'after_submission', false)).toBe(true);
    expect(questionsRevealed(curator, 'after_course', false)).toBe(true);
  });
});
