import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FRONTENDS } from '@portal/devstack/build';
import { startStack } from '@portal/devstack/stack';
import { startOidcProviderProcess } from '@portal/devstack/oidcProvider';
import { directorySyncEnv, seedDirectory, startLdap } from '@portal/devstack/ldap';
import { ensureRedis, ensureStore } from '@portal/devstack/store';
import { removeKeys } from '@portal/devstack/testKeys';
import { ROOT, run } from '@portal/devstack/util';
import { CONSENT_DOCUMENT } from '@portal/contracts';
import { E2E_GATEWAY_URL, E2E_LDAP_DEPARTMENTS, E2E_MEDIA_ORIGIN, E2E_OIDC_PORT, E2E_PORT_OFFSET, E2E_STACK_FILE } from './env';

/**
 * The preset accounts have given their consent to the current text, as a person would at the first
 * sign-in: the journeys that sign in through the form are not about consent (consent.spec.ts is).
 */
async function presetsConsent(): Promise<void> {
  const presets = (await (await fetch(`${E2E_GATEWAY_URL}/api/auth/presets`)).json()) as {
    data: { email: string; password: string }[];
  };
  for (const { email, password } of presets.data) {
    const login = await fetch(`${E2E_GATEWAY_URL}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (login.status !== 200) throw new Error(`e2e setup: sign-in of ${email} answered ${login.status}`);
    const { token } = (await login.json()) as { token: string };
    const consent = await fetch(`${E2E_GATEWAY_URL}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ version: CONSENT_DOCUMENT.version }),
    });
    if (consent.status >= 300) throw new Error(`e2e setup: consent of ${email} answered ${consent.status}`);
  }
}

/**
 * Starts the whole portal (store, Redis, five services, gateway) on offset ports with fresh
 * databases, and returns the teardown. Builds first when the output is missing.
 */
export default async function globalSetup() {
  const missing = FRONTENDS.filter((name) => !existsSync(path.join(ROOT, name, 'dist')));
  // `npm run build` in a process of its own: the front ends' webpack configs are TypeScript, which
  // this runner's process cannot import.
  if (missing.length || !existsSync(path.join(ROOT, 'gateway/dist/index.js')))
    run(process.execPath, [
      path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      '--conditions=source',
      'packages/devstack/src/cli.ts',
      'build',
    ]);
  const store = await ensureStore();
  const redis = await ensureRedis();
  const prefix = `e2e${randomBytes(3).toString('hex')}_`;
  // A real OpenID provider for the corporate sign-in (oidc.spec.ts), with a secret of this run.
  const oidcSecret = randomBytes(24).toString('base64url');
  const oidc = await startOidcProviderProcess({
    port: E2E_OIDC_PORT,
    clientSecret: oidcSecret,
    redirectUris: [`${E2E_GATEWAY_URL}/api/auth/oidc/callback`],
    postLogoutRedirectUris: [`${E2E_GATEWAY_URL}/auth`],
    logDir: path.join(ROOT, '.data/logs/e2e'),
  });
  // A real OpenLDAP for the directory sync (directory-sync.spec.ts): a dozen people in departments of
  // their own, so no other journey's department or audience meets them; synced on demand only.
  const ldap = await startLdap();
  await seedDirectory(ldap, 12, E2E_LDAP_DEPARTMENTS);
  const stack = await startStack({
    mongoUrl: store.url,
    redisUrl: redis.url,
    portOffset: E2E_PORT_OFFSET,
    dbPrefix: prefix,
    queuePrefix: prefix.slice(0, -1),
    logDir: path.join(ROOT, '.data/logs/e2e'),
    // The journeys play a video from this origin (served by the test through page.route); the
    // assignments journey moves the progress service's clock past a due day (never in production).
    env: {
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      MEDIA_ORIGINS: E2E_MEDIA_ORIGIN,
      CLOCK_SEAM: 'on',
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: oidc.clientId,
      OIDC_CLIENT_SECRET: oidcSecret,
      OIDC_REDIRECT_URL: `${E2E_GATEWAY_URL}/api/auth/oidc/callback`,
      OIDC_GROUP_ROLES: JSON.stringify({ 'portal-learners': 'CLIENT' }),
      // Everyone CLIENT: no journey meets a second ADMIN or CURATOR from the directory.
      ...directorySyncEnv(ldap),
      LDAP_GROUP_ROLES: '{}',
    },
  });
  await presetsConsent();
  // Journeys that start processes of their own read how the stack was started from here (one file per
  // offset: several stacks may run on one machine).
  mkdirSync(path.join(ROOT, '.data'), { recursive: true });
  writeFileSync(E2E_STACK_FILE, JSON.stringify({ env: stack.env, ports: stack.ports }));
  return async () => {
    await stack.stop();
    // The run's queues stay in Redis after the services stop; they go with the run.
    await removeKeys(redis.url, `${prefix.slice(0, -1)}:*`).catch((err: unknown) =>
      console.warn(`[e2e] the run's Redis keys were not removed: ${String(err)}`),
    );
    await Promise.all([store.process?.stop(), redis.process?.stop(), oidc.process.stop(), ldap.stop()]);
  };
}
