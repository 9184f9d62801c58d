import type { Redis } from 'ioredis';

export interface LimitedKey {
  key: string;
  limit: number;
}

/**
 * Counts failed logins per key (email, address) in a fixed window. Past the limit the key is refused
 * until the window ends, so a real user is locked out for minutes, not for good.
 *
 * An attempt is counted before the password is checked and given back when it succeeds or is
 * refused: a check-then-count limiter lets a burst of parallel guesses all pass the check before the
 * first failure is counted. Keys live under the service's database prefix, so stacks and test
 * files sharing one Redis never lock each other out. Falls back to process memory while Redis is away.
 */
export class LoginLimiter {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly redis: Redis,
    readonly maxFailures: number,
    private readonly windowSeconds: number,
    private readonly namespace = '',
  ) {}

  /** The Redis key of a counted key (for tests that let a window pass). */
  redisKey(key: string): string {
    return `auth:fail:${this.namespace}${key}`;
  }

  /**
   * Counts one attempt on every key; answers the seconds to wait when any key is over its limit (the
   * attempt is then given back, since nothing was tried), or 0 when the password may be checked.
   */
  async attempt(keys: LimitedKey[]): Promise<number> {
    const counted = await Promise.all(keys.map(({ key }) => this.increment(key)));
    const waits = counted.map(({ count, ttl }, i) => (count > keys[i].limit ? Math.max(ttl, 1) : 0));
    const wait = Math.max(0, ...waits);
    if (wait > 0) await Promise.all(keys.map(({ key }) => this.giveBack(key)));
    return wait;
  }

  /** A success: the email starts afresh; the address only gets its attempt back (others may still be guessing). */
  async succeeded(cleared: string, givenBack: string[]): Promise<void> {
    this.memory.delete(cleared);
    await this.redis.del(this.redisKey(cleared)).catch(() => undefined);
    await Promise.all(givenBack.map((key) => this.giveBack(key)));
  }

  private async increment(key: string): Promise<{ count: number; ttl: number }> {
    const redisKey = this.redisKey(key);
    try {
      const results = await this.redis.multi().incr(redisKey).expire(redisKey, this.windowSeconds, 'NX').ttl(redisKey).exec();
      if (!results || results.some(([err]) => err)) throw new Error('limiter transaction failed');
      return { count: Number(results[0][1]), ttl: Number(results[2][1]) };
    } catch {
      const now = Date.now();
      let entry = this.memory.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + this.windowSeconds * 1000 };
        this.memory.set(key, entry);
      }
      entry.count += 1;
      return { count: entry.count, ttl: Math.ceil((entry.resetAt - now) / 1000) };
    }
  }

  private async giveBack(key: string): Promise<void> {
    const entry = this.memory.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
    // DECR of a key that expired meanwhile would create it without a window: only touch existing ones.
    await this.redis
      .eval("if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0", 1, this.redisKey(key))
      .catch(() => undefined);
  }
}
