import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { Types, type Connection, type Schema } from 'mongoose';
import { coalesce } from './coalesce';
import { withTimeout } from './timeout';

/** The collection of version documents: one per cache, keyed by the cache's name. */
const VERSIONS = 'cache_versions';

interface VersionDoc {
  _id: string;
  version: string;
}

/**
 * Where the versions of a store's caches live. A process that has Redis keeps them there: reading a
 * version is then one Redis GET (about 25 µs of the service's CPU, bench) instead of a store look-up
 * (about 300 µs of the service's and a millisecond of the store's), and a cached read costs the
 * store nothing. A process without Redis (a unit test on the store alone) keeps them in the store,
 * in a document per cache. Every process writing one database must keep them in the same place:
 * the services all do (createServiceContext), and so does any tool that writes a service's data
 * behind its back and moves the version (the bench's seeding).
 */
const versionsInRedis = new WeakMap<object, Redis>();

/** A version's key in Redis: per database (the services' databases, and each test's, have their own names). */
const versionKey = (store: Connection, collection: string, name: string, key?: string) =>
  `cache-version:${store.name}:${collection}:${name}${key === undefined ? '' : `:${key}`}`;
/**
 * A version key outlives any kept answer by far (those live a minute at most); one that expired or
 * was lost (Redis restarted, or evicted it) is set anew to a value never used before, so no answer
 * kept before can match it.
 */
const VERSION_TTL_SECONDS = 86_400;
/** A version not read from Redis in this time (Redis frozen) reads as unknown: the request reads the store itself. */
const VERSION_READ_DEADLINE_MS = 250;
/** A move Redis has not acknowledged in this time (Redis frozen) is made again when it is back. */
const VERSION_MOVE_DEADLINE_MS = 1000;

/**
 * The version keys whose move did not reach Redis (it was away when a write was made), by
 * connection: moved again as soon as it is back (it reconnects, or acknowledges a later move). Until then, and if the process stops first, the
 * kept answers' lifetime (`ttlMs`) bounds how long a reader may be given an answer from before that
 * write.
 */
const unmoved = new WeakMap<Redis, Set<string>>();

/** Keeps the versions of every database of this store's client in Redis (see versionsInRedis). */
export function keepVersionsInRedis(store: Connection, redis: Redis): void {
  versionsInRedis.set(store.getClient(), redis);
  if (unmoved.has(redis)) return;
  unmoved.set(redis, new Set());
  redis.on('ready', () => void moveUnmoved(redis));
}

const redisOf = (store: Connection): Redis | undefined => versionsInRedis.get(store.getClient());

const moveKey = (redis: Redis, key: string) => redis.set(key, randomUUID(), 'EX', VERSION_TTL_SECONDS);

async function moveUnmoved(redis: Redis): Promise<void> {
  const keys = unmoved.get(redis);
  for (const key of keys ?? []) {
    try {
      await moveKey(redis, key);
      keys?.delete(key);
    } catch {
      return; // away again: the next 'ready' tries again
    }
  }
}

/** The promise's value, or undefined once `ms` have passed or it failed. */
const within = <T>(ms: number, work: Promise<T>): Promise<T | undefined> => withTimeout(work, ms).catch(() => undefined);

/**
 * Moves the version of the answers kept under `name`: call it after every write that can change
 * them, in every process that writes. With a `key` (a person's id), only the answers about that key
 * are outdated (see VersionedCache's `key`); where the versions are in the store, the whole is moved.
 *
 * The version is a value never used before, set outright, not a counter: in the store, FerretDB runs
 * an update as a read and then a write, so concurrent `$inc`s lose increments (100 at once left 3)
 * and a slow one can even put back an older number, which would bring back an answer kept before a
 * later write. A fresh value is different from every stamp of an answer read before it.
 */
export async function bumpVersion(store: Connection, name: string, collection = VERSIONS, key?: string): Promise<void> {
  const redis = redisOf(store);
  if (redis) {
    // The write is done: Redis being away must not fail it. The move is made when Redis is back.
    const versionOf = versionKey(store, collection, name, key);
    const pending = unmoved.get(redis);
    if ((await within(VERSION_MOVE_DEADLINE_MS, moveKey(redis, versionOf))) !== 'OK') pending?.add(versionOf);
    // Redis answers again without having reconnected (it was frozen, not gone): the moves left are made now.
    else if (pending?.size) void moveUnmoved(redis);
    return;
  }
  const versions = store.collection<VersionDoc>(collection);
  try {
    await versions.updateOne({ _id: name }, { $set: { version: randomUUID() } }, { upsert: true });
  } catch (err) {
    // Two first bumps of a fresh database both inserted; the loser's value is set over the winner's.
    if ((err as { code?: number }).code !== 11000) throw err;
    await versions.updateOne({ _id: name }, { $set: { version: randomUUID() } });
  }
}

/**
 * The version of the answers kept under `name` now (about `key` when given: the whole's version and
 * the key's together, so moving either outdates them): undefined when it cannot be known (Redis
 * away, or not answering within the deadline), and then nothing may be kept or taken.
 */
async function currentVersion(store: Connection, name: string, collection: string, key?: string): Promise<string | undefined> {
  const redis = redisOf(store);
  if (!redis) {
    const doc = await store.collection<VersionDoc>(collection).findOne({ _id: name });
    return String(doc?.version ?? 0);
  }
  const keys = [versionKey(store, collection, name), ...(key === undefined ? [] : [versionKey(store, collection, name, key)])];
  const read = async () => {
    const found = await redis.mget(keys);
    const versions = await Promise.all(found.map((version, i) => version ?? freshVersion(redis, keys[i])));
    return versions.some((version) => version === undefined) ? undefined : versions.join('|');
  };
  return within(VERSION_READ_DEADLINE_MS, read());
}

/** A version none has yet, or that Redis lost: a fresh one (of two first readers, the one set first is what both use). */
async function freshVersion(redis: Redis, key: string): Promise<string | undefined> {
  const fresh = randomUUID();
  if ((await redis.set(key, fresh, 'EX', VERSION_TTL_SECONDS, 'NX')) === 'OK') return fresh;
  return (await redis.get(key)) ?? undefined;
}

/** The writes a model's middleware sees: every one moves the version after it (see bumpOnWrite). */
const WRITES = [
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
] as const;

/**
 * Moves the version `name` after every write through a model of `schema` (mongoose middleware), so
 * no command can forget it. A bulkWrite is not seen: its caller moves the version itself. With
 * `inserts: false`, an `insertMany` does not move it: the version of answers that only a change or
 * a removal of stored documents can outdate (a count that reached its cap). With `keyedBy` (a field
 * holding a person's id, or `_id`), a write whose filter or document names one value of it (a string
 * or an ObjectId) moves that key's version only, and any other write (one that may touch many: a
 * course deleted with everyone's marks on it, an insertMany) moves the whole.
 */
export function bumpOnWrite(
  schema: Schema,
  name: string,
  collection = VERSIONS,
  { inserts = true, keyedBy }: { inserts?: boolean; keyedBy?: string } = {},
): void {
  const keyIn = (fields: Record<string, unknown> | undefined): string | undefined => {
    const value = keyedBy === undefined ? undefined : fields?.[keyedBy];
    return typeof value === 'string' ? value : value instanceof Types.ObjectId ? String(value) : undefined;
  };
  schema.post([...WRITES], async function () {
    await bumpVersion(this.model.db, name, collection, keyIn(this.getFilter()));
  });
  schema.post('save', async function () {
    await bumpVersion(this.db, name, collection, keyedBy === undefined ? undefined : keyIn({ [keyedBy]: this.get(keyedBy) }));
  });
  if (inserts)
    schema.post('insertMany', async function () {
      await bumpVersion(this.db, name, collection);
    });
}

export interface VersionedCacheOptions {
  /** The version document's id (see bumpVersion). */
  name: string;
  /** Its collection; `cache_versions` unless a cache kept an older one. */
  collection?: string;
  maxEntries?: number;
  /** A safety net only: covers a version that could not be moved (Redis or the store failing just after a write). */
  ttlMs?: number;
}

/**
 * Answers that are the same for everyone who asks the same question until the data under them is
 * written, kept per process and stamped with the version read before they were read.
 *
 * Why it is correct, with any number of processes: each request reads the version (a Redis GET, or a
 * look-up by `_id` in the store; see versionsInRedis) and takes a kept answer only when its stamp is
 * that version. Every write moves the version after the write; an answer read after a version was
 * read is at least as new as that version, and any later write sets a version no answer was ever
 * stamped with. When the version cannot be read, nothing is taken or kept. Concurrent first askers
 * of one question share one read.
 */
export class VersionedCache<T> {
  private readonly kept: LRUCache<string, { value: T; version: string }>;
  private readonly reading = new Map<string, Promise<{ value: T; version: string }>>();
  private readonly name: string;
  private readonly collection: string;

  constructor(
    private readonly store: Connection,
    { name, collection = VERSIONS, maxEntries = 500, ttlMs = 60_000 }: VersionedCacheOptions,
  ) {
    this.name = name;
    this.collection = collection;
    this.kept = new LRUCache({ max: maxEntries, ttl: ttlMs });
  }

  /**
   * The answer to `question`: kept, or read and kept unless `keep` says an answer of its kind must
   * not be. An answer about one person names them as `key`: it is outdated by a write about them
   * (bumpVersion with their key) or a write of the whole, and by no one else's.
   */
  async get(
    question: unknown,
    read: () => Promise<T>,
    keep: (value: T) => boolean = () => true,
    { key: about }: { key?: string } = {},
  ): Promise<T> {
    const version = await currentVersion(this.store, this.name, this.collection, about);
    // Without a version nothing kept can be proved current: the data is read, and not kept.
    if (version === undefined) return read();
    // The question by its digest: one may name many things (a curator's course parts), and a key stays short.
    const asked = JSON.stringify(question, (_, value: unknown) => (value instanceof RegExp ? String(value) : value));
    const key = `${version}|${createHash('sha256').update(asked).digest('base64url')}`;
    const kept = this.kept.get(key);
    if (kept) return kept.value;
    const stamped = await coalesce(this.reading, key, async () => {
      const entry = { value: await read(), version };
      if (keep(entry.value)) this.kept.set(key, entry);
      return entry;
    });
    return stamped.value;
  }
}
