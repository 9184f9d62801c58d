import type { Redis } from 'ioredis';
import { GENERATION_MSG, formatMessage } from '@portal/contracts';
import { HttpError, countInWindow, tooManyRequests, unavailable } from '@portal/service-kit';
import { GenerationFailure } from './failure';

export interface LimitSettings {
  /** Namespaces the keys (the service's QUEUE_PREFIX), so test runs and parallel stacks never meet. */
  prefix: string;
  rateLimit: number;
  rateWindowSeconds: number;
  dailyTokenBudget: number;
}

const DAY_SECONDS = 24 * 60 * 60;

/** The UTC day a token is counted against, and the seconds until the next one starts. */
const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);
export const secondsUntilNextUtcDay = (now = new Date()): number => {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
};

/** Redis away: refuse (503) rather than generate without limits; an HttpError passes as it is. */
const orUnavailable = (err: unknown): never => {
  throw err instanceof HttpError || err instanceof GenerationFailure ? err : unavailable();
};

/**
 * Per-user limits of the course builder, kept in Redis so that every content process counts the
 * same: generations per window (INCR + EXPIRE) and provider tokens per UTC day (INCRBY).
 */
export class GenerationLimits {
  constructor(
    private readonly redis: Redis,
    private readonly settings: LimitSettings,
  ) {}

  private rateKey = (userId: string) => `${this.settings.prefix}:content:generation:rate:${userId}`;
  private tokensKey = (userId: string, day = utcDay()) => `${this.settings.prefix}:content:generation:tokens:${userId}:${day}`;

  /** Counts one generation; past the limit throws 429 with Retry-After until the window ends. */
  async takeGeneration(userId: string): Promise<void> {
    const hits = await countInWindow(this.redis, this.rateKey(userId), this.settings.rateWindowSeconds).catch(orUnavailable);
    if (hits.count <= this.settings.rateLimit) return;
    const minutes = Math.max(1, Math.ceil(hits.retryAfter / 60));
    throw tooManyRequests(formatMessage(GENERATION_MSG.rateLimited, { minutes }), hits.retryAfter);
  }

  async tokensUsed(userId: string): Promise<number> {
    return Number((await this.redis.get(this.tokensKey(userId)).catch(orUnavailable)) ?? 0);
  }

  /** Before a request is accepted: 429 when today's budget is spent. */
  async assertBudgetForRequest(userId: string): Promise<void> {
    if ((await this.tokensUsed(userId)) >= this.settings.dailyTokenBudget)
      throw tooManyRequests(GENERATION_MSG.tokenBudgetExhausted, secondsUntilNextUtcDay());
  }

  /** Before each provider call inside a job: the job fails when the budget ran out midway. */
  async assertBudgetForCall(userId: string): Promise<void> {
    if ((await this.tokensUsed(userId)) >= this.settings.dailyTokenBudget)
      throw new GenerationFailure(GENERATION_MSG.tokenBudgetExhausted);
  }

  async addTokens(userId: string, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    const key = this.tokensKey(userId);
    // Two days, so a key written just before midnight still counts for the day it belongs to.
    await this.redis
      .multi()
      .incrby(key, Math.ceil(tokens))
      .expire(key, 2 * DAY_SECONDS, 'NX')
      .exec();
  }
}
