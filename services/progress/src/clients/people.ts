import { MSG, type Role } from '@portal/contracts';
import { unavailable, type Logger, type Principal, type Upstreams } from '@portal/service-kit';

/**
 * A page of an assignment's audience as the auth service resolves it now. The auth service counts
 * the total to LIST_TOTAL_CAP at most: past it, `totalExact: false` and more people follow.
 */
export interface AudiencePage {
  data: Principal[];
  total: number;
  totalExact?: false;
}

/**
 * Whether `page` (of `size` people) ends the audience: past an exact total, or, when the total
 * stopped at the cap, the first page that is not full.
 */
export function endsAudience(batch: AudiencePage, page: number, size: number): boolean {
  return batch.totalExact === false ? batch.data.length < size : page * size >= batch.total;
}

export interface AudienceQuery {
  department?: string;
  role?: Role;
  /** At most 100. */
  ids?: string[];
  page: number;
  limit: number;
}

export interface PeopleClient {
  audience(query: AudienceQuery): Promise<AudiencePage>;
  /** People of any role by id (at most 100): a curator, to be told of their assignment. */
  users(ids: string[]): Promise<Principal[]>;
}

/** Asks the auth service's internal audience route: this service keeps only people's ids. */
export function peopleClient(auth: Upstreams, internalToken: string, logger: Logger, timeoutMs = 5000): PeopleClient {
  const ask = async <T>(path: string): Promise<T> => {
    let res: Response;
    try {
      res = await auth.fetch(path, {
        headers: { 'x-internal-token': internalToken, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'auth service unreachable');
      throw unavailable(MSG.serviceUnavailable);
    }
    if (!res.ok) {
      logger.warn({ status: res.status, path: path.replace(/\?.*/, '') }, 'auth service refused');
      throw unavailable(MSG.serviceUnavailable);
    }
    return (await res.json()) as T;
  };
  return {
    async users(ids) {
      if (!ids.length) return [];
      const query = new URLSearchParams({ ids: ids.slice(0, 100).join(',') });
      return (await ask<{ data: Principal[] }>(`/internal/users?${query}`)).data;
    },
    async audience({ department, role, ids, page, limit }) {
      const query = new URLSearchParams({ page: String(page), limit: String(limit) });
      if (department) query.set('department', department);
      if (role) query.set('role', role);
      if (ids) query.set('ids', ids.join(','));
      return ask<AudiencePage>(`/internal/audience?${query}`);
    },
  };
}
