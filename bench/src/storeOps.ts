import { SERVICE_NAMES } from '@portal/contracts';
import type { Stack } from '@portal/devstack/stack';

/** A route's counts as the services' /metrics give them: requests answered and store commands sent for them. */
type RouteCounts = Map<string, { requests: number; operations: number }>;

const SAMPLE = /^(portal_http_request_duration_seconds_count|portal_store_operations_total)\{([^}]*)\} (\S+)$/;

/** Every replica's /metrics text, summed over the services. */
async function servicesMetrics(stack: Stack): Promise<string[]> {
  const urls = SERVICE_NAMES.flatMap((name) => stack.replicaPorts[name].map((port) => `http://127.0.0.1:${port}/metrics`));
  const texts = await Promise.all(
    urls.map((url) =>
      fetch(url).then(
        (r) => (r.ok ? r.text() : ''),
        () => '',
      ),
    ),
  );
  return texts.flatMap((t) => t.split('\n'));
}

const REDIS_SAMPLE = /^portal_redis_command_duration_seconds_count\{[^}]*\} (\S+)$/;

/** The commands every replica sent to Redis on its request connection (the stamps, the kept answers' versions, the claims), in all. */
export async function redisCommands(stack: Stack): Promise<number> {
  let total = 0;
  for (const line of await servicesMetrics(stack)) {
    const match = REDIS_SAMPLE.exec(line);
    if (match) total += Number(match[1]);
  }
  return total;
}

/** Every replica's requests and store commands by `<METHOD> <route>`, summed over the services. */
export async function storeCounts(stack: Stack): Promise<RouteCounts> {
  const counts: RouteCounts = new Map();
  for (const line of await servicesMetrics(stack)) {
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const key = `${labels.method} ${labels.route}`;
    const entry = counts.get(key) ?? { requests: 0, operations: 0 };
    if (match[1] === 'portal_store_operations_total') entry.operations += Number(match[3]);
    else entry.requests += Number(match[3]);
    counts.set(key, entry);
  }
  return counts;
}

/**
 * Store operations per request of each route between two readings, most first: what a figure's
 * requests cost the store (the driver's command monitoring, counted under each request). Routes with
 * fewer than `minRequests` in the window are left out.
 */
export function storeOpsSplit(before: RouteCounts, after: RouteCounts, minRequests = 5): string {
  const rows = [...after]
    .map(([route, now]) => {
      const then = before.get(route) ?? { requests: 0, operations: 0 };
      const requests = now.requests - then.requests;
      return { route, requests, perRequest: requests ? (now.operations - then.operations) / requests : 0 };
    })
    .filter((r) => r.requests >= minRequests)
    .sort((a, b) => b.perRequest - a.perRequest);
  if (!rows.length) return 'store operations per request: no route answered enough requests';
  const total = rows.reduce((sum, r) => sum + r.perRequest * r.requests, 0) / rows.reduce((sum, r) => sum + r.requests, 0);
  return `store operations per request (mean ${total.toFixed(2)}): ${rows
    .slice(0, 10)
    .map((r) => `${r.route} ${r.perRequest.toFixed(2)} ×${r.requests}`)
    .join(', ')}`;
}
