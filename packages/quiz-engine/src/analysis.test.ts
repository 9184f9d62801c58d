import { analyseQuiz, correlation, histogramOf, median } from './analysis';
import { seededDraw } from './shuffle';

describe('item analysis, the pure parts', () => {
  it('has nothing to say about no attempts', () => {
    expect(analyseQuiz([])).toEqual({ sampleSize: 0, histogram: histogramOf([]), items: [] });
    expect(histogramOf([]).every((b) => b.count === 0)).toBe(true);
  });

  it('puts 100 % in the last bar and 9.9 % in the first', () => {
    const bars = histogramOf([100, 90, 9.9, 0]);
    expect([bars[0].count, bars[9].count]).toEqual([2, 2]);
    expect(bars[9]).toMatchObject({ from: 90, to: 100 });
  });

  it('has no correlation when one side never varies, and the median of an even list is the mean of the middle two', () => {
    expect(correlation([1, 1, 1], [0, 1, 2])).toBeNull();
    expect(correlation([0, 1], [0, 1])).toBe(1);
    expect(median([])).toBeNull();
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('never grades or flags a survey question (scale)', () => {
    const attempts = Array.from({ length: 6 }, (_, i) => ({
      percentage: 0,
      questions: [
        {
          id: 's',
          type: 'scale' as const,
          question: 'Оцените',
          options: ['1', '2', '3'],
          correctAnswers: [],
          points: 1,
          order: 0,
        },
      ],
      answers: [{ questionId: 's', answer: 1 + (i % 3), earned: 0, timeSpent: 0 }],
    }));
    const [item] = analyseQuiz(attempts).items;
    expect(item).toMatchObject({ facility: null, discrimination: null, flags: [], medianTime: null, attempts: 6 });
  });
});

describe('a draw from a bank', () => {
  const pool = Array.from({ length: 20 }, (_, i) => `q${i}`);
  it('is the same for the same seed, without repeats, and never more than the pool holds', () => {
    expect(seededDraw('a1', 'tag', pool, 5)).toEqual(seededDraw('a1', 'tag', pool, 5));
    expect(new Set(seededDraw('a1', 'tag', pool, 5)).size).toBe(5);
    expect(seededDraw('a1', 'tag', pool.slice(0, 3), 10)).toHaveLength(3);
    expect(seededDraw('a1', 'tag', pool, 0)).toEqual([]);
  });
  it('differs between seeds', () => {
    const draws = new Set(['s1', 's2', 's3', 's4', 's5'].map((seed) => seededDraw(seed, 'tag', pool, 5).join()));
    expect(draws.size).toBeGreaterThan(1);
  });
});
