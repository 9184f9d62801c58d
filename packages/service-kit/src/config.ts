import { z } from 'zod';
import { upstreamListSchema } from './upstreams';
import { loopbackPeerDefaults } from '@portal/contracts';

const MONGO_CONNECTION_STRING = /^mongodb(\+srv)?:\/\/[^/?#\s]+(\/[^?#\s]*)?(\?\S*)?$/;

/** A secret has no default: the launcher generates one per checkout (.data/secrets.json), production sets its own. */
export const secretSetting = (name: string, min: number) =>
  z
    .string({ error: `${name} is not set (npm start generates it into .data/secrets.json; production must set its own)` })
    .min(min, `${name} must be at least ${min} characters`);

/** Settings every service shares. Safe development defaults, and no secret among them. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Where to listen: loopback on a developer machine, 0.0.0.0 inside a container. */
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * A MongoDB connection string. Not z.url(): a replica set lists its members,
   * mongodb://a:27017,b:27017/?replicaSet=rs0, which a WHATWG URL parser refuses.
   */
  MONGO_URL: z
    .string()
    .regex(
      MONGO_CONNECTION_STRING,
      'a MongoDB connection string: mongodb://host[:port][,host[:port]…][/?options] or mongodb+srv://',
    )
    .default('mongodb://127.0.0.1:27017'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  JWT_SECRET: secretSetting('JWT_SECRET', 32),
  INTERNAL_TOKEN: secretSetting('INTERNAL_TOKEN', 16),
  /** The auth service: one URL, or its replicas' URLs separated by commas (balanced round robin). */
  AUTH_URL: upstreamListSchema('http://127.0.0.1:4001'),
  /** Prefix for database names, so tests and parallel stacks never share data. */
  DB_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]*$/)
    .default('portal_'),
  /** BullMQ key prefix; tests use their own so they never meet a running portal's queue. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w-]+$/)
    .default('bull'),
  /**
   * How long a stopping process may take: in-flight requests drain for up to 10 s (or this, if
   * shorter), then connections are closed; a process still there at this deadline exits 1.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Outgoing mail (smtp://host:port, smtps://user:pass@host); unset, no mail is sent (see mail.ts). */
  SMTP_URL: z
    .string()
    .regex(/^(smtps?:\/\/\S+)?$/, 'an SMTP URL: smtp://host:port or smtps://user:password@host:port')
    .optional()
    .transform((url) => url || undefined),
  /** The portal's name as people read it: the sender's name of its mails, the issuer of its documents. */
  SITE_NAME: z
    .string()
    .optional()
    .transform((name) => name?.trim() || 'Учебный портал'),
  /**
   * The sender's address of mails; their sender's name is SITE_NAME (of `Name <address>`, only the
   * address is used). Blank (as compose passes an unset one) is the default.
   */
  MAIL_FROM: z
    .string()
    .optional()
    .transform((from) => from?.trim() || 'noreply@portal.local'),
  /** The portal's address as people open it: the links in mails lead there (required with SMTP_URL in production). */
  PUBLIC_URL: z.preprocess((url) => (url === '' ? undefined : url), z.string().url().optional()),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

/**
 * Parses the environment against a schema. A bad or missing value stops the process with a
 * readable list, and production refuses peer URLs left to their loopback defaults.
 */
export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const issues = loopbackPeerDefaults(parsed.data as Record<string, unknown>, env);
  if (issues.length) throw new Error(`Invalid configuration:\n${issues.map((line) => `  - ${line}`).join('\n')}`);
  return parsed.data;
}
