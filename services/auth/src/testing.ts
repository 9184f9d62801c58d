import { hash } from '@node-rs/argon2';
import { ensureIndexes } from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { directorySyncEnv } from '@portal/devstack/ldap';
import { CONSENT_DOCUMENT, type AuthResponse, type DirectoryRun, type DirectoryRunMode, type Role } from '@portal/contracts';
import { authRouters, localLookup } from './app';
import { authConfigSchema, type AuthConfig } from './config';
import { consentModel } from './models/consent';
import { passwordResetModel, sessionModel } from './models/session';
import { userModel } from './models/user';

export const ADMIN_PASSWORD = 'test-admin-registration-password';

/** A real auth service for tests, with its own database. */
export async function startAuth(env: Record<string, string> = {}): Promise<TestService<AuthConfig>> {
  const service = await startTestService<AuthConfig>('auth', authRouters, {
    schema: authConfigSchema,
    lookup: localLookup,
    env: { ADMIN_REGISTRATION_PASSWORD: ADMIN_PASSWORD, SEED_PRESETS: 'false', ...env },
  });
  await ensureIndexes([userModel, sessionModel, passwordResetModel].map((m) => m(service.ctx.store)));
  return service;
}

let counter = 0;
const TEST_PASSWORD = 'Kursy-Portal-42';
let passwordHash: Promise<string> | undefined;
/**
 * The hash of every test person's password, made once per process, with argon2id's lowest cost (1 MiB,
 * one pass). The login route verifies a hash with the parameters written in it, so a test person's
 * sign-in takes half a millisecond of a core instead of 15 ms; whoever registers or sets a password in
 * a test gets the service's own cost (passwords.ts).
 */
export const testPasswordHash = () => (passwordHash ??= hash(TEST_PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 }));
export const uniqueEmail = (tag = 'user') => `${tag}.${Date.now().toString(36)}.${counter++}@example.test`;

/**
 * Creates a user with any role directly in the store (as an administrator's edit would) and signs
 * in through the real login route. They have given the consent to the processing of personal data,
 * as anyone who studies must (`{ consent: false }` leaves it to the test).
 */
export async function userWithRole(
  auth: TestService<AuthConfig> | TestService,
  role: Role,
  fullName = 'Иван Петров',
  { consent = true }: { consent?: boolean } = {},
): Promise<AuthResponse> {
  const email = uniqueEmail(role.toLowerCase());
  const password = TEST_PASSWORD;
  const user = await userModel(auth.ctx.store).create({ email, fullName, role, passwordHash: await testPasswordHash() });
  if (consent)
    await consentModel(auth.ctx.store).create({
      userId: String(user._id),
      version: CONSENT_DOCUMENT.version,
      acceptedAt: new Date(),
      address: '127.0.0.1',
    });
  const { status, body } = await api<AuthResponse>(auth.url, 'POST', '/api/auth/login', { body: { email, password } });
  if (status !== 200) throw new Error(`login failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * A directory edit as the screens send it: based on the person's version as it is stored now (the
 * version the form would have read), unless the body names its own.
 */
export async function patchUser(auth: TestService<AuthConfig>, token: string, id: string, body: Record<string, unknown>) {
  const stored = isValidObjectId(id) ? await userModel(auth.ctx.store).findById(id, { version: 1 }).lean() : null;
  return api(auth.url, 'PATCH', `/api/users/${id}`, { token, body: { version: stored?.version ?? 0, ...body } });
}

/* The directory sync (LDAP): the settings of a seeded test directory, and waiting for a run. */

/** The auth service's LDAP settings for a seeded test directory (`url` may be a relay in front of it). */
export const ldapEnv = directorySyncEnv;

const FINISHED = new Set(['done', 'failed']);

/** Polls a run until it is done or failed (a run of 1,200 people takes a few seconds). */
export async function waitForRun(
  auth: TestService<AuthConfig>,
  token: string,
  id: string,
  timeoutMs = 60_000,
): Promise<DirectoryRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api<DirectoryRun>(auth.url, 'GET', `/api/directory/runs/${id}`, { token });
    if (status !== 200) throw new Error(`run ${id}: ${status} ${JSON.stringify(body)}`);
    if (FINISHED.has(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a run as the ADMIN and waits for its end. */
export async function runSync(
  auth: TestService<AuthConfig>,
  token: string,
  mode: DirectoryRunMode,
  previewId?: string,
): Promise<DirectoryRun> {
  const started = await api<DirectoryRun>(auth.url, 'POST', '/api/directory/runs', {
    token,
    body: { mode, ...(previewId ? { previewId } : {}) },
  });
  if (started.status !== 202) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  return waitForRun(auth, token, started.body.id);
}
