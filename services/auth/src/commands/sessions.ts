import { createHash, randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { op } from '@portal/service-kit';
import { passwordResetModel, sessionModel } from '../models/session';
import type { UserDoc } from '../models/user';

/** How long a password-reset link works. */
export const RESET_LINK_TTL_MS = 24 * 3_600_000;

const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Seconds of a TOKEN_TTL such as `12h`, `30m`, `90s`, `7d` or `3600` (the config accepts only these forms). */
export function ttlSeconds(ttl: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(ttl.trim());
  if (!match) throw new Error(`TOKEN_TTL: unknown duration ${ttl}`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** Opens a session for a person; its id goes into the token as `sid`. It lives as long as the token. */
export async function openSession(store: Connection, userId: Types.ObjectId | string, ttl: number): Promise<string> {
  const now = Date.now();
  const id = randomId(18);
  await sessionModel(store).create({
    _id: id,
    userId: new Types.ObjectId(String(userId)),
    createdAt: new Date(now),
    expiresAt: new Date(now + ttl * 1000),
  });
  return id;
}

/** True while the session exists, belongs to this person and has not expired. */
export async function sessionIsLive(store: Connection, userId: string, sessionId: string): Promise<boolean> {
  const session = await sessionModel(store).findById(sessionId).lean();
  return !!session && String(session.userId) === userId && session.expiresAt.getTime() > Date.now();
}

/** Ends one session (logout). The caller announces the change, so every service forgets it at once. */
export async function endSession(store: Connection, sessionId: string): Promise<void> {
  await sessionModel(store).deleteOne({ _id: sessionId });
}

/**
 * Ends every session of a person, but `keep` (the session that changed its own password). Call it
 * before `announce(userId)`: the stamp then makes every service look the sessions up again.
 */
export async function endSessionsOf(store: Connection, userId: string, keep?: string): Promise<number> {
  const filter: Record<string, unknown> = { userId: new Types.ObjectId(userId) };
  if (keep) filter._id = op({ $ne: keep });
  const { deletedCount } = await sessionModel(store).deleteMany(filter);
  return deletedCount;
}

/** An email, role or password change ends the person's sessions: what they signed in as is gone. */
export const changeEndsSessions = (before: Pick<UserDoc, 'email' | 'role'>, after: Pick<UserDoc, 'email' | 'role'>) =>
  before.email !== after.email || before.role !== after.role;

/** Drops expired sessions and reset links (FerretDB has no TTL indexes); they are refused anyway. */
export async function sweepExpired(store: Connection): Promise<void> {
  const expired = { expiresAt: op({ $lte: new Date() }) };
  await Promise.all([sessionModel(store).deleteMany(expired), passwordResetModel(store).deleteMany(expired)]);
}

/**
 * Issues a one-time reset link for a person. Only the token's SHA-256 is stored (a leaked database
 * holds no working link); an older link of the same person stops working. Deleting the older ones
 * here is only tidying: requests issuing at the same moment each delete before the others insert,
 * so what makes exactly one link work is the check of `liveLink` that a link is its person's newest.
 */
export async function issueResetLink(
  store: Connection,
  userId: Types.ObjectId,
  createdBy: string,
): Promise<{ token: string; expiresAt: Date }> {
  await passwordResetModel(store).deleteMany({ userId });
  const [link] = await issueFirstLinks(store, [userId], createdBy);
  return link;
}

/**
 * Set-password links for people who have none yet (accounts just made): one write for all of them,
 * each link as issueResetLink's, in the order of `userIds`.
 */
export async function issueFirstLinks(
  store: Connection,
  userIds: Types.ObjectId[],
  createdBy: string,
): Promise<Array<{ token: string; expiresAt: Date }>> {
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + RESET_LINK_TTL_MS);
  const links = userIds.map((userId) => ({ userId, token: randomId(32) }));
  if (links.length)
    await passwordResetModel(store).insertMany(
      links.map(({ userId, token }) => ({
        _id: sha256(token),
        userId,
        createdBy: new Types.ObjectId(createdBy),
        createdAt,
        expiresAt,
      })),
    );
  return links.map(({ token }) => ({ token, expiresAt }));
}

/**
 * The stored link of a token while it works: not expired, and its person's newest (by issue time,
 * then by id, so two issued in the same millisecond still have one newest). Under any concurrency
 * of issuing, exactly one link of a person is the newest.
 */
async function liveLink(store: Connection, token: string) {
  const links = passwordResetModel(store);
  const link = await links.findById(sha256(token)).lean();
  if (!link || link.expiresAt.getTime() <= Date.now()) return null;
  const newest = await links.findOne({ userId: link.userId }, { _id: 1 }).sort({ createdAt: -1, _id: -1 }).lean();
  return newest?._id === link._id ? link : null;
}

/** The person a live reset token is for, or null (unknown, used, expired or replaced by a newer one). Does not use it up. */
export async function resetLinkOwner(store: Connection, token: string): Promise<Types.ObjectId | null> {
  return (await liveLink(store, token))?.userId ?? null;
}

/**
 * Uses a reset token up: true for the one request that deleted it while it was live. The person's
 * older links go with it, so none of them becomes the newest once this one is gone.
 */
export async function consumeResetLink(store: Connection, token: string): Promise<boolean> {
  const links = passwordResetModel(store);
  const link = await liveLink(store, token);
  if (!link) return false;
  const { deletedCount } = await links.deleteOne({ _id: link._id, expiresAt: op({ $gt: new Date() }) });
  if (deletedCount !== 1) return false;
  await links.deleteMany({
    userId: link.userId,
    ...(link.createdAt
      ? op({ $or: [{ createdAt: op({ $lte: link.createdAt }) }, { createdAt: op({ $exists: false }) }] })
      : { createdAt: op({ $exists: false }) }),
  });
  return true;
}
