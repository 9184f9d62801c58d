import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MSG } from '@portal/contracts';
import type { Middleware } from './context';
import { HttpError, badRequest, conflict } from './errors';
import type { Logger } from './logger';

/** What a create remembers under its key: still running, or the answer to give again. */
type Remembered = { fingerprint: string } & ({ state: 'running' } | { state: 'done'; status: number; body: unknown });

export interface IdempotencyOptions {
  /** How long an answer is given again for its key (a day: a client retrying after a lost answer). */
  ttlSeconds?: number;
  /** How long a second request with the key waits for the first one's answer before 409. */
  waitMs?: number;
}

const KEY = /^[\x21-\x7e]{1,255}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Honours an `Idempotency-Key` header on a create route (after `authenticate`): the first request
 * with a key runs and its successful answer is kept in Redis for `ttlSeconds`; a repeat by the same
 * person with the same key and the same request gets that answer again (with
 * `Idempotent-Replayed: true`) and creates nothing. A repeat while the first still runs waits for it
 * (then 409 if it is still running). The same key with another request is 422. A refusal or an error
 * is not kept, so a retry runs again. Keys are per person: one person's key never answers another.
 * Without Redis the request runs as if it had no key (logged): a create must still be safe on its own.
 */
export function idempotent(
  service: { redis: Redis; config: { QUEUE_PREFIX: string }; logger: Logger },
  { ttlSeconds = 24 * 3600, waitMs = 10_000 }: IdempotencyOptions = {},
): Middleware {
  const { redis, logger } = service;
  return async (ctx, next) => {
    const header = ctx.get('idempotency-key');
    if (!header) return next();
    if (!KEY.test(header)) throw badRequest(MSG.idempotencyKeyInvalid, 'Idempotency-Key');
    const person = (ctx.state.user as { id?: string } | undefined)?.id ?? `address:${ctx.ip}`;
    const key = `${service.config.QUEUE_PREFIX}:idempotency:${sha256(`${person}\n${header}`)}`;
    const fingerprint = sha256(`${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`);

    const running: Remembered = { fingerprint, state: 'running' };
    let claimed: string | null;
    try {
      claimed = await redis.set(key, JSON.stringify(running), 'EX', ttlSeconds, 'NX');
    } catch {
      logger.warn('Idempotency-Key not honoured: Redis unavailable');
      return next();
    }
    if (!claimed) return replay(ctx, await awaitAnswer(redis, key, fingerprint, waitMs));

    try {
      await next();
    } catch (err) {
      await redis.del(key).catch(() => undefined);
      throw err;
    }
    const kept = ctx.status >= 200 && ctx.status < 300 && isJson(ctx.body);
    const done: Remembered = { fingerprint, state: 'done', status: ctx.status, body: ctx.body };
    await (kept ? redis.set(key, JSON.stringify(done), 'EX', ttlSeconds, 'XX') : redis.del(key)).catch(() =>
      logger.warn('Idempotency-Key answer not kept: Redis unavailable'),
    );
  };
}

const isJson = (body: unknown): boolean =>
  body === null || (typeof body === 'object' && !Buffer.isBuffer(body) && !('pipe' in body));

async function awaitAnswer(redis: Redis, key: string, fingerprint: string, waitMs: number): Promise<Remembered | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const stored = await redis.get(key).catch(() => null);
    const remembered = stored ? (JSON.parse(stored) as Remembered) : null;
    if (remembered && remembered.fingerprint !== fingerprint)
      throw new HttpError(422, MSG.idempotencyKeyReused, 'idempotency_key_reused', 'Idempotency-Key');
    // Gone: the first request failed and released the key; this one is told to send it again.
    if (!remembered || remembered.state === 'done') return remembered;
    if (Date.now() > deadline) throw conflict(MSG.idempotencyInProgress, 'Idempotency-Key');
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
  }
}

function replay(ctx: Parameters<Middleware>[0], remembered: Remembered | null): void {
  if (!remembered || remembered.state !== 'done') throw conflict(MSG.idempotencyInProgress, 'Idempotency-Key');
  ctx.set('Idempotent-Replayed', 'true');
  ctx.status = remembered.status;
  ctx.body = remembered.body;
}
