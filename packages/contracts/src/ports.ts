/** Default ports of the portal's processes (ARCHITECTURE.md). Each can be overridden by its env variable. */
export const DEFAULT_PORTS = {
  gateway: 8080,
  auth: 4001,
  content: 4002,
  progress: 4003,
  crm: 4004,
  audit: 4005,
} as const;
export type ServiceName = 'auth' | 'content' | 'progress' | 'crm' | 'audit';
export const SERVICE_NAMES: readonly ServiceName[] = ['auth', 'content', 'progress', 'crm', 'audit'];

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);
const isLoopbackUrl = (value: unknown): boolean => {
  // A peer given as its replicas' URLs is loopback when any of them is.
  if (Array.isArray(value)) return value.some(isLoopbackUrl);
  if (typeof value !== 'string') return false;
  try {
    const host = new URL(value).hostname;
    return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
  } catch {
    return false;
  }
};

/**
 * The peer URLs (`*_URL`: the store, Redis, other services) that a production process left to their
 * loopback defaults, each with a readable line. Inside a container or a pod, 127.0.0.1 is the
 * process itself, so a forgotten variable would fail only when the first request needs that peer;
 * production refuses it at start instead. A loopback URL set explicitly (a single-machine install,
 * as the launcher does) is the operator's choice and accepted.
 */
export function loopbackPeerDefaults(config: Record<string, unknown>, env: Record<string, string | undefined>): string[] {
  if (config.NODE_ENV !== 'production') return [];
  return Object.keys(config)
    .filter((key) => key.endsWith('_URL') && (env[key] === undefined || env[key] === '') && isLoopbackUrl(config[key]))
    .map((key) => `${key}: must be set in production (the default ${String(config[key])} is the container's own loopback)`);
}
