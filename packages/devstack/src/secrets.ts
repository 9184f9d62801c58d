import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from './util';

/** The secrets every service needs; none is fixed in the repository. */
export const SECRET_NAMES = ['JWT_SECRET', 'INTERNAL_TOKEN', 'ADMIN_REGISTRATION_PASSWORD'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Record<SecretName, string>;

/** Where the launcher keeps the secrets of this checkout (`.data` is ignored by git). */
export const SECRETS_FILE = path.join(DATA_DIR, 'secrets.json');

const generate = (): string => randomBytes(32).toString('base64url');

const readSecrets = (file: string): Partial<Secrets> => {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return Object.fromEntries(SECRET_NAMES.filter((k) => typeof parsed[k] === 'string' && parsed[k]).map((k) => [k, parsed[k]]));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file} cannot be read (${(err as Error).message}): fix or delete it, and new secrets are made`);
  }
};

/**
 * The development secrets of this checkout: generated on the first start into `file` (readable by
 * its owner only) and the same on every later start, so tokens survive a restart. Two starts at once
 * agree: the file is written only when missing (`wx`), and a loser of that race reads the winner's.
 */
export function ensureSecrets(file = SECRETS_FILE): Secrets {
  const known = readSecrets(file);
  if (SECRET_NAMES.every((k) => known[k])) return known as Secrets;
  const secrets = Object.fromEntries(SECRET_NAMES.map((k) => [k, known[k] ?? generate()])) as Secrets;
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // A file missing only some names (an older launcher) is completed in place.
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: Object.keys(known).length ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return ensureSecrets(file);
    throw err;
  }
  return secrets;
}

/**
 * The secrets the services get: each one set in the environment wins (production, compose, CI
 * with its own), the rest come from the file.
 */
export function secretsEnv(env: NodeJS.ProcessEnv = process.env, file = SECRETS_FILE): Secrets {
  const given = Object.fromEntries(SECRET_NAMES.filter((k) => env[k]).map((k) => [k, env[k] as string]));
  if (SECRET_NAMES.every((k) => given[k])) return given as Secrets;
  return { ...ensureSecrets(file), ...given };
}
