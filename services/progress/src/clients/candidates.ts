import { MSG, type CandidateStarted, type LinkScope } from '@portal/contracts';
import { HttpError, unavailable, type Logger, type Upstreams } from '@portal/service-kit';

export interface CandidateCreate {
  fullName: string;
  email: string;
  consentVersion: string;
  scope: LinkScope;
  sessionSeconds: number;
  address: string;
  userAgent: string;
}

export interface CandidatesClient {
  /** A transient CANDIDATE with their consent and a session limited to the scope. */
  create(input: CandidateCreate): Promise<CandidateStarted>;
  /** Deletes link candidates (auth deletes only accounts a link made). */
  purge(userIds: string[]): Promise<number>;
}

/** The auth service's internal candidate routes: accounts, consents and sessions are auth's. */
export function candidatesClient(auth: Upstreams, internalToken: string, logger: Logger, timeoutMs = 10_000): CandidatesClient {
  async function call<T>(path: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await auth.fetch(path, {
        method: 'POST',
        headers: { 'x-internal-token': internalToken, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'auth service unreachable');
      throw unavailable(MSG.serviceUnavailable);
    }
    const answer = (await res.json().catch(() => null)) as (T & { message?: unknown }) | null;
    if (res.ok && answer) return answer;
    // Auth's refusals of what the candidate typed (a consent to an old text) are theirs to read.
    if (res.status >= 400 && res.status < 500 && typeof answer?.message === 'string') {
      throw new HttpError(res.status, answer.message, 'candidate_refused');
    }
    logger.warn({ status: res.status, path }, 'auth service refused a candidate call');
    throw unavailable(MSG.serviceUnavailable);
  }
  return {
    create: (input) => call<CandidateStarted>('/internal/candidates', input),
    async purge(userIds) {
      let deleted = 0;
      for (let i = 0; i < userIds.length; i += 500) {
        deleted += (await call<{ deleted: number }>('/internal/candidates/purge', { ids: userIds.slice(i, i + 500) })).deleted;
      }
      return deleted;
    },
  };
}
