import { durationSeconds, exitOf, interactionsOf, renamedLearner, resumes, sessionSecondsOf, withEntry } from './cmi';

describe('reading a committed CMI tree', () => {
  it("reads 2004's ISO durations and 1.2's clock times as seconds, and nothing else", () => {
    expect(durationSeconds('PT1M30S')).toBe(90);
    expect(durationSeconds('PT1H0M2.5S')).toBe(3602.5);
    expect(durationSeconds('P1DT2H')).toBe(93_600);
    expect(durationSeconds('0000:01:05.25')).toBe(65.25);
    expect(durationSeconds('00:00:07')).toBe(7);
    for (const bad of ['', 'P', 'PT', '5 minutes', '1:2:3']) expect(durationSeconds(bad)).toBeNull();
  });

  it('takes interactions of both versions, in index order, whether rendered as an object or an array', () => {
    const tree2004 = {
      interactions: {
        '1': {
          id: 'q2',
          type: 'fill-in',
          learner_response: 'Москва',
          result: 'incorrect',
          latency: 'PT12S',
          correct_responses: {},
        },
        '0': { id: 'q1', type: 'choice', learner_response: 'a', result: 'correct', correct_responses: { '0': { pattern: 'a' } } },
        _count: 2,
      },
    };
    expect(interactionsOf(tree2004)).toEqual([
      { id: 'q1', type: 'choice', response: 'a', result: 'correct', latency: null, correctResponses: ['a'] },
      { id: 'q2', type: 'fill-in', response: 'Москва', result: 'incorrect', latency: 12, correctResponses: [] },
    ]);
    const tree12 = {
      interactions: [{ id: 'i1', type: 'true-false', student_response: 't', result: 'wrong', latency: '00:00:03' }],
    };
    expect(interactionsOf(tree12)).toEqual([
      { id: 'i1', type: 'true-false', response: 't', result: 'wrong', latency: 3, correctResponses: [] },
    ]);
    expect(interactionsOf({ interactions: 'broken' })).toEqual([]);
    expect(interactionsOf(null)).toEqual([]);
  });

  it('keeps at most 4000 characters of a response, never half a surrogate pair', () => {
    const long = `${'я'.repeat(3999)}😀хвост`;
    const [item] = interactionsOf({ interactions: { '0': { id: 'q', learner_response: long } } });
    expect(item.response).toHaveLength(3999);
    expect(item.response.endsWith('я')).toBe(true);
  });

  it('resumes on a bookmark or a suspended exit, in either version, and sets the entry where the version keeps it', () => {
    expect(resumes({ location: 'p3' })).toBe(true);
    expect(resumes({ suspend_data: 'x' })).toBe(true);
    expect(resumes({ exit: 'suspend' })).toBe(true);
    expect(resumes({ core: { lesson_location: 'p2' } })).toBe(true);
    expect(resumes({ core: { exit: 'suspend' } })).toBe(true);
    expect(resumes({ exit: 'normal', location: '', suspend_data: '' })).toBe(false);
    expect(exitOf({ core: { exit: 'time-out' } })).toBe('time-out');
    expect(sessionSecondsOf({ core: { session_time: '00:02:00' } })).toBe(120);
    expect(withEntry({ core: { lesson_location: 'p2' } }, 'resume')).toEqual({
      core: { lesson_location: 'p2', entry: 'resume' },
    });
    expect(withEntry({ location: 'p3' }, 'resume')).toEqual({ location: 'p3', entry: 'resume' });
  });

  it("replaces the learner's name in a stored tree of either version", () => {
    const renamed2004 = JSON.parse(
      renamedLearner(JSON.stringify({ cmi: { learner_name: 'Ольга', location: 'p1' } }), 'Пользователь 1'),
    );
    expect(renamed2004).toEqual({ cmi: { learner_name: 'Пользователь 1', location: 'p1' } });
    const renamed12 = JSON.parse(renamedLearner(JSON.stringify({ cmi: { core: { student_name: 'Ольга' } } }), 'Пользователь 1'));
    expect(renamed12).toEqual({ cmi: { core: { student_name: 'Пользователь 1' } } });
    expect(renamedLearner('', 'Пользователь 1')).toBe('');
  });
});
