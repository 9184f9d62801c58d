import { Redis } from 'ioredis';
import type { Logger } from './logger';

/**
 * Redis connections. `failFast` ones refuse commands while disconnected (publishers must not hang a
 * request); BullMQ workers and subscribers need `maxRetriesPerRequest: null` and wait instead.
 */
export const createRedis = (url: string, logger: Logger, { failFast = false } = {}): Redis => {
  const redis = new Redis(url, {
    maxRetriesPerRequest: failFast ? 1 : null,
    enableOfflineQueue: !failFast,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let warned = false;
  redis.on('error', (err) => {
    if (!warned) logger.warn({ err: err.message }, 'redis unavailable');
    warned = true;
  });
  redis.on('ready', () => {
    if (warned) logger.info('redis back');
    warned = false;
  });
  return redis;
};

export const redisIsUp = async (redis: Redis): Promise<boolean> => (await redis.ping()) === 'PONG';

/** The hits of a key in its current window, and the seconds until the window ends (a 429's Retry-After). */
export interface WindowCount {
  count: number;
  retryAfter: number;
}

/**
 * Counts one hit of `key` in a fixed window that every replica shares (INCR, and EXPIRE when the
 * window opens). A rejected promise means Redis is away: the caller says whether that lets the
 * request through or refuses it.
 */
export async function countInWindow(redis: Redis, key: string, windowSeconds: number): Promise<WindowCount> {
  const replies = await redis.multi().incr(key).expire(key, windowSeconds, 'NX').ttl(key).exec();
  const ttl = Number(replies?.[2]?.[1] ?? windowSeconds);
  return { count: Number(replies?.[0]?.[1] ?? 0), retryAfter: ttl > 0 ? ttl : windowSeconds };
}
