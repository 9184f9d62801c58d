import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

export const progressConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.progress),
});
export type PROGRESSConfig = z.infer<typeof progressConfigSchema>;
export const loadProgressConfig = (env = process.env) => loadConfig(progressConfigSchema, env);
