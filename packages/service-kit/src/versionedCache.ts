import { createHash, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Connection, Schema } from 'mongoose';
import { coalesce } from './coalesce';

/** The collection of version documents: one per cache, keyed by the cache's name. */
const VERSIONS = 'cache_versions';

interface VersionDoc {
  _id: string;
  version: string;
}

/**
 * Moves the version of the answers kept under `name`: call it after every write that can change
 * them, in every process that writes.
 *
 * The version is a value never used before, set outright, not a counter moved by `$inc`: FerretDB
 * runs an update as a read and then a write, so concurrent `$inc`s lose increments (100 at once
 * left 3) and a slow one can even put back an older number, which would bring back an answer kept
 * before a later write. A fresh value is different from every stamp of an answer read before it.
 */
export async function bumpVersion(store: Connection, name: string, collection = VERSIONS): Promise<void> {
  const versions = store.collection<VersionDoc>(collection);
  try {
    await versions.updateOne({ _id: name }, { $set: { version: randomUUID() } }, { upsert: true });
  } catch (err) {
    // Two first bumps of a fresh database both inserted; the loser's value is set over the winner's.
    if ((err as { code?: number }).code !== 11000) throw err;
    await versions.updateOne({ _id: name }, { $set: { version: randomUUID() } });
  }
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
 * a removal of stored documents can outdate (a count that reached its cap).
 */
export function bumpOnWrite(schema: Schema, name: string, collection = VERSIONS, { inserts = true } = {}): void {
  schema.post([...WRITES], async function () {
    await bumpVersion(this.model.db, name, collection);
  });
  schema.post('save', async function () {
    await bumpVersion(this.db, name, collection);
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
  /** A safety net only: covers a version that could not be moved (the store failing just after a write). */
  ttlMs?: number;
}

/**
 * Answers that are the same for everyone who asks the same question until the data under them is
 * written, kept per process and stamped with the version read before they were read.
 *
 * Why it is correct, with any number of processes: each request reads the version (one lookup by
 * `_id`) and takes a kept answer only when its stamp is that version. Every write moves the version
 * after the write; an answer read after a version was read is at least as new as that version, and
 * any later write sets a version no answer was ever stamped with. Concurrent first askers of one
 * question share one read.
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

  /** The answer to `question`: kept, or read and kept unless `keep` says an answer of its kind must not be. */
  async get(question: unknown, read: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const doc = await this.store.collection<VersionDoc>(this.collection).findOne({ _id: this.name });
    const version = String(doc?.version ?? 0);
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
