import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

export const auditConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.audit),
  AUDIT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
});
export type AuditConfig = z.infer<typeof auditConfigSchema>;
export const loadAuditConfig = (env = process.env) => loadConfig(auditConfigSchema, env);
