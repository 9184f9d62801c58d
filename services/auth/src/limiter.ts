import type { Redis } from 'ioredis';

export interface LimitedKey {
  key: string;
  limit: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a check may wait for the checks already running on its key before it gives up (429). */
const QUEUE_WAIT_MS = 3000;
/** A running check that never reported back (its process died) stops counting after this. */
const BUSY_TTL_SECONDS = 30;

/**
 * Counts failed logins per key (an email; an address together with an email) in a fixed window. Past the limit the key is refused
 * until the window ends, so a real user is locked out for minutes, not for good.
 *
 * Checks still running count against the limit too: otherwise a burst of parallel guesses all pass
 * the limit before the first failure is counted. A check that would go over only because of running
 * ones waits for them (a person signing in from two tabs at once still gets in) instead of being
 * refused. Keys live under the service's database prefix, so stacks and test files sharing one Redis
 * never lock each other out. Falls back to process memory while Redis is away.
 */
export class LoginLimiter {
  private readonly memory = new Map<string, { fails: number; busy: number; resetAt: number }>();

  constructor(
    private readonly redis: Redis,
    readonly maxFailures: number,
    private readonly windowSeconds: number,
    private readonly namespace = '',
  ) {}

  /** The Redis key of a key's failures (tests use it to let a window pass). */
  failKey(key: string): string {
    return `auth:fail:${this.namespace}${key}`;
  }

  private busyKey(key: string): string {
    return `auth:busy:${this.namespace}${key}`;
  }

  /**
   * Claims a check on every key: 0 when the password may be checked now (call `finish` after),
   * otherwise the seconds to wait (nothing is claimed).
   */
  async claim(keys: LimitedKey[]): Promise<number> {
    const deadline = Date.now() + QUEUE_WAIT_MS;
    for (;;) {
      const states = await Promise.all(keys.map(({ key }) => this.enter(key)));
      const locked = states.map(({ fails, ttl }, i) => (fails >= keys[i].limit ? Math.max(ttl, 1) : 0));
      const crowded = states.some(({ fails, busy }, i) => fails + busy > keys[i].limit);
      if (!locked.some(Boolean) && !crowded) return 0;
      await Promise.all(keys.map(({ key }) => this.leave(key)));
      if (locked.some(Boolean)) return Math.max(...locked);
      if (Date.now() > deadline) return 1;
      await sleep(50 + Math.random() * 50);
    }
  }

  /**
   * Ends a claimed check: a failure counts on every key; a success clears them all (whoever knows
   * the password is not guessing); a check that could not run (the store was away) counts for nothing.
   */
  async finish(keys: LimitedKey[], outcome: 'ok' | 'failed' | 'aborted'): Promise<void> {
    // The failure is counted before the claim is given up: in between, a waiting check would see neither.
    if (outcome === 'failed') await Promise.all(keys.map(({ key }) => this.fail(key)));
    if (outcome === 'ok') {
      for (const { key } of keys) {
        const entry = this.memory.get(key);
        if (entry) entry.fails = 0;
      }
      await this.redis.del(...keys.map(({ key }) => this.failKey(key))).catch(() => undefined);
    }
    await Promise.all(keys.map(({ key }) => this.leave(key)));
  }

  private local(key: string) {
    const now = Date.now();
    let entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { fails: 0, busy: entry?.busy ?? 0, resetAt: now + this.windowSeconds * 1000 };
      this.memory.set(key, entry);
    }
    return entry;
  }

  private async enter(key: string): Promise<{ fails: number; busy: number; ttl: number }> {
    try {
      const busyKey = this.busyKey(key);
      const results = await this.redis
        .multi()
        .incr(busyKey)
        .expire(busyKey, BUSY_TTL_SECONDS)
        .get(this.failKey(key))
        .ttl(this.failKey(key))
        .exec();
      if (!results || results.some(([err]) => err)) throw new Error('limiter transaction failed');
      // Our own claim is in `busy`; the others running are busy - 1.
      return { busy: Number(results[0][1]), fails: Number(results[2][1] ?? 0), ttl: Number(results[3][1]) };
    } catch {
      const entry = this.local(key);
      entry.busy += 1;
      return { busy: entry.busy, fails: entry.fails, ttl: Math.ceil((entry.resetAt - Date.now()) / 1000) };
    }
  }

  private async leave(key: string): Promise<void> {
    const entry = this.memory.get(key);
    if (entry && entry.busy > 0) entry.busy -= 1;
    // Never below zero, never without its expiry: a key that expired meanwhile is left alone.
    await this.redis
      .eval(
        "local v = tonumber(redis.call('GET', KEYS[1]) or '0') if v > 0 then return redis.call('DECR', KEYS[1]) end return 0",
        1,
        this.busyKey(key),
      )
      .catch(() => undefined);
  }

  private async fail(key: string): Promise<void> {
    try {
      const failKey = this.failKey(key);
      await this.redis.multi().incr(failKey).expire(failKey, this.windowSeconds, 'NX').exec();
    } catch {
      this.local(key).fails += 1;
    }
  }
}
