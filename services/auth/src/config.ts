import { z } from 'zod';
import { DEFAULT_PORTS, LOCAL_LOGIN_MODES, ROLES, type Role } from '@portal/contracts';
import { baseConfigSchema, loadConfig, secretSetting } from '@portal/service-kit';
import { directorySettings } from './directory/settings';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const blankIsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);

/**
 * The corporate sign-in (OpenID Connect, docs/decisions/corporate-sign-in): off while OIDC_ISSUER is
 * unset. The claim settings name the claim of the ID token (or UserInfo) each field is read from.
 */
const oidcSettings = {
  OIDC_ISSUER: blankIsUnset(
    z.string().url('a URL: the issuer of the provider, e.g. https://sso.example.ru/realms/staff').optional(),
  ),
  OIDC_CLIENT_ID: blankIsUnset(z.string().min(1).optional()),
  OIDC_CLIENT_SECRET: blankIsUnset(secretSetting('OIDC_CLIENT_SECRET', 1).optional()),
  OIDC_SCOPES: z
    .string()
    .optional()
    .transform((scopes) => scopes?.trim() || 'openid email profile'),
  /** The provider's name on the button: «Войти через …». */
  OIDC_DISPLAY_NAME: z
    .string()
    .optional()
    .transform((name) => name?.trim() || 'корпоративный аккаунт'),
  OIDC_CLAIM_MIDDLE_NAME: z.string().min(1).default('middle_name'),
  OIDC_CLAIM_DEPARTMENT: z.string().min(1).default('department'),
  OIDC_CLAIM_POSITION: z.string().min(1).default('title'),
  OIDC_CLAIM_GROUPS: z.string().min(1).default('groups'),
  /** JSON object: group → portal role. ADMIN comes only from a group named for it here. */
  OIDC_GROUP_ROLES: z
    .string()
    .optional()
    .transform((json, ctx): Record<string, Role> => {
      if (!json?.trim()) return {};
      try {
        return z.record(z.string(), z.enum(ROLES)).parse(JSON.parse(json));
      } catch {
        ctx.addIssue({ code: 'custom', message: `a JSON object of group → role (${ROLES.join(', ')})` });
        return z.NEVER;
      }
    }),
  /** Where the provider sends the browser back; by default PUBLIC_URL + /api/auth/oidc/callback. */
  OIDC_REDIRECT_URL: blankIsUnset(z.string().url().optional()),
  /** Who may sign in with a portal password: all, admins (the break-glass ADMIN only) or none. */
  LOCAL_LOGIN: z.enum(LOCAL_LOGIN_MODES).default('all'),
};

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
  /** The LDAP / Active Directory sync (directory/settings.ts): off while LDAP_URL is unset. */
  ...directorySettings,
  ...oidcSettings,
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

export const loadAuthConfig = (env = process.env): AuthConfig => loadConfig(authConfigSchema, env);

export const presetsEnabled = (config: AuthConfig): boolean => config.SEED_PRESETS ?? config.NODE_ENV !== 'production';

/** The corporate sign-in is on when the issuer and the client are configured. */
export const oidcEnabled = (config: AuthConfig): boolean => !!config.OIDC_ISSUER && !!config.OIDC_CLIENT_ID;
