import type { Redis } from 'ioredis';
import { CANDIDATE_LINK_MSG } from '@portal/contracts';
import { countInWindow, tooManyRequests, type Logger } from '@portal/service-kit';

const WINDOW_SECONDS = 60;

/**
 * Requests a minute per client address to the public link routes, counted in Redis (INCR + EXPIRE)
 * so every replica shares the count; past the limit 429 with Retry-After. Tokens are 256-bit random
 * values, so this is about load and noise more than guessing. With Redis away the request passes (logged).
 */
export class PublicLinkLimit {
  constructor(
    private readonly redis: Redis,
    private readonly perMinute: number,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  /** The Redis key of an address (tests clear it). */
  key(address: string): string {
    return `${this.prefix}:progress:candidate-link:rate:${address}`;
  }

  async take(address: string): Promise<void> {
    const hits = await countInWindow(this.redis, this.key(address), WINDOW_SECONDS).catch(() => {
      this.logger.warn('candidate link rate not counted: Redis unavailable');
      return null;
    });
    if (!hits || hits.count <= this.perMinute) return;
    throw tooManyRequests(CANDIDATE_LINK_MSG.tooManyRequests, hits.retryAfter);
  }
}
