import type { Redis } from 'ioredis';
import type { LinkScope, Role } from '@portal/contracts';
import type { Logger } from './logger';
import type { Upstreams } from './upstreams';

/** The person behind a request, as the auth service knows them now (not as the token remembers). */
export interface Principal {
  id: string;
  role: Role;
  fullName: string;
  email: string;
  /** Where they work (assignments addressed to a department reach them); '' when not set. */
  department?: string;
  /** A candidate «по ссылке»: the session reaches this quiz only (`linkSessionAllows`). */
  linkScope?: LinkScope;
  /**
   * Whether their consent to the current text of the consent (152-FZ) is in force: set on the
   * principal of a session (giving or withdrawing it is a change of the user, so every cache drops
   * the old answer); `requireConsent` refuses learning without it.
   */
  consentGiven?: boolean;
}

/** The person behind a session: null when the user is gone or the session has ended. */
export type PrincipalLookup = (id: string, sessionId: string) => Promise<Principal | null>;

export const USER_CHANGED_CHANNEL = 'auth:user-changed';

/** Where the auth service stamps a new value each time a user changes (read by every service). */
export const userVersionKey = (id: string) => `auth:user-version:${id}`;
/** A stamp outlives any cache entry by far; when it expires, entries made before are simply looked up again. */
export const USER_VERSION_TTL_SECONDS = 86_400;

/** The stamp of a user's last change: null when none is known, undefined when it cannot be read now. */
export type VersionLookup = (id: string) => Promise<string | null | undefined>;

interface CacheEntry {
  value: Principal | null;
  lookedUpAt: number;
  version: string | null | undefined;
}

/** How long a cached answer may serve, by whether the user's change stamp could be read now. */
export interface PrincipalCacheLifetimes {
  /** The stamp was read and matches: the stamp is what keeps the answer right, this only frees memory. */
  stampedMs: number;
  /** The stamp cannot be read (Redis away or frozen): the only bound on a stale answer. */
  unstampedMs: number;
}

/** Stamped answers serve for minutes (an exam's learners are looked up once, not every 10 s). */
export const PRINCIPAL_CACHE_LIFETIMES: PrincipalCacheLifetimes = { stampedMs: 300_000, unstampedMs: 10_000 };

/**
 * Caches lookups in memory, per user and session. Every hit is checked against the user's change
 * stamp in Redis (one GET): the auth service writes a new stamp before it answers a change (a role,
 * a deletion, an ended session, a suspension by the directory, a consent given or withdrawn), so it
 * takes effect on the very next request in every service, whatever the order in which this process
 * reads its sockets. While the stamp matches, the answer serves for `stampedMs`; a session's own end
 * by time needs no stamp, since the token carrying it expires with it. The stamp is per user: ending
 * one session looks up the user's other sessions again once, which is cheap and keeps one key per
 * user. The channel only frees memory early. If Redis is away, `unstampedMs` bounds how long an
 * answer can live, and a subscriber that reconnects forgets everything.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Map<string, CacheEntry>>();
  private size = 0;

  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly lifetimes: PrincipalCacheLifetimes = PRINCIPAL_CACHE_LIFETIMES,
    private readonly versionOf: VersionLookup = async () => undefined,
  ) {}

  async get(id: string, sessionId: string): Promise<Principal | null> {
    const version = await this.versionOf(id);
    const hit = this.entries.get(id)?.get(sessionId);
    if (hit && this.serves(hit, version)) return hit.value;
    const value = await this.lookup(id, sessionId);
    if (this.size > 50_000) this.clear();
    let sessions = this.entries.get(id);
    if (!sessions) this.entries.set(id, (sessions = new Map()));
    if (!sessions.has(sessionId)) this.size += 1;
    sessions.set(sessionId, { value, lookedUpAt: Date.now(), version });
    return value;
  }

  private serves(hit: CacheEntry, version: string | null | undefined): boolean {
    const age = Date.now() - hit.lookedUpAt;
    if (version === undefined) return age < this.lifetimes.unstampedMs;
    return hit.version === version && age < this.lifetimes.stampedMs;
  }

  /** Forgets every session of a user. */
  evict(id: string): void {
    this.size -= this.entries.get(id)?.size ?? 0;
    this.entries.delete(id);
  }

  private clear(): void {
    this.entries.clear();
    this.size = 0;
  }

  /** Subscribes on a dedicated connection (a subscribed ioredis client can do nothing else). */
  listen(subscriber: Redis, logger: Logger): void {
    subscriber.on('message', (_channel: string, id: string) => this.evict(id));
    subscriber.on('ready', () => {
      // Anything may have changed while we were disconnected.
      this.clear();
      subscriber.subscribe(USER_CHANGED_CHANNEL).catch((err: Error) => logger.warn({ err }, 'subscribe failed'));
    });
  }
}

/**
 * Reads change stamps from Redis; any failure, or no answer within `deadlineMs` (a frozen Redis),
 * reads as "unknown now", so a request never waits on Redis for longer than that.
 */
export const redisVersionLookup =
  (redis: Redis, deadlineMs = 250): VersionLookup =>
  (id) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), deadlineMs);
      redis.get(userVersionKey(id)).then(
        (version) => {
          clearTimeout(timer);
          resolve(version);
        },
        () => {
          clearTimeout(timer);
          resolve(undefined);
        },
      );
    });

/** Stamps a change of a user (before answering it) and tells every service to drop its cached copy. */
export async function announceUserChange(redis: Redis, id: string): Promise<void> {
  await redis
    .set(userVersionKey(id), `${Date.now()}-${Math.random().toString(36).slice(2)}`, 'EX', USER_VERSION_TTL_SECONDS)
    .catch(() => undefined);
  await redis.publish(USER_CHANGED_CHANNEL, id).catch(() => undefined);
}

/** Auth answered but could not say who it is; its own message (e.g. the store is down) is passed on. */
export class PrincipalLookupError extends Error {
  constructor(
    readonly status: number,
    readonly userMessage: string | null,
  ) {
    super(`auth lookup failed: ${status}`);
  }
}

const readMessage = async (res: Response): Promise<string | null> => {
  const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
  return typeof body?.message === 'string' ? body.message : null;
};

/** Asks the auth service's internal route; used by every service but auth itself. */
export const httpPrincipalLookup =
  (auth: Upstreams, internalToken: string): PrincipalLookup =>
  async (id, sessionId) => {
    const res = await auth.fetch(`/internal/users/${encodeURIComponent(id)}?session=${encodeURIComponent(sessionId)}`, {
      headers: { 'x-internal-token': internalToken },
      signal: AbortSignal.timeout(2000),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new PrincipalLookupError(res.status, await readMessage(res));
    return (await res.json()) as Principal;
  };
