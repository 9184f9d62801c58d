import { z } from 'zod';
import { DEFAULT_PORTS, loopbackPeerDefaults, parseMediaOrigins, scormOriginSchema } from '@portal/contracts';
import path from 'node:path';
import { upstreamListSchema } from '@portal/service-kit';

/** A service's URL, or its replicas' URLs separated by commas (the gateway balances round robin). */
const url = (port: number) => upstreamListSchema(`http://127.0.0.1:${port}`);

/**
 * Which proxies in front of the gateway are believed about the client's address and scheme
 * (X-Forwarded-For, X-Forwarded-Proto, X-Forwarded-Host): a hop count (`1` behind one load balancer),
 * or a comma-separated list of addresses and ranges (`10.0.0.0/8,loopback`); `false` believes none.
 */
const trustProxy = z
  .string()
  // The gateway is the edge unless an operator says what stands in front of it.
  .default('false')
  .transform((raw, ctx): number | string[] | false => {
    const value = raw.trim();
    if (value === 'false' || value === '0' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const ranges = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
    for (const range of ranges) {
      if (!named.has(range) && !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(range))
        ctx.addIssue({ code: 'custom', message: `not a hop count, an address or a range: ${range}` });
    }
    return ranges;
  });

export const gatewayConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.gateway),
  /** Where Prometheus scrapes /metrics: a port of its own, never the public one. Defaults to PORT + 1000. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** One log line per request (`off` leaves only the metrics, for a benchmark). */
  ACCESS_LOG: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  HOST: z.string().default('127.0.0.1'),
  TRUST_PROXY: trustProxy,
  AUTH_URL: url(DEFAULT_PORTS.auth),
  CONTENT_URL: url(DEFAULT_PORTS.content),
  PROGRESS_URL: url(DEFAULT_PORTS.progress),
  CRM_URL: url(DEFAULT_PORTS.crm),
  AUDIT_URL: url(DEFAULT_PORTS.audit),
  /** Where the built front ends are: <STATIC_ROOT>/shell/dist and <STATIC_ROOT>/mf-*\/dist. */
  STATIC_ROOT: z.string().default(path.resolve(__dirname, '../..')),
  /**
   * Optional JSON object: front end folder (shell, mf-courses, ...) → URL of the static container
   * that serves its build. Without it the gateway serves <STATIC_ROOT>/<folder>/dist itself.
   */
  STATIC_UPSTREAMS: z.string().optional(),
  /** Optional JSON object replacing the runtime manifest of remote URLs (name → mf-manifest.json URL). */
  REMOTES_JSON: z.string().optional(),
  /**
   * A JSON file of remote URLs (name → mf-manifest.json URL) laid over those defaults, read again
   * whenever it changes: a remote is repointed without a gateway restart. Default
   * <STATIC_ROOT>/remotes.json; a missing file adds nothing.
   */
  REMOTES_FILE: z.string().optional(),
  /**
   * https origins lessons may play video and audio from (and show video posters from), comma
   * separated: added to the Content-Security-Policy's media-src and img-src. Anything that is not
   * an https origin stops the gateway with the entry named.
   */
  MEDIA_ORIGINS: z
    .string()
    .default('')
    .transform((raw, ctx) => {
      const { origins, invalid } = parseMediaOrigins(raw);
      for (const entry of invalid)
        ctx.addIssue({ code: 'custom', message: `not an https origin (https://host[:port], no path): ${entry}` });
      return origins;
    }),
  /** Extra origins allowed to call the API from a browser, comma separated. */
  ALLOWED_ORIGINS: z.string().default(''),
  /**
   * The origin SCORM packages are served from: this gateway under a name of its own
   * (`https://scorm.learn.example.ru`, pointed at the same gateway). On that host only package files
   * (/scorm/…) are answered, and the portal's pages may frame it. Not set: packages play in an opaque
   * sandbox on the portal's own origin (packages whose frames script each other do not play). The
   * content service reads the same variable.
   */
  SCORM_ORIGIN: scormOriginSchema,
  JSON_BODY_LIMIT: z.coerce
    .number()
    .int()
    .default(1024 * 1024),
  UPLOAD_BODY_LIMIT: z.coerce
    .number()
    .int()
    .default(50 * 1024 * 1024),
  /**
   * Requests in flight toward one service; past it the gateway answers 503 with Retry-After at
   * once. Sized for a 2-core machine: each service runs at most 20 store queries at a time.
   */
  UPSTREAM_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(64),
  /**
   * Requests in flight through the whole gateway. The quiz path (an attempt's start and submit, a
   * SCORM commit) may use all of it, whatever service it goes to; every other request is refused
   * once three quarters of it are taken. Unset: four services' worth (4 × UPSTREAM_MAX_IN_FLIGHT).
   */
  GATEWAY_MAX_IN_FLIGHT: z.coerce.number().int().min(1).optional(),
  /** How long a service may take to answer before the gateway gives up with 504. */
  PROXY_TIMEOUT_MS: z.coerce.number().int().default(15_000),
  /** Shared with the services' /internal routes (the dashboard's stats); no default, as theirs. */
  INTERNAL_TOKEN: z
    .string({ error: 'INTERNAL_TOKEN is not set (npm start generates it into .data/secrets.json; production must set its own)' })
    .min(16),
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

/** Parses the environment; production also refuses upstream URLs left to their loopback defaults. */
export function parseGatewayConfig(
  env: Record<string, string | undefined>,
): { ok: true; config: GatewayConfig } | { ok: false; issues: string[] } {
  const parsed = gatewayConfigSchema.safeParse(env);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  const issues = loopbackPeerDefaults(parsed.data, env);
  return issues.length ? { ok: false, issues } : { ok: true, config: parsed.data };
}
