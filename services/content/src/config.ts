import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

/** services/content/{src,dist} → the repository root; the uploads live in its git-ignored .data folder. */
const DEFAULT_UPLOAD_DIR = path.resolve(__dirname, '../../../.data/uploads');

export const contentConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.content),
  /** Uploaded files are kept here, outside the database (a volume in containers). */
  UPLOAD_DIR: z.string().min(1).default(DEFAULT_UPLOAD_DIR),
  /** Per file; the gateway's UPLOAD_BODY_LIMIT bounds the whole request. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
});
export type ContentConfig = z.infer<typeof contentConfigSchema>;
export const loadContentConfig = (env = process.env): ContentConfig => loadConfig(contentConfigSchema, env);
