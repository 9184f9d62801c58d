import { MSG } from '@portal/contracts';
import { unavailable, type Principal, type Upstreams } from '@portal/service-kit';

/** People as the auth service knows them: the content service keeps only their ids. */
export interface UserDirectory {
  byEmail(email: string): Promise<Principal | null>;
  byIds(ids: string[]): Promise<Principal[]>;
}

/** Asks the auth service's internal route (never exposed by the gateway) with the internal token. */
export function authUserDirectory(auth: Upstreams, internalToken: string): UserDirectory {
  const ask = async (query: string): Promise<Principal[]> => {
    let res: Response;
    try {
      res = await auth.fetch(`/internal/users?${query}`, {
        headers: { 'x-internal-token': internalToken },
        signal: AbortSignal.timeout(2000),
      });
    } catch {
      throw unavailable(MSG.serviceUnavailable);
    }
    if (!res.ok) throw unavailable(MSG.serviceUnavailable);
    return ((await res.json()) as { data: Principal[] }).data;
  };
  return {
    async byEmail(email) {
      return (await ask(`email=${encodeURIComponent(email)}`))[0] ?? null;
    },
    async byIds(ids) {
      return ids.length ? ask(`ids=${ids.map(encodeURIComponent).join(',')}`) : [];
    },
  };
}
