import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

export const crmConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.crm),
});
export type CRMConfig = z.infer<typeof crmConfigSchema>;
export const loadCrmConfig = (env = process.env) => loadConfig(crmConfigSchema, env);
