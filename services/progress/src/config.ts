import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig, upstreamListSchema } from '@portal/service-kit';

export const progressConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.progress),
  /**
   * The content service (one URL or its replicas' URLs, comma separated): courses (read with the
   * learner's own token) and quizzes (internal route).
   */
  CONTENT_URL: upstreamListSchema(`http://127.0.0.1:${DEFAULT_PORTS.content}`),
  /** How long a call to the content service may take before the request gives up with a 503. */
  CONTENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /**
   * When the reminders run (cron, UTC). Hourly: what a day asks for is said at its first run, and the
   * unique keys make the other runs of the day say nothing again.
   */
  REMINDERS_CRON: z
    .string()
    .trim()
    .regex(/^(\S+\s+){4,5}\S+$/, 'a cron pattern of 5 or 6 fields, e.g. "5 * * * *"')
    .default('5 * * * *'),
  /**
   * Test stacks only (the Playwright journeys): `on` adds POST /internal/clock, which moves this
   * service's clock. Refused at start in production, where the clock never moves.
   */
  CLOCK_SEAM: z.enum(['on', 'off']).default('off'),
  /** Candidates «по ссылке» are deleted this many days after they started (account, consent, attempts). */
  CANDIDATE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** How often the sweep of expired candidates runs (one scheduler for all replicas). */
  CANDIDATE_RETENTION_EVERY_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /** Requests a minute per client address to the public link routes (`/api/candidate-links/public/*`). */
  CANDIDATE_LINK_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(30),
  /** The organization a certificate names as its issuer («Выдан: …»); blank, SITE_NAME. */
  CERTIFICATE_ISSUER: z
    .string()
    .optional()
    .transform((issuer) => issuer?.trim() || undefined),
  /** Who signs a certificate, under its signature line (a position and a name). */
  CERTIFICATE_SIGNATORY: z
    .string()
    .optional()
    .transform((signatory) => signatory?.trim() || 'Руководитель программы обучения'),
  /** Look-ups a minute per client address of the public certificate check (`/api/certificates/verify/*`). */
  CERTIFICATE_VERIFY_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(20),
});
export type ProgressConfig = z.infer<typeof progressConfigSchema>;
export const loadProgressConfig = (env = process.env) => loadConfig(progressConfigSchema, env);
