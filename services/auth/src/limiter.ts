import type { Redis } from 'ioredis';

/**
 * Counts failed logins per key (email, address) in a sliding-ish fixed window. Past the limit the
 * key is refused until the window ends, so a real user is locked out for minutes, not for good.
 * Falls back to process memory while Redis is away.
 */
export class LoginLimiter {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly maxFailures: number,
    private readonly windowSeconds: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it may try now. */
  async blockedFor(key: string, limit = this.maxFailures): Promise<number> {
    try {
      const [count, ttl] = await Promise.all([this.redis.get(`auth:fail:${key}`), this.redis.ttl(`auth:fail:${key}`)]);
      return Number(count ?? 0) >= limit ? Math.max(ttl, 1) : 0;
    } catch {
      const entry = this.memory.get(key);
      if (!entry || entry.resetAt <= Date.now() || entry.count < limit) return 0;
      return Math.ceil((entry.resetAt - Date.now()) / 1000);
    }
  }

  async fail(key: string): Promise<void> {
    try {
      await this.redis.multi().incr(`auth:fail:${key}`).expire(`auth:fail:${key}`, this.windowSeconds, 'NX').exec();
    } catch {
      const now = Date.now();
      const entry = this.memory.get(key);
      if (!entry || entry.resetAt <= now) this.memory.set(key, { count: 1, resetAt: now + this.windowSeconds * 1000 });
      else entry.count += 1;
    }
  }

  async reset(key: string): Promise<void> {
    this.memory.delete(key);
    await this.redis.del(`auth:fail:${key}`).catch(() => undefined);
  }
}
