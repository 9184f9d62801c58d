import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type mongoose from 'mongoose';
import { startRedisServer } from '@portal/devstack/store';
import { freePort } from '@portal/devstack/util';
import { createLogger } from './logger';
import { connectStore } from './mongo';
import { createRedis } from './redis';
import { bumpVersion, keepVersionsInRedis, VersionedCache } from './versionedCache';

// Two caches on one store stand for two replicas of a service: a write seen by either moves both.
const dbName = `t_cache_${process.pid}_${Date.now().toString(36)}`;
let store: mongoose.Connection;

beforeAll(async () => {
  store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName, createLogger('test', 'silent'), {
    attempts: 3,
  });
});
afterAll(async () => {
  await store.dropDatabase();
  await store.close();
});

/** A read of "the data" that counts how often the store would have been asked. */
function source(initial: string) {
  const state = { value: initial, reads: 0 };
  const read = async () => {
    state.reads++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return state.value;
  };
  return { state, read };
}

it('answers a question read once until the data is written, then the new data at once, in every replica', async () => {
  const one = new VersionedCache<string>(store, { name: 'things' });
  const two = new VersionedCache<string>(store, { name: 'things' });
  const { state, read } = source('first');

  // Fifty readers asking at once share one read; asked again, nothing is read.
  const answers = await Promise.all(Array.from({ length: 50 }, () => one.get({ page: 1 }, read)));
  expect(new Set(answers)).toEqual(new Set(['first']));
  expect(await one.get({ page: 1 }, read)).toBe('first');
  expect(state.reads).toBe(1);
  // Another question is another read.
  await one.get({ page: 2 }, read);
  expect(state.reads).toBe(2);

  // A write, through whichever replica: both answer the new data on their next read.
  await two.get({ page: 1 }, read);
  state.value = 'second';
  await bumpVersion(store, 'things');
  expect(await one.get({ page: 1 }, read)).toBe('second');
  expect(await two.get({ page: 1 }, read)).toBe('second');
});

it('keeps the versions of different names apart, and a failed read is not kept', async () => {
  const things = new VersionedCache<string>(store, { name: 'things' });
  const others = new VersionedCache<string>(store, { name: 'others' });
  const { state, read } = source('kept');
  await things.get('q', read);
  await others.get('q', read);
  await bumpVersion(store, 'others');
  await things.get('q', read);
  expect(state.reads).toBe(2); // only `others` was moved

  let fail = true;
  const flaky = async () => {
    if (fail) throw new Error('store away');
    return 'back';
  };
  await expect(things.get('flaky', flaky)).rejects.toThrow('store away');
  fail = false;
  expect(await things.get('flaky', flaky)).toBe('back');
});

describe('with the versions in Redis, as every service keeps them', () => {
  const logger = createLogger('test', 'silent');
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // Two connections to one database, each with its Redis: two replicas of a service.
  let replicas: Array<{ store: mongoose.Connection; redis: Redis }>;

  beforeAll(async () => {
    replicas = await Promise.all(
      [1, 2].map(async () => {
        const store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `${dbName}_r`, logger, {
          attempts: 3,
        });
        const redis = createRedis(redisUrl, logger, { failFast: true });
        if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
        keepVersionsInRedis(store, redis);
        return { store, redis };
      }),
    );
  });
  afterAll(async () => {
    await replicas[0].redis.del(`cache-version:${dbName}_r:cache_versions:things`);
    await replicas[0].store.dropDatabase();
    for (const { store, redis } of replicas) {
      redis.disconnect();
      await store.close();
    }
  });

  /** The commands a replica's store was sent while `work` ran (the driver's command monitoring). */
  async function storeCommands(store: mongoose.Connection, work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const client = store.getClient();
    const listener = (event: { commandName: string }) => seen.push(event.commandName);
    client.on('commandStarted', listener);
    try {
      await work();
    } finally {
      client.off('commandStarted', listener);
    }
    return seen;
  }

  it('answers a kept question without asking the store, and a write through either replica reaches both at once', async () => {
    const [one, two] = replicas.map(({ store }) => new VersionedCache<string>(store, { name: 'things' }));
    const { state, read } = source('first');
    expect(await one.get('q', read)).toBe('first');
    expect(await two.get('q', read)).toBe('first');
    expect(state.reads).toBe(2);

    // Asked again: the version comes from Redis, the answer from memory, and the store is not asked.
    expect(await storeCommands(replicas[0].store, () => one.get('q', read))).toEqual([]);
    expect(state.reads).toBe(2);

    state.value = 'second';
    await bumpVersion(replicas[1].store, 'things');
    expect(await one.get('q', read)).toBe('second');
    expect(await two.get('q', read)).toBe('second');
    // The move went to Redis, not to a version document in the store.
    expect(await replicas[0].store.collection('cache_versions').countDocuments({ _id: 'things' as never })).toBe(0);
  });

  it('never serves an answer kept before Redis lost the version, even when the write’s move was lost with it', async () => {
    const cache = new VersionedCache<string>(replicas[0].store, { name: 'things' });
    const { state, read } = source('before');
    expect(await cache.get('lost', read)).toBe('before');
    // Redis restarted (or evicted the key) and the write after it could not move the version.
    await replicas[0].redis.del(`cache-version:${dbName}_r:cache_versions:things`);
    state.value = 'after';
    expect(await cache.get('lost', read)).toBe('after');
    expect(await cache.get('lost', read)).toBe('after');
    expect(state.reads).toBe(2);
  });

  it('with Redis away, reads the data on every request and keeps none, without failing', async () => {
    const store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `${dbName}_r`, logger, {
      attempts: 3,
    });
    // Nothing listens there: every command is refused at once, as when Redis is down.
    const away = createRedis('redis://127.0.0.1:1', logger, { failFast: true });
    keepVersionsInRedis(store, away);
    try {
      const cache = new VersionedCache<string>(store, { name: 'things' });
      const { state, read } = source('live');
      expect(await cache.get('q', read)).toBe('live');
      state.value = 'changed';
      expect(await cache.get('q', read)).toBe('changed');
      expect(state.reads).toBe(2);
      // A write's move does not fail the write: it is made when Redis is back (the fault test
      // audit-exactly-once checks the list shows writes made while Redis was down).
      await expect(bumpVersion(store, 'things')).resolves.toBeUndefined();
    } finally {
      away.disconnect();
      await store.close();
    }
  });

  it('moves a version a write could not move while Redis was down as soon as Redis is back', async () => {
    // A private Redis that keeps what it acknowledged through a crash (appendonly, as production's).
    const dir = mkdtempSync(path.join(tmpdir(), 'versions-redis-'));
    const port = await freePort();
    let server = await startRedisServer(port, `versions-redis-${port}`, { persistDir: dir });
    const store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `${dbName}_r`, logger, {
      attempts: 3,
    });
    const own = createRedis(`redis://127.0.0.1:${port}`, logger, { failFast: true });
    keepVersionsInRedis(store, own);
    /** The client's state once it is what is wanted (or after 10 s). */
    const statusWhen = async (wanted: (status: string) => boolean) => {
      for (const until = Date.now() + 10_000; !wanted(own.status) && Date.now() < until;)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return own.status;
    };
    try {
      expect(await statusWhen((status) => status === 'ready')).toBe('ready');
      const cache = new VersionedCache<string>(store, { name: 'crashed' });
      const { state, read } = source('before the crash');
      expect(await cache.get('q', read)).toBe('before the crash');
      expect(await cache.get('q', read)).toBe('before the crash');
      expect(state.reads).toBe(1); // kept

      await server.stop('SIGKILL');
      // Once the client knows (a command sent before that would be sent again on reconnecting).
      expect(await statusWhen((status) => status !== 'ready')).not.toBe('ready');
      state.value = 'written while Redis was down';
      // The write's move does not fail it…
      await expect(bumpVersion(store, 'crashed')).resolves.toBeUndefined();
      // …and meanwhile the data is read, not taken from what was kept.
      expect(await cache.get('q', read)).toBe('written while Redis was down');

      // Redis comes back with the version it held before the crash: the kept answer's stamp. The
      // move not made is made on reconnecting, so that answer is never served again.
      server = await startRedisServer(port, `versions-redis-${port}`, { persistDir: dir });
      expect(await statusWhen((status) => status === 'ready')).toBe('ready');
      expect(await cache.get('q', read)).toBe('written while Redis was down');
      expect(await cache.get('q', read)).toBe('written while Redis was down');
    } finally {
      own.disconnect();
      await store.close();
      await server.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
