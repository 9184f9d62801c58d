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
