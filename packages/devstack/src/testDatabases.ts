import type { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import type { ServiceName } from '@portal/contracts';

/**
 * Test databases handed on from one test file to the next.
 *
 * A test file's services each start on a database of their own. Made new, a service's database
 * costs FerretDB a table for each collection and one for each index: 37 collections and 189 indexes
 * for auth, content and progress, about 0.6 s of a 1.1 s start on a quiet 2-core host. So a service
 * closed by its test file leaves its database (collections and indexes) to the run, and the next
 * file that starts the same service takes it, emptied of every document first: what the file sees
 * is an empty database, as before. Only the store's schema outlives a file: the queues are the
 * file's own, under a prefix made for it, and the keys kept under the database prefix are removed
 * with the documents.
 *
 * The pool is a Redis list per service under a key of the run's (PORTAL_TEST_DB_POOL, set by the
 * global setup), so the workers share it, and the run's teardown drops what is left in it.
 */

/** The environment variable that holds the run's pool key prefix; unset outside a jest run. */
export const DB_POOL_ENV = 'PORTAL_TEST_DB_POOL';

/** The pool's key prefix for a run made at `since` with the id `run`: a test key, so the teardown's sweep removes it. */
export const dbPoolPrefix = (since: number, run: string): string => `t${since.toString(36)}000000${run}:test-databases:`;

const poolKey = (service: ServiceName): string | undefined => {
  const prefix = process.env[DB_POOL_ENV];
  return prefix ? `${prefix}${service}` : undefined;
};

/** True inside a jest run whose global setup made a pool. */
export const hasTestDatabasePool = (): boolean => Boolean(process.env[DB_POOL_ENV]);

/** Runs `work` with a Redis connection of its own, closed afterwards; undefined when Redis cannot be reached. */
async function withRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T | undefined> {
  const url = process.env.REDIS_URL;
  if (!url) return undefined;
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await work(redis);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

async function unlinkMatching(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** Removes every document of every collection of a database, keeping its collections and indexes. */
async function emptyDatabase(url: string, name: string): Promise<void> {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 2000 });
  try {
    const collections = await client.db(name).collections();
    await Promise.all(collections.map((c) => c.deleteMany({})));
  } finally {
    await client.close();
  }
}

/**
 * The database prefix of a database an earlier file of this run left for `service`, emptied; none
 * when the pool is empty or unreachable (the caller makes a new prefix then).
 */
export async function takeTestDatabase(service: ServiceName, mongoUrl: string): Promise<string | undefined> {
  const key = poolKey(service);
  if (!key) return undefined;
  const prefix = await withRedis(async (redis) => {
    const taken = await redis.rpop(key);
    // Keys some services keep under the database prefix (auth's sign-in failures and OIDC steps) go with the documents.
    if (taken) await unlinkMatching(redis, `*${taken}*`);
    return taken;
  });
  if (!prefix) return undefined;
  try {
    await emptyDatabase(mongoUrl, `${prefix}${service}`);
    return prefix;
  } catch {
    return undefined; // a database that cannot be emptied is left out of the pool (the teardown drops none of it either)
  }
}

/** Leaves a closed service's database to the next file; false when there is no pool (the caller drops it then). */
export async function leaveTestDatabase(service: ServiceName, prefix: string): Promise<boolean> {
  const key = poolKey(service);
  if (!key) return false;
  return (await withRedis(async (redis) => (await redis.lpush(key, prefix)) > 0)) ?? false;
}

/** Drops one database through a connection of its own; a store that does not answer is left as it is. */
export async function dropTestDatabase(url: string, name: string): Promise<void> {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 2000 }).catch(() => null);
  if (!client) return;
  try {
    await client.db(name).dropDatabase();
  } catch {
    // the store is down (a fault test): nothing to drop it with
  } finally {
    await client.close();
  }
}

/** Drops every database left in the run's pool: the global teardown's, before the run's keys go. */
export async function dropPooledDatabases(redisUrl: string, mongoUrl: string, poolPrefix: string): Promise<number> {
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 2000 });
  let dropped = 0;
  try {
    await redis.connect();
    const keys = await redis.keys(`${poolPrefix}*`);
    for (const key of keys) {
      const service = key.slice(poolPrefix.length);
      for (const prefix of await redis.lrange(key, 0, -1)) {
        await client.db(`${prefix}${service}`).dropDatabase();
        dropped++;
      }
      await redis.del(key);
    }
  } finally {
    redis.disconnect();
    await client.close();
  }
  return dropped;
}
