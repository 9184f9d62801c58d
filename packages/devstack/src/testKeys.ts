/**
 * The Redis keys a test run leaves: each test file's services queue under a prefix of its own
 * (`uniquePrefix` in testing.ts), and BullMQ keeps a queue's keys until they are removed.
 */

/** A key under a uniquePrefix: `t`, the time the prefix was made in base 36, six hex digits, then `:`. */
const TEST_KEY = /^t([0-9a-z]{8})[0-9a-f]{6}:/;

/**
 * True when a key belongs to a test prefix made at or after `since` (ms since the epoch): the queues
 * and limits of one run's test files, and nothing a developer's portal or an earlier run keeps.
 */
export function isTestKeySince(key: string, since: number): boolean {
  const made = TEST_KEY.exec(key);
  return made !== null && parseInt(made[1], 36) >= since;
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

/** Removes the keys of the test prefixes made since `since` (isTestKeySince); how many went. */
export const removeTestKeys = (url: string, since: number): Promise<number> =>
  removeKeys(url, 't*', (key) => isTestKeySince(key, since));
