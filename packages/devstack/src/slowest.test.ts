import { jestFileTimes, playwrightFileTimes, slowest } from './slowest';

describe('the slowest test files of a run', () => {
  it('reads jest’s report as each file’s wall time, relative to the repository', () => {
    const times = jestFileTimes(
      {
        testResults: [
          { name: '/repo/services/auth/src/a.test.ts', startTime: 1_000, endTime: 4_500 },
          { name: '/repo/packages/ui/src/b.test.ts', startTime: 2_000, endTime: 2_300 },
          { name: '/repo/broken.test.ts' },
        ],
      },
      '/repo',
    );
    expect(times).toEqual([
      { file: 'services/auth/src/a.test.ts', ms: 3_500 },
      { file: 'packages/ui/src/b.test.ts', ms: 300 },
    ]);
  });

  it('adds up every result of every test of a journey file, nested suites and retries included', () => {
    const times = playwrightFileTimes({
      suites: [
        {
          file: 'quiz.spec.ts',
          specs: [{ tests: [{ results: [{ duration: 1_000 }, { duration: 2_000 }] }] }],
          suites: [{ specs: [{ file: 'quiz.spec.ts', tests: [{ results: [{ duration: 500 }] }] }] }],
        },
        { file: 'crm.spec.ts', specs: [{ tests: [{ results: [{ duration: 700 }] }] }] },
      ],
    });
    expect(slowest(times, 10)).toEqual([
      { file: 'quiz.spec.ts', ms: 3_500 },
      { file: 'crm.spec.ts', ms: 700 },
    ]);
  });

  it('keeps only the longest, longest first', () => {
    const times = [3, 9, 1, 7].map((ms) => ({ file: `f${ms}`, ms }));
    expect(slowest(times, 2).map((t) => t.file)).toEqual(['f9', 'f7']);
  });
});
