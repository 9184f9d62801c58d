import { z } from 'zod';
import { DEFAULT_PORTS } from '@portal/contracts';
import { baseConfigSchema, loadConfig, secretSetting } from '@portal/service-kit';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const authConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(DEFAULT_PORTS.auth),
  /** Needed to self-register as ADMIN on /register. */
  ADMIN_REGISTRATION_PASSWORD: secretSetting('ADMIN_REGISTRATION_PASSWORD', 8),
  /** How long a token and its session live: seconds, or a number with s, m, h or d. */
  TOKEN_TTL: z
    .string()
    .regex(/^\d+[smhd]?$/, 'a number of seconds, or a number with s, m, h or d (12h)')
    .default('12h'),
  /** Preset demo accounts (one per role and a guest); on by default outside production. */
  SEED_PRESETS: bool.optional(),
  /** Optional JSON array replacing the built-in preset accounts. */
  PRESET_ACCOUNTS: z.string().optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

export const loadAuthConfig = (env = process.env): AuthConfig => loadConfig(authConfigSchema, env);

export const presetsEnabled = (config: AuthConfig): boolean => config.SEED_PRESETS ?? config.NODE_ENV !== 'production';
