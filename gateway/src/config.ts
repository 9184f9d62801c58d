import { z } from 'zod';
import { DEFAULT_PORTS, parseMediaOrigins } from '@portal/contracts';
import path from 'node:path';

const url = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

export const gatewayConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.gateway),
  HOST: z.string().default('127.0.0.1'),
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
  /** How long a service may take to answer before the gateway gives up with 504. */
  PROXY_TIMEOUT_MS: z.coerce.number().int().default(15_000),
  /** Shared with the services' /internal routes (the dashboard's stats); no default, as theirs. */
  INTERNAL_TOKEN: z
    .string({ error: 'INTERNAL_TOKEN is not set (npm start generates it into .data/secrets.json; production must set its own)' })
    .min(16),
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
