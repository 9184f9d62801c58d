import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

export const contentConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.content),
});
export type CONTENTConfig = z.infer<typeof contentConfigSchema>;
export const loadContentConfig = (env = process.env) => loadConfig(contentConfigSchema, env);
