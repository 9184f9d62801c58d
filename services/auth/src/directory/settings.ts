import { z } from 'zod';
import { ROLES, type DirectoryConfig, type Role } from '@portal/contracts';
import type { AuthConfig } from '../config';

const DURATION = /^(\d+)\s*([smhd]?)$/;
const durationMs = (text: string): number => {
  const [, n, unit] = DURATION.exec(text.trim())!;
  return Number(n) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[unit as '' | 's' | 'm' | 'h' | 'd'] * 1000;
};

const groupRoles = z
  .string()
  .default('{}')
  .transform((text, ctx) => {
    try {
      const parsed = z.record(z.string().min(1), z.enum(ROLES)).parse(JSON.parse(text));
      return Object.entries(parsed).map(([group, role]) => ({ group, role }));
    } catch {
      ctx.addIssue({ code: 'custom', message: `a JSON object of group DN → role (${ROLES.join(', ')})` });
      return z.NEVER;
    }
  });

/**
 * The directory sync's settings (all optional: the sync is off while LDAP_URL is unset). Spread into
 * the auth service's config schema. LDAP_BIND_PASSWORD is a secret: never logged, answered or audited.
 */
export const directorySettings = {
  LDAP_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^ldaps?:\/\/[^/\s]+\/?$/, 'ldap://host[:port] or ldaps://host[:port]')
      .optional(),
  ),
  LDAP_BIND_DN: z.string().default(''),
  LDAP_BIND_PASSWORD: z.string().default(''),
  LDAP_BASE_DN: z.string().default(''),
  /** Who is in scope. AD: (&(objectCategory=person)(objectClass=user)). */
  LDAP_FILTER: z.string().default('(objectClass=person)'),
  /** Entries a page asks for; AD answers at most 1,000 (MaxPageSize). */
  LDAP_PAGE_SIZE: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** The stable id a person is linked by: entryUUID (OpenLDAP), objectGUID (AD, read as bytes). */
  LDAP_ATTR_ID: z.string().default('entryUUID'),
  LDAP_ATTR_LAST_NAME: z.string().default('sn'),
  LDAP_ATTR_FIRST_NAME: z.string().default('givenName'),
  LDAP_ATTR_MIDDLE_NAME: z.string().default('middleName'),
  LDAP_ATTR_EMAIL: z.string().default('mail'),
  LDAP_ATTR_DEPARTMENT: z.string().default('department'),
  LDAP_ATTR_POSITION: z.string().default('title'),
  LDAP_ATTR_GROUPS: z.string().default('memberOf'),
  /** A number whose bit 2 (value 2) marks a disabled account, as AD's userAccountControl. */
  LDAP_ATTR_DISABLED: z.string().default('userAccountControl'),
  /** JSON: group DN → portal role. Only a group named here for ADMIN grants ADMIN. */
  LDAP_GROUP_ROLES: groupRoles,
  LDAP_DEFAULT_ROLE: z.enum(ROLES).default('CLIENT'),
  LDAP_GRACE_DAYS: z.coerce.number().min(0).default(30),
  /** How often the applied sync runs: seconds, or a number with s, m, h or d. */
  LDAP_SYNC_EVERY: z.string().regex(DURATION, 'a number of seconds, or a number with s, m, h or d (1h)').default('1h'),
  /** How long one LDAP operation (a bind, a page) may take, ms. */
  LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
};

export type DirectoryEnv = Pick<AuthConfig, keyof typeof directorySettings>;

export interface DirectorySettings {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  filter: string;
  pageSize: number;
  attributes: DirectoryConfig['attributes'];
  groupRoles: Array<{ group: string; role: Role }>;
  defaultRole: Role;
  graceMs: number;
  graceDays: number;
  everyMs: number;
  timeoutMs: number;
}

/** The settings of a configured sync, or null when LDAP_URL is unset. */
export function directorySettingsOf(env: DirectoryEnv): DirectorySettings | null {
  if (!env.LDAP_URL) return null;
  return {
    url: env.LDAP_URL,
    bindDn: env.LDAP_BIND_DN,
    bindPassword: env.LDAP_BIND_PASSWORD,
    baseDn: env.LDAP_BASE_DN,
    filter: env.LDAP_FILTER,
    pageSize: env.LDAP_PAGE_SIZE,
    attributes: {
      id: env.LDAP_ATTR_ID,
      lastName: env.LDAP_ATTR_LAST_NAME,
      firstName: env.LDAP_ATTR_FIRST_NAME,
      middleName: env.LDAP_ATTR_MIDDLE_NAME,
      email: env.LDAP_ATTR_EMAIL,
      department: env.LDAP_ATTR_DEPARTMENT,
      position: env.LDAP_ATTR_POSITION,
      groups: env.LDAP_ATTR_GROUPS,
      disabled: env.LDAP_ATTR_DISABLED,
    },
    groupRoles: env.LDAP_GROUP_ROLES,
    defaultRole: env.LDAP_DEFAULT_ROLE,
    graceDays: env.LDAP_GRACE_DAYS,
    graceMs: env.LDAP_GRACE_DAYS * 86_400_000,
    everyMs: durationMs(env.LDAP_SYNC_EVERY),
    timeoutMs: env.LDAP_TIMEOUT_MS,
  };
}

/** What the screen shows: everything but the password, and whether it is set. */
export function presentDirectoryConfig(env: DirectoryEnv): DirectoryConfig {
  const s = directorySettingsOf({ ...env, LDAP_URL: env.LDAP_URL ?? 'ldap://-' })!;
  return {
    enabled: !!env.LDAP_URL,
    url: env.LDAP_URL ?? '',
    bindDn: s.bindDn,
    bindPasswordSet: s.bindPassword.length > 0,
    baseDn: s.baseDn,
    filter: s.filter,
    pageSize: s.pageSize,
    attributes: s.attributes,
    groupRoles: s.groupRoles,
    defaultRole: s.defaultRole,
    graceDays: s.graceDays,
    everyMinutes: Math.round(s.everyMs / 60_000),
  };
}
