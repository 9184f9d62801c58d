import { monitorEventLoopDelay } from 'node:perf_hooks';

/** A histogram's cumulative counts by upper bound (seconds; the last is +Inf), as /metrics gives them. */
export type Buckets = Map<number, number>;

const BUCKET = /^portal_http_request_duration_seconds_bucket\{([^}]*)\} (\S+)$/;

/**
 * The request-duration histogram of one route, summed over the processes at `urls` (their /metrics):
 * the requests of `method` whose route label is `route` and whose status is `status`.
 */
export async function routeBuckets(urls: string[], method: string, route: string, status = '200'): Promise<Buckets> {
  const buckets: Buckets = new Map();
  const texts = await Promise.all(urls.map((url) => fetch(url).then((r) => (r.ok ? r.text() : ''))));
  for (const line of texts.flatMap((t) => t.split('\n'))) {
    const match = BUCKET.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (labels.method !== method || labels.route !== route || labels.status !== status) continue;
    const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(match[2]));
  }
  return buckets;
}

/** The requests a histogram gained between two readings, by bucket. */
export const bucketsBetween = (before: Buckets, after: Buckets): Buckets =>
  new Map([...after].map(([le, count]) => [le, count - (before.get(le) ?? 0)]));

/**
 * The share of a window's requests answered within `seconds` (a bucket's bound), and the quantile `q`
 * interpolated within its bucket as Prometheus's histogram_quantile does (in ms; Infinity past the
 * last finite bound).
 */
export function windowLatency(
  buckets: Buckets,
  seconds: number,
  q = 0.95,
): { count: number; within: number; quantileMs: number } {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const count = buckets.get(Infinity) ?? 0;
  if (!count) return { count: 0, within: 0, quantileMs: NaN };
  const rank = q * count;
  let quantileMs = Infinity;
  let lower = 0;
  let below = 0;
  for (const le of bounds) {
    const cumulative = buckets.get(le)!;
    if (cumulative >= rank) {
      quantileMs = le === Infinity ? Infinity : (lower + ((le - lower) * (rank - below)) / (cumulative - below || 1)) * 1000;
      break;
    }
    lower = le;
    below = cumulative;
  }
  return { count, within: (buckets.get(seconds) ?? 0) / count, quantileMs };
}

/**
 * How late this process's own timers ran while `work` did: the bench's client shares the host's two
 * cores with the portal, so a time it measures includes its own waits for the CPU. p50/p99/max in ms.
 */
export async function withLoopDelay<T>(work: () => Promise<T>): Promise<[T, { p50: number; p99: number; max: number }]> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const result = await work();
    return [result, { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 }];
  } finally {
    delay.disable();
  }
}
