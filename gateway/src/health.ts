import { SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import type { Upstreams } from '@portal/service-kit';

export type ServiceState = 'ready' | 'not ready' | 'down';
export interface HealthReport {
  ok: boolean;
  /** A service is ready while at least one of its replicas is. */
  services: Record<ServiceName, ServiceState>;
  /** Each replica's own state, by URL, for services that run more than one. */
  replicas: Partial<Record<ServiceName, Record<string, ServiceState>>>;
}

const RANK: Record<ServiceState, number> = { ready: 2, 'not ready': 1, down: 0 };
const best = (states: ServiceState[]): ServiceState => states.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'down');

const probe = async (url: string, timeoutMs: number): Promise<ServiceState> => {
  try {
    const answer = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    await answer.body?.cancel();
    return answer.ok ? 'ready' : 'not ready';
  } catch {
    return 'down';
  }
};

/**
 * The services' readiness, asked in the background about once a second and served from the last
 * round, so /api/health answers at once however loaded the services are. It polls only while
 * someone asks (a load balancer does, every few seconds), so an idle gateway or a test sends nothing.
 */
export function readinessMonitor(
  targets: Record<ServiceName, Upstreams>,
  { intervalMs = 1000, timeoutMs = 1000, idleAfterMs = 60_000 } = {},
) {
  let last: HealthReport | null = null;
  let round: Promise<HealthReport> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let askedAt = 0;

  const poll = (): Promise<HealthReport> =>
    (round ??= (async () => {
      const perReplica = await Promise.all(
        SERVICE_NAMES.map((name) => Promise.all(targets[name].urls.map((url) => probe(url, timeoutMs)))),
      );
      const states = perReplica.map(best);
      const services = Object.fromEntries(SERVICE_NAMES.map((name, i) => [name, states[i]])) as HealthReport['services'];
      const replicas: HealthReport['replicas'] = {};
      SERVICE_NAMES.forEach((name, i) => {
        const urls = targets[name].urls;
        if (urls.length > 1) replicas[name] = Object.fromEntries(urls.map((url, j) => [url, perReplica[i][j]]));
      });
      last = { ok: states.every((s) => s === 'ready'), services, replicas };
      round = null;
      schedule();
      return last;
    })());

  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (Date.now() - askedAt > idleAfterMs) return;
    timer = setTimeout(() => void poll(), intervalMs);
    timer.unref();
  };

  return {
    /** The last round's report; the first call (or the first after an idle spell) waits for a fresh round. */
    async report(): Promise<HealthReport> {
      const idle = Date.now() - askedAt > idleAfterMs;
      askedAt = Date.now();
      if (!last) return poll();
      if (!idle) return last;
      // After an idle spell the last round may be old: a fresh one if it comes quickly, else the last.
      const stale = last;
      return Promise.race([poll(), new Promise<HealthReport>((resolve) => setTimeout(() => resolve(stale), 100).unref())]);
    },
    stop() {
      askedAt = 0;
      clearTimeout(timer);
    },
  };
}
