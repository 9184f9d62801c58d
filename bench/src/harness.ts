import autocannon from 'autocannon';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  budget?: string;
  /** The budget's number, in the figure's unit, so a miss can say by how much. */
  limit?: number;
  /** The budget is a floor (≥) rather than a ceiling (≤). */
  atLeast?: boolean;
  met?: boolean;
  note?: string;
}

/** How far a missed figure is from its budget, e.g. "by 1.3 KiB (16%)". */
export function missedBy(f: Figure): string {
  if (f.met !== false || f.limit === undefined) return '';
  const gap = f.atLeast ? f.limit - f.value : f.value - f.limit;
  const share = f.limit === 0 ? '' : ` (${Math.round((gap / f.limit) * 100)}%)`;
  return `by ${Number(gap.toFixed(2))} ${f.unit}${share}`;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export const QUICK = process.env.BENCH_QUICK === '1';

/**
 * The Chromium every browser part starts: `CHROMIUM_PATH`, as for the journeys, or chrome-launcher's
 * `CHROME_PATH`; Debian's by default. Nothing is downloaded.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** A figure to `digits` places, for the tables (tenths unless told). */
export const round = (n: number, digits = 1) => Number(n.toFixed(digits));

export async function load(
  url: string,
  {
    connections = 50,
    duration = QUICK ? 2 : 5,
    headers = {},
    overallRate,
  }: { connections?: number; duration?: number; headers?: Record<string, string>; overallRate?: number } = {},
): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration, headers, overallRate });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors /* its timeouts included */,
    non2xx: r.non2xx,
  };
}

/**
 * Measures several targets in interleaved rounds (A B A B ...) so that a slow moment of the
 * machine hits all of them alike, and reports each one's median over the rounds.
 */
export async function interleaved(
  targets: Record<string, () => Promise<LoadResult>>,
  rounds = QUICK ? 1 : 3,
): Promise<Record<string, LoadResult>> {
  const samples: Record<string, LoadResult[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(targets)) samples[name].push(await run());
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [
      name,
      {
        rps: median(list.map((s) => s.rps)),
        p50: median(list.map((s) => s.p50)),
        p99: median(list.map((s) => s.p99)),
        errors: list.reduce((sum, s) => sum + s.errors, 0),
        non2xx: list.reduce((sum, s) => sum + s.non2xx, 0),
      },
    ]),
  );
}

export function printFigures(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.name,
    `${f.value} ${f.unit}`,
    f.budget ?? '',
    f.met === undefined ? '' : f.met ? 'met' : 'MISSED',
    missedBy(f),
    f.note ?? '',
  ]);
  const head = ['figure', 'value', 'budget', 'verdict', 'missed by', 'note'];
  const widths = head.map((h, i) => Math.min(i === 0 ? 70 : 40, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  const missed = figures.filter((f) => f.met === false);
  const judged = figures.filter((f) => f.met !== undefined);
  console.log(
    `\n${judged.length - missed.length} of ${judged.length} budgets met.` +
      (missed.length ? ` Missed: ${missed.map((f) => `${f.name} ${missedBy(f)}`.trim()).join('; ')}.` : ''),
  );
}
