import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { escapeRegExp, op, type Logger } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { UploadDoc } from '../models/upload';
import { STORED_NAME, type UploadStore } from './store';

/** Files looked at per sweep: a sweep stays short; the next one takes the rest. */
const SWEEP_BATCH = 200;

/**
 * A Redis lock (SET NX PX) held while `work` runs: of several replicas only one does the work.
 * Answers null when another holder has it. Released only by its holder (the token), on a best effort.
 */
export async function withRedisLock<T>(redis: Redis, key: string, ttlMs: number, work: () => Promise<T>): Promise<T | null> {
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return null;
  try {
    return await work();
  } finally {
    await redis
      .eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, key, token)
      .catch(() => undefined);
  }
}

/** Where a sweep of the stored files goes on from: the last key it looked at (kept in Redis, so any replica continues it). */
export interface SweepCursor {
  read(): Promise<string | undefined>;
  write(lastKey: string | undefined): Promise<void>;
}

/** A cursor kept in Redis under `key`. */
export const redisCursor = (redis: Redis, key: string): SweepCursor => ({
  read: async () => (await redis.get(key)) ?? undefined,
  write: async (lastKey) => {
    if (lastKey === undefined) await redis.del(key);
    else await redis.set(key, lastKey);
  },
});

/** No cursor: every sweep starts at the first key. */
export const fromTheStart: SweepCursor = { read: () => Promise.resolve(undefined), write: () => Promise.resolve() };

/**
 * Deletes stored files no lesson refers to (by their name in a lesson's content) once they are older
 * than `graceMs`: the author may upload and save the lesson a while later. A learner's answer file is
 * never an orphan: its attempt (in the progress service) refers to it, and it goes when the person's
 * data is anonymised. Also stored files left without a description by an upload cut off between
 * the two writes: SWEEP_BATCH keys a sweep, going on from `cursor`, so every key is reached in turn
 * however many there are. The bytes go first, then the description, so a sweep cut off midway
 * leaves a description that the next sweep finishes.
 */
export async function sweepOrphanUploads(
  models: ContentModels,
  store: UploadStore,
  graceMs: number,
  now = Date.now(),
  cursor: SweepCursor = fromTheStart,
): Promise<string[]> {
  const before = new Date(now - graceMs);
  const removed: string[] = [];
  const old = await models.uploads
    .find({ createdAt: op({ $lt: before }), purpose: op({ $ne: 'answer' as const }) })
    .select({ _id: 1 })
    .limit(SWEEP_BATCH)
    .lean<Pick<UploadDoc, '_id'>[]>();
  for (const { _id: name } of old) {
    if (await models.blocks.exists({ content: new RegExp(escapeRegExp(name)) })) continue;
    await store.remove([name]);
    await models.uploads.deleteOne({ _id: name });
    removed.push(name);
  }
  const listed = await store.objects.list({ startAfter: await cursor.read(), limit: SWEEP_BATCH });
  const described = new Set(
    (
      await models.uploads
        .find({ _id: op({ $in: listed.map((o) => o.key) }) })
        .select({ _id: 1 })
        .lean<Pick<UploadDoc, '_id'>[]>()
    ).map((u) => u._id),
  );
  const orphans = listed.filter((o) => o.modifiedAt < before && !described.has(o.key)).map((o) => o.key);
  await store.remove(orphans);
  removed.push(...orphans);
  await cursor.write(listed.length < SWEEP_BATCH ? undefined : listed[listed.length - 1].key);
  return removed;
}

/**
 * Files stored on the local upload folder before uploads went to the store: each one with a
 * description moves into the object store and leaves the disk, so a second run finds nothing to do. A file
 * already in the store (an earlier run stopped before deleting it) is only deleted. Files nobody
 * described were never served; they stay, and are counted in the log.
 */
export async function migrateLocalUploads(
  models: ContentModels,
  store: UploadStore,
  logger: Logger,
): Promise<{ moved: string[]; unknown: number }> {
  const names = (await readdir(store.limits.dir).catch(() => [] as string[])).filter((n) => STORED_NAME.test(n));
  const moved: string[] = [];
  let unknown = 0;
  for (const name of names) {
    const file = path.join(store.limits.dir, name);
    if (!(await stat(file).catch(() => null))?.isFile()) continue;
    const doc = await models.uploads.findById(name).select({ mimeType: 1 }).lean<Pick<UploadDoc, 'mimeType'>>();
    if (!doc) {
      unknown++;
      continue;
    }
    if (!(await store.has(name))) {
      await store.remove([name]); // chunks of a run cut off midway
      await store.put(name, file, doc.mimeType);
    }
    await rm(file, { force: true });
    moved.push(name);
  }
  if (moved.length || unknown) logger.info({ moved: moved.length, unknown }, 'local uploads moved into the store');
  return { moved, unknown };
}
