import { Redis } from 'ioredis';
import { uniquePrefix } from './testing';
import { isTestKeySince, removeTestKeys } from './testKeys';

describe('the Redis keys a test run leaves', () => {
  it('names a key of a test prefix made since the run began, and nothing else', () => {
    const since = Date.now();
    const prefix = uniquePrefix().replace(/_$/, '');
    expect(isTestKeySince(`${prefix}:audit:meta`, since)).toBe(true);
    const earlier = `t${(since - 60_000).toString(36)}abcdef`;
    expect(isTestKeySince(`${earlier}:audit:meta`, since)).toBe(false);
    expect(isTestKeySince('portal:audit:meta', since)).toBe(false);
    expect(isTestKeySince('auth:user-version:6b10d9fffa3c1988a7a6fa0e', since)).toBe(false);
    expect(isTestKeySince(`${prefix}`, since)).toBe(false);
  });

  it('keeps the keys of another run going on beside this one, made since this one began', () => {
    const since = Date.now();
    const made = `t${since.toString(36)}0a1b2c`;
    expect(isTestKeySince(`${made}beef:mail:meta`, since, 'beef')).toBe(true);
    expect(isTestKeySince(`${made}f00d:mail:meta`, since, 'beef')).toBe(false);
    expect(isTestKeySince(`${made}:mail:meta`, since, 'beef')).toBe(false);
    // This run's own prefixes carry its id.
    expect(uniquePrefix()).toMatch(new RegExp(`^t[0-9a-z]{8}[0-9a-f]{6}${process.env.PORTAL_TEST_RUN}_$`));
  });

  it('removes the keys of prefixes made since a time from the real Redis, and keeps the others', async () => {
    // A time a year ahead: no test file running beside this one has a prefix that late, so only the
    // keys made here are in question.
    const since = Date.now() + 365 * 24 * 3600 * 1000;
    const ours = `t${(since + 1).toString(36)}0a1b2c`;
    const earlier = `t${(since - 1).toString(36)}abcdef`;
    const portal = `portal${since}`;
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      await redis.set(`${ours}:audit:meta`, '1');
      await redis.rpush(`${ours}:audit:wait`, 'a', 'b');
      await redis.set(`${earlier}:audit:meta`, '1');
      await redis.set(`${portal}:audit:meta`, '1');

      expect(await removeTestKeys(process.env.REDIS_URL!, since)).toBe(2);

      expect(await redis.exists(`${ours}:audit:meta`, `${ours}:audit:wait`)).toBe(0);
      expect(await redis.exists(`${earlier}:audit:meta`, `${portal}:audit:meta`)).toBe(2);
    } finally {
      await redis.del(`${ours}:audit:meta`, `${ours}:audit:wait`, `${earlier}:audit:meta`, `${portal}:audit:meta`);
      redis.disconnect();
    }
  });
});
