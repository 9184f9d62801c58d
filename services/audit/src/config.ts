import { parseExpression } from 'cron-parser';
import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

const isCron = (pattern: string): boolean => {
  try {
    parseExpression(pattern, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
};

export const auditConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.audit),
  AUDIT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Audit records are kept this many days (3 years by default), then purged. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(1095),
  /** When the purge runs: a cron pattern in UTC (nightly at 03:30 by default). */
  AUDIT_RETENTION_CRON: z
    .string()
    .trim()
    .refine(isCron, { message: 'cron pattern expected, e.g. 30 3 * * *' })
    .default('30 3 * * *'),
  /** Records removed per store round trip of the purge. */
  AUDIT_RETENTION_BATCH: z.coerce.number().int().min(1).max(10_000).default(1000),
});
export type AuditConfig = z.infer<typeof auditConfigSchema>;
export const loadAuditConfig = (env = process.env) => loadConfig(auditConfigSchema, env);
