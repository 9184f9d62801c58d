/**
 * The Redis keys a test run leaves: each test file's services queue under a prefix of its own
 * (`uniquePrefix` in testing.ts), and BullMQ keeps a queue's keys until they are removed.
 */

/** The id of one jest run (PORTAL_TEST_RUN): four hex digits, the end of each prefix the run makes. */
export const TEST_RUN = /^[0-9a-f]{4}$/;

/**
 * A key under a uniquePrefix: `t`, the time the prefix was made in base 36, six hex digits, the
 * run's id (none when the prefix was made outside a jest run), then `:`.
 */
const TEST_KEY = /^t([0-9a-z]{8})[0-9a-f]{6}([0-9a-f]{4})?:/;

/**
 * True when a key belongs to a test prefix made at or after `since` (ms since the epoch) and, when
 * `run` is given, by that run: the queues and limits of one run's test files, and nothing a
 * developer's portal, an earlier run or another run going on beside it keeps (removing those
 * took away the queues of a test still running: its scheduled jobs stopped).
 */
export function isTestKeySince(key: string, since: number, run?: string): boolean {
  const made = TEST_KEY.exec(key);
  return made !== null && parseInt(made[1], 36) >= since && (run === undefined || made[2] === run);
}

/**
 * Removes from the Redis at `url` the keys SCAN's `pattern` finds and `which` admits; how many went.
 * Test runs call it at their end for the queues of the prefixes they made.
 */
export async function removeKeys(url: string, pattern: string, which: (key: string) => boolean = () => true): Promise<number> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  let removed = 0;
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      const chosen = keys.filter(which);
      if (chosen.length > 0) removed += await client.unlink(...chosen);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
  return removed;
}

/** Removes the keys of the test prefixes made since `since` by `run` (isTestKeySince); how many went. */
export const removeTestKeys = (url: string, since: number, run?: string): Promise<number> =>
  removeKeys(url, 't*', (key) => isTestKeySince(key, since, run));
