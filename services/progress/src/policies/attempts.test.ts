import { PROGRESS_MSG } from '@portal/contracts';
import { questionsRevealed, resultsOwner, startRefusal } from './attempts';

const learner = { id: 'u1', role: 'CANDIDATE' as const, fullName: 'А', email: 'a@x.test' };
const curator = { ...learner, id: 'c1', role: 'CURATOR' as const };

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
    expect(resultsOwner(learner, undefined)).toBe('u1');
    expect(resultsOwner(learner, 'u1')).toBe('u1');
    expect(() => resultsOwner(learner, 'u2')).toThrow(PROGRESS_MSG.notOwnResults);
  });

  it('staff read everyone’s or one person’s', () => {
    expect(resultsOwner(curator, undefined)).toBeUndefined();
    expect(resultsOwner(curator, 'u2')).toBe('u2');
  });

  it('after_course keeps per-question results from the learner until the course is done; staff always see them', () => {
    expect(questionsRevealed(learner, 'after_course', false)).toBe(false);
    expect(questionsRevealed(learner, 'after_course', true)).toBe(true);
    expect(questionsRevealed(learner, 'after_submission', false)).toBe(true);
    expect(questionsRevealed(curator, 'after_course', false)).toBe(true);
  });
});
