import type { ManagedProcess } from './processes';
import { say } from './util';
import { removeTestKeys } from './testKeys';

export default async function globalTeardown(): Promise<void> {
  const shared = globalThis as Record<string, unknown>;
  const started = (shared.__PORTAL_STACK__ ?? []) as ManagedProcess[];
  // Each test file's queues stay in Redis after its services stop; the run takes its own away
  // (not those of another run going on beside it).
  const since = shared.__PORTAL_RUN_STARTED__;
  if (process.env.REDIS_URL && typeof since === 'number')
    await removeTestKeys(process.env.REDIS_URL, since, process.env.PORTAL_TEST_RUN).then(
      (removed) => say(`redis: removed the ${removed} keys this run's test files left`),
      (err: unknown) => say(`redis: the keys this run's test files left were not removed (${String(err)})`),
    );
  await Promise.all(started.map((p) => p.stop()));
}
