import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { DB_POOL_ENV, dbPoolPrefix, dropPooledDatabases } from './testDatabases';
import { startTestService, uniquePrefix } from './testing';

const mongoUrl = String(process.env.MONGO_URL);
const redisUrl = String(process.env.REDIS_URL);
let client: MongoClient;
let redis: Redis;
let pool: string;

beforeAll(async () => {
  client = await MongoClient.connect(mongoUrl);
  redis = new Redis(redisUrl);
  // A pool of this file's own, so no other file running beside it takes what it leaves.
  pool = dbPoolPrefix(Date.now(), process.env.PORTAL_TEST_RUN ?? '');
  process.env[DB_POOL_ENV] = pool;
});
afterAll(async () => {
  await dropPooledDatabases(redisUrl, mongoUrl, pool);
  await client.close();
  redis.disconnect();
});

const databases = async () => (await client.db().admin().listDatabases({ nameOnly: true })).databases.map((d) => d.name);
const start = (prefix?: string) => startTestService('crm', () => [], { prefix });

describe('test databases handed on from file to file', () => {
  it('the next service takes the database a closed one left, empty, with its collections and indexes, and its own queues', async () => {
    const first = await start();
    const prefix = first.ctx.config.DB_PREFIX;
    const things = first.ctx.store.collection('things');
    await things.createIndex({ title: 1 }, { name: 'title_1' });
    await things.insertMany([{ title: 'Охрана труда' }, { title: 'Пожарная безопасность' }]);
    await redis.set(`auth:fail:${prefix}anna@example.test`, '3');
    const firstQueues = first.ctx.config.QUEUE_PREFIX;
    await first.close();
    expect(await redis.lrange(`${pool}crm`, 0, -1)).toEqual([prefix]);

    const next = await start();
    try {
      expect(next.ctx.config.DB_PREFIX).toBe(prefix);
      expect(next.ctx.config.QUEUE_PREFIX).not.toBe(firstQueues);
      const taken = next.ctx.store.collection('things');
      expect(await taken.countDocuments({})).toBe(0);
      expect((await taken.indexes()).map((i) => i.name)).toContain('title_1');
      // What the first file kept in Redis under the database prefix went with its documents.
      expect(await redis.exists(`auth:fail:${prefix}anna@example.test`)).toBe(0);
      expect(await redis.llen(`${pool}crm`)).toBe(0);
    } finally {
      await next.close();
    }
    // The teardown drops what is left in the pool.
    expect(await databases()).toContain(`${prefix}crm`);
    expect(await dropPooledDatabases(redisUrl, mongoUrl, pool)).toBe(1);
    expect(await databases()).not.toContain(`${prefix}crm`);
  });

  it('a service started on a given prefix (a replica, a restart) neither takes a database nor leaves one: its close drops it', async () => {
    const prefix = uniquePrefix();
    const given = await start(prefix);
    await given.ctx.store.collection('things').insertOne({ title: 'Охрана труда' });
    await given.close();
    await given.close(); // a second close does nothing
    expect(await redis.llen(`${pool}crm`)).toBe(0);
    expect(await databases()).not.toContain(`${prefix}crm`);
  });
});
