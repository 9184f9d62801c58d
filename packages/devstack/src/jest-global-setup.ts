import { secretsEnv } from './secrets';
import { ensureRedis, ensureStore } from './store';

/** Makes sure a real store and a real Redis answer before any test file runs. */
export default async function globalSetup(): Promise<void> {
  const store = await ensureStore();
  const redis = await ensureRedis();
  process.env.MONGO_URL = store.url;
  process.env.REDIS_URL = redis.url;
  // The test services and the tests that forge tokens read the same secrets as the launcher's.
  Object.assign(process.env, secretsEnv());
  (globalThis as Record<string, unknown>).__PORTAL_STACK__ = [store.process, redis.process].filter(Boolean);
}
