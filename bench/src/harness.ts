import autocannon from 'autocannon';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  budget?: string;
  met?: boolean;
  note?: string;
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

export async function load(
  url: string,
  {
    connections = 50,
    duration = 5,
    headers = {},
    overallRate,
  }: { connections?: number; duration?: number; headers?: Record<string, string>; overallRate?: number } = {},
): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration, headers, overallRate });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/**
 * Measures several targets in interleaved rounds (A B A B ...) so that a slow moment of the
 * machine hits all of them alike, and reports each one's median over the rounds.
 */
export async function interleaved(
  targets: Record<string, () => Promise<LoadResult>>,
  rounds = 3,
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
  for (const f of figures) {
    const verdict = f.met === undefined ? '' : f.met ? 'met' : 'MISSED';
    console.log(
      `${f.name.padEnd(64)} ${String(f.value).padStart(10)} ${f.unit.padEnd(8)} ${f.budget ? `budget ${f.budget}` : ''} ${verdict}${f.note ? `  (${f.note})` : ''}`,
    );
  }
}
