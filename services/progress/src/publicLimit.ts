import type { Context } from 'koa';
import type { Redis } from 'ioredis';
import { countInWindow, tooManyRequests, type Logger } from '@portal/service-kit';

const WINDOW_SECONDS = 60;

/** The address the gateway decided (its only X-Forwarded-For entry), as the login limits count it. */
export const clientAddress = (ctx: Context): string => ctx.request.ips.at(-1) ?? ctx.ip;

/**
 * Requests a minute per client address to one group of public routes (`name`: the candidate links,
 * the certificate check), counted in Redis (INCR + EXPIRE) so every replica shares the count; past
 * the limit 429 with Retry-After and the group's Russian `message`. With Redis away the request
 * passes (logged): these limits are about load, enumeration and noise, not a lock.
 */
export class PublicLimit {
  constructor(
    private readonly redis: Redis,
    private readonly perMinute: number,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly name: string,
    private readonly message: string,
  ) {}

  /** The Redis key of an address (tests clear it). */
  key(address: string): string {
    return `${this.prefix}:progress:${this.name}:rate:${address}`;
  }

  async take(address: string): Promise<void> {
    const hits = await countInWindow(this.redis, this.key(address), WINDOW_SECONDS).catch(() => {
      this.logger.warn({ limit: this.name }, 'public rate not counted: Redis unavailable');
      return null;
    });
    if (!hits || hits.count <= this.perMinute) return;
    throw tooManyRequests(this.message, hits.retryAfter);
  }
}
