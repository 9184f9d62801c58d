import { randomBytes } from 'node:crypto';
import type { Config } from '@jest/types';
import { pruneCodeCache } from './codeCache';
import { secretsEnv } from './secrets';
import { ensureRedis, ensureStore } from './store';

/** Makes sure a real store and a real Redis answer before any test file runs. */
export default async function globalSetup(_global: Config.GlobalConfig, project: Config.ProjectConfig): Promise<void> {
  // The compiled modules jest's runtime keeps (jest.runtime.js) would otherwise grow with every change.
  pruneCodeCache(project.cacheDirectory);
  // The teardown removes the Redis keys of the test prefixes made from now on (testKeys.ts).
  (globalThis as Record<string, unknown>).__PORTAL_RUN_STARTED__ = Date.now();
  // The test files' prefixes end with this run's id (the workers inherit it), so that only they are removed.
  process.env.PORTAL_TEST_RUN = randomBytes(2).toString('hex');
  const store = await ensureStore();
  const redis = await ensureRedis();
  process.env.MONGO_URL = store.url;
  process.env.REDIS_URL = redis.url;
  // The store's own PostgreSQL, for the tests of what the launcher installs there (ginTwins.ts).
  if (store.postgresqlUrl) process.env.FERRETDB_POSTGRESQL_URL = store.postgresqlUrl;
  // The test services and the tests that forge tokens read the same secrets as the launcher's.
  Object.assign(process.env, secretsEnv());
  (globalThis as Record<string, unknown>).__PORTAL_STACK__ = [store.process, redis.process].filter(Boolean);
}
