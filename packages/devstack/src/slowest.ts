import path from 'node:path';

/**
 * The slowest test files of a run, read from the reports jest and Playwright write (`--json`, the
 * json reporter), so every run ends by naming where its time went.
 */

export interface FileTime {
  file: string;
  ms: number;
}

interface JestReport {
  testResults?: Array<{ name: string; startTime?: number; endTime?: number }>;
}

/** Each jest file's wall time, from its start and end. */
export function jestFileTimes(report: JestReport, root: string): FileTime[] {
  return (report.testResults ?? [])
    .filter((r) => typeof r.startTime === 'number' && typeof r.endTime === 'number')
    .map((r) => ({ file: path.relative(root, r.name), ms: r.endTime! - r.startTime! }));
}

interface PlaywrightSuite {
  file?: string;
  specs?: Array<{ file?: string; tests?: Array<{ results?: Array<{ duration?: number }> }> }>;
  suites?: PlaywrightSuite[];
}

/** Each journey file's time: the durations of every result of every test in it, retries included. */
export function playwrightFileTimes(report: { suites?: PlaywrightSuite[] }): FileTime[] {
  const totals = new Map<string, number>();
  const walk = (suite: PlaywrightSuite, file: string | undefined) => {
    for (const spec of suite.specs ?? []) {
      const name = spec.file ?? file ?? '?';
      const ms = (spec.tests ?? []).flatMap((t) => t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      totals.set(name, (totals.get(name) ?? 0) + ms);
    }
    for (const inner of suite.suites ?? []) walk(inner, inner.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return [...totals].map(([file, ms]) => ({ file, ms }));
}

/** The `count` longest, longest first. */
export const slowest = (times: readonly FileTime[], count: number): FileTime[] =>
  [...times].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file)).slice(0, count);
