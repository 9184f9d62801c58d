import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context } from 'koa';
import type { Connection, Model, QueryOptions, Schema, Types, UpdateQuery } from 'mongoose';
import { MSG } from '@portal/contracts';
import { badRequest, HttpError } from './errors';
import { op } from './mongo';
import { withTimeout } from './timeout';

/**
 * Optimistic concurrency, one definition for every service: an editable document carries a
 * `version` that each write of its own fields moves on by one; a write names the version it was
 * based on (`If-Match: "<version>"` or a `version` field in the body) and is refused with 412
 * when the document has moved on since, and with 428 when it names none. The check and the write are one conditional update
 * (`{_id, version}` with `$inc`), so of writers starting from the same version exactly one wins.
 */

/** A stored document that may carry a version (documents from before versions read as 0). */
export interface Versioned {
  _id: Types.ObjectId;
  version?: number | null;
}

/** Adds the version field to a schema; commands move it with `writeVersioned`, never by hand. */
export function versionPlugin(schema: Schema): void {
  schema.add({ version: { type: Number, default: 0, min: 0 } });
}

export const versionOf = (doc: { version?: number | null }): number => doc.version ?? 0;

/** The strong entity tag of a version, as single-document GETs send it and If-Match takes it back. */
export const versionTag = (version: number): string => `"${version}"`;

export const staleDocument = () => new HttpError(412, MSG.staleDocument, 'stale_version');

/** A write of a versioned document that names no version (RFC 6585's 428 Precondition Required). */
export const versionRequired = () => new HttpError(428, MSG.versionRequired, 'version_required');

const STRONG_TAG = /^"(\d{1,15})"$/;

/**
 * The versions a write is based on, taken out of the request: If-Match (a list of strong tags; a
 * weak or foreign tag never matches, as HTTP says) or else the body's `version`, which is removed so
 * that no schema ever stores it. A write that names none is refused with 428 before anything else is
 * read, and so is `If-Match: *` (it names no version, only "overwrite whatever is there"): without a
 * version the last writer would silently win (docs/decisions/write-versions.md).
 */
export function takeExpectedVersion(ctx: Context): number[] {
  const body = ctx.request.body;
  let fromBody: unknown;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'version' in body) {
    fromBody = (body as Record<string, unknown>).version;
    delete (body as Record<string, unknown>).version;
  }
  const header = ctx.get('If-Match').trim();
  if (header && header !== '*') {
    return header
      .split(',')
      .map((tag) => STRONG_TAG.exec(tag.trim()))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => Number(m[1]));
  }
  if (fromBody === undefined || fromBody === null) throw versionRequired();
  if (typeof fromBody !== 'number' || !Number.isSafeInteger(fromBody) || fromBody < 0) {
    throw badRequest(MSG.versionInvalid, 'version');
  }
  return [fromBody];
}

/** Refuses at once a write based on another version than the one just read (before any other check answers). */
export function assertVersion(doc: { version?: number | null }, expected: number[] | undefined): void {
  if (expected && !expected.includes(versionOf(doc))) throw staleDocument();
}

const versionFilter = (version: number): Record<string, unknown> =>
  version === 0 ? { $or: [{ version: 0 }, { version: op({ $exists: false }) }] } : { version };

/** Where write claims live (see writeVersioned), in each service's own database. */
export const VERSION_CLAIMS = 'version_claims';
/** A claim older than this was left by a process that stopped mid-write: it may be taken over. */
const CLAIM_TIMEOUT_MS = 60_000;

interface Claim {
  _id: string;
  at: Date;
}

/** A write refused by a unique index (the store's E11000): another writer holds that value. */
export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

/**
 * True when an unordered bulk write failed on duplicate keys only: the error is one, and so is every
 * write error it carries (an array, or a single one as FerretDB may answer it).
 */
export function onlyDuplicateKeys(err: unknown): boolean {
  const raw = (err as { writeErrors?: unknown } | null)?.writeErrors;
  const writeErrors = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return isDuplicateKey(err) && writeErrors.every(isDuplicateKey);
}

/**
 * Claims the move of one document from one state to the next (`key` names both); `refusal` is thrown
 * to every other claimant while it is held. A conditional update alone is not
 * enough on FerretDB: it reads, then writes by _id, so two updates of the same version can both
 * match (seen: three of ten parallel writers won). Inserting a document with a unique _id is atomic
 * on every store, so exactly one writer holds the claim; it is released after the write, when the
 * version has moved on and the conditional update refuses any later writer by itself.
 */
export async function claimWrite(
  db: Connection,
  key: string,
  refusal: () => Error = staleDocument,
  staleAfterMs = CLAIM_TIMEOUT_MS,
): Promise<() => Promise<void>> {
  const claims = db.collection<Claim>(VERSION_CLAIMS);
  for (let attempt = 0; ; attempt++) {
    const at = new Date();
    try {
      await claims.insertOne({ _id: key, at });
      return async () => {
        await claims.deleteOne({ _id: key, at });
      };
    } catch (err) {
      if (!isDuplicateKey(err) || attempt > 0) throw isDuplicateKey(err) ? refusal() : err;
      const held = await claims.findOne({ _id: key });
      if (held && Date.now() - held.at.getTime() < staleAfterMs) throw refusal();
      if (held) await claims.deleteOne({ _id: key, at: held.at });
    }
  }
}

class ClaimHeld extends Error {}

/** Redis that holds claims in place of the store: the service's connection and its key prefix. */
export interface ClaimRedis {
  redis: Redis;
  prefix: string;
}

/** How long a claim's SET may take before the store's claim is used instead (a frozen Redis). */
const REDIS_CLAIM_DEADLINE_MS = 250;
/** Deletes the claim only if it is still the holder's (it may have expired and been taken by another). */
const RELEASE_OWN = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * The claim `key` in Redis: `SET NX PX` is atomic, and expires by itself after `staleAfterMs` if its
 * holder stopped. Throws ClaimHeld when another holds it; answers null when Redis did not answer
 * (the caller then takes the store's claim).
 */
async function claimInRedis(
  { redis, prefix }: ClaimRedis,
  key: string,
  staleAfterMs: number,
): Promise<(() => Promise<void>) | null> {
  const name = `${prefix}:claim:${key}`;
  const token = randomBytes(8).toString('hex');
  let taken: string | null;
  try {
    taken = await withTimeout(redis.set(name, token, 'PX', staleAfterMs, 'NX'), REDIS_CLAIM_DEADLINE_MS);
  } catch {
    return null;
  }
  if (taken !== 'OK') throw new ClaimHeld();
  // A release that fails leaves the claim to expire after staleAfterMs: the next holder waits, never two at once.
  return async () => {
    await withTimeout(redis.eval(RELEASE_OWN, 1, name, token), REDIS_CLAIM_DEADLINE_MS).catch(() => undefined);
  };
}

/**
 * Runs `work` while holding the claim `key`, one holder at a time across every process: a second
 * caller waits (short random pauses) until the first has finished. A claim left by a process that
 * stopped mid-work is taken over after `staleAfterMs`; past `waitMs` the caller gives up with 503,
 * never hanging a request.
 *
 * With `redis`, the claim is held in Redis (one command to take, one to release) instead of the
 * store (an insert and a delete, each a write with its indexes): for the paths that take a claim on
 * every request, such as an exam's answer saves. When Redis does not answer, the store's claim is
 * taken instead; callers on the same key must all pass `redis` or none (docs/decisions/101).
 */
export async function serialised<T>(
  db: Connection,
  key: string,
  work: () => Promise<T>,
  { waitMs = 10_000, staleAfterMs = 10_000, redis }: { waitMs?: number; staleAfterMs?: number; redis?: ClaimRedis } = {},
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let release: () => Promise<void>;
    try {
      release =
        (redis ? await claimInRedis(redis, key, staleAfterMs) : null) ??
        (await claimWrite(db, key, () => new ClaimHeld(), staleAfterMs));
    } catch (err) {
      if (!(err instanceof ClaimHeld)) throw err;
      if (Date.now() > deadline) throw new HttpError(503, MSG.overloaded, 'busy', undefined, { 'Retry-After': '1' });
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      continue;
    }
    try {
      return await work();
    } finally {
      await release();
    }
  }
}

/**
 * Runs `work` after the caller's own writes, without a turn for every caller: of the callers that
 * come while a run is under way, the first waits for the next turn and the others leave their writes
 * to it. That run has not begun reading when they find it waiting (it gives up its place, a claim of
 * its own, only as it begins), so it sees what they wrote. A burst of N writes to one course costs
 * two recounts instead of N one after another, each waiter asking the store again and again: that
 * queue once passed its 10 s on a loaded machine and answered 503 to a write that had been made.
 */
export async function coalesced(
  db: Connection,
  key: string,
  work: () => Promise<void>,
  options: { waitMs?: number; staleAfterMs?: number } = {},
): Promise<void> {
  let releaseWaiting: (() => Promise<void>) | null;
  try {
    releaseWaiting = await claimWrite(db, `${key}:waiting`, () => new ClaimHeld(), options.staleAfterMs ?? 10_000);
  } catch (err) {
    if (err instanceof ClaimHeld) return;
    throw err;
  }
  const giveUpPlace = async () => {
    const release = releaseWaiting;
    releaseWaiting = null;
    await release?.();
  };
  try {
    await serialised(
      db,
      key,
      async () => {
        await giveUpPlace();
        await work();
      },
      options,
    );
  } finally {
    await giveUpPlace();
  }
}

/**
 * The check-and-write: updates the document only while its version is the one the command read
 * (which must be one the client expected, when it named any), moving the version on in the same
 * write; concurrent writers of that version are serialised by a claim, so exactly one wins.
 * 412 when the document is there with another version; false when it is gone (the caller's 404).
 */
export async function writeVersioned<T>(
  model: Model<T>,
  doc: Versioned,
  expected: number[] | undefined,
  update: UpdateQuery<T>,
  options: QueryOptions = {},
): Promise<boolean> {
  const base = versionOf(doc);
  assertVersion(doc, expected);
  const release = await claimWrite(model.db, `${model.collection.collectionName}:${String(doc._id)}:${base}`);
  try {
    const filter = { _id: doc._id, ...versionFilter(base) };
    const written = await model.updateOne(
      filter as never,
      { ...update, $inc: { ...(update.$inc ?? {}), version: 1 } } as UpdateQuery<T>,
      options as never,
    );
    if (written.matchedCount > 0) return true;
  } finally {
    await release();
  }
  if (await model.exists({ _id: doc._id } as never)) throw staleDocument();
  return false;
}
