import { SERVICE_NAMES, type ServiceName } from '@portal/contracts';

export type ServiceState = 'ready' | 'not ready' | 'down';
export interface HealthReport {
  ok: boolean;
  services: Record<ServiceName, ServiceState>;
}

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
  targets: Record<ServiceName, string>,
  { intervalMs = 1000, timeoutMs = 1000, idleAfterMs = 60_000 } = {},
) {
  let last: HealthReport | null = null;
  let round: Promise<HealthReport> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let askedAt = 0;

  const poll = (): Promise<HealthReport> =>
    (round ??= (async () => {
      const states = await Promise.all(SERVICE_NAMES.map((name) => probe(targets[name], timeoutMs)));
      const services = Object.fromEntries(SERVICE_NAMES.map((name, i) => [name, states[i]])) as HealthReport['services'];
      last = { ok: states.every((s) => s === 'ready'), services };
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
