/**
 * What lives between the steps of a corporate sign-in, in Redis (any replica may receive the next
 * step), each read once (GETDEL) and gone after a short time: an attempt's secrets by its `state`
 * until the callback, then the one-time code /auth exchanges for a session, then the ID token a
 * sign-out hints the provider with, by session.
 */
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Attempt } from './relyingParty';

/** How long the provider's login page may take: the attempt is forgotten after. */
export const ATTEMPT_TTL_SECONDS = 600;
/** How long /auth has to exchange the code it was sent back with. */
export const CODE_TTL_SECONDS = 60;

export interface Handover {
  userId: string;
  /** How the person was found, for the audit record. */
  outcome: 'found' | 'linked' | 'created';
  idToken?: string;
}

export class SignInSteps {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key = (kind: string, id: string) => `auth:oidc:${kind}:${this.prefix}${id}`;

  async keepAttempt(state: string, attempt: Attempt): Promise<void> {
    await this.redis.set(this.key('attempt', state), JSON.stringify(attempt), 'EX', ATTEMPT_TTL_SECONDS);
  }

  /** The attempt of this state, once: a replayed or unknown state finds nothing. */
  async takeAttempt(state: string): Promise<Attempt | null> {
    const stored = await this.redis.getdel(this.key('attempt', state));
    return stored ? (JSON.parse(stored) as Attempt) : null;
  }

  async issueCode(handover: Handover): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.redis.set(this.key('code', code), JSON.stringify(handover), 'EX', CODE_TTL_SECONDS);
    return code;
  }

  async takeCode(code: string): Promise<Handover | null> {
    const stored = await this.redis.getdel(this.key('code', code));
    return stored ? (JSON.parse(stored) as Handover) : null;
  }

  async keepIdToken(sessionId: string, idToken: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.key('session', sessionId), idToken, 'EX', ttlSeconds);
  }

  async idTokenOf(sessionId: string): Promise<string | null> {
    return this.redis.get(this.key('session', sessionId));
  }
}
