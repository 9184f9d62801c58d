import type { Redis } from 'ioredis';
import type { Role } from '@portal/contracts';
import type { Logger } from './logger';

/** The person behind a request, as the auth service knows them now (not as the token remembers). */
export interface Principal {
  id: string;
  role: Role;
  fullName: string;
  email: string;
}

export type PrincipalLookup = (id: string) => Promise<Principal | null>;

export const USER_CHANGED_CHANNEL = 'auth:user-changed';

interface CacheEntry {
  value: Principal | null;
  expires: number;
}

/**
 * Caches lookups briefly in memory. The auth service announces every change of a user on a Redis
 * channel, so a role change or a deletion takes effect on the next request; if Redis is away, the
 * short TTL bounds how long a stale answer can live.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly ttlMs = 10_000,
  ) {}

  async get(id: string): Promise<Principal | null> {
    const hit = this.entries.get(id);
    if (hit && hit.expires > Date.now()) return hit.value;
    const value = await this.lookup(id);
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(id, { value, expires: Date.now() + this.ttlMs });
    return value;
  }

  evict(id: string): void {
    this.entries.delete(id);
  }

  /** Subscribes on a dedicated connection (a subscribed ioredis client can do nothing else). */
  listen(subscriber: Redis, logger: Logger): void {
    subscriber.on('message', (_channel: string, id: string) => this.evict(id));
    subscriber.on('ready', () => {
      // Anything may have changed while we were disconnected.
      this.entries.clear();
      subscriber.subscribe(USER_CHANGED_CHANNEL).catch((err: Error) => logger.warn({ err }, 'subscribe failed'));
    });
  }
}

/** Asks the auth service's internal route; used by every service but auth itself. */
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

export const httpPrincipalLookup =
  (authUrl: string, internalToken: string): PrincipalLookup =>
  async (id) => {
    const res = await fetch(`${authUrl}/internal/users/${encodeURIComponent(id)}`, {
      headers: { 'x-internal-token': internalToken },
      signal: AbortSignal.timeout(2000),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new PrincipalLookupError(res.status, await readMessage(res));
    return (await res.json()) as Principal;
  };
