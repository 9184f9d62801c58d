import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { readAgain } from './queryClient';

/*
 * A list on screen whose first read began before a write and is answered after it, as a search typed
 * just before a delete is when the server is busy: what the list shows once the write's refresh is done.
 */

const KEY: QueryKey = ['crm', 'organizations', { search: '7789139382' }];

function slowServer() {
  let organizations = ['ООО Маршрут'];
  let releaseFirst: () => void = () => undefined;
  let reads = 0;
  const queryFn = ({ signal }: { signal: AbortSignal }) => {
    const answer = [...organizations]; // the server reads now...
    reads += 1;
    if (reads > 1) return Promise.resolve(answer);
    return new Promise<string[]>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')));
      releaseFirst = () => resolve(answer); // ...and its answer arrives later
    });
  };
  return {
    queryFn,
    deleteAll: () => (organizations = []),
    releaseFirst: () => releaseFirst(),
    reads: () => reads,
  };
}

async function listAfterWrite(refresh: (client: QueryClient) => Promise<unknown>): Promise<string[] | undefined> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const server = slowServer();
  const list = new QueryObserver(client, { queryKey: KEY, queryFn: server.queryFn });
  const stop = list.subscribe(() => undefined);
  try {
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.reads()).toBe(1); // the first read is under way
    server.deleteAll();
    const refreshed = refresh(client);
    server.releaseFirst();
    await refreshed;
    await new Promise((resolve) => setTimeout(resolve, 0));
    return list.getCurrentResult().data;
  } finally {
    stop();
    client.clear();
  }
}

it('after readAgain the list shows what the server holds after the write, not the first read begun before it', async () => {
  expect(await listAfterWrite((client) => readAgain(client, ['crm']))).toEqual([]);
});

it('(why readAgain exists) a bare invalidation lets that first read stand, so the deleted row stays on screen', async () => {
  expect(await listAfterWrite((client) => client.invalidateQueries({ queryKey: ['crm'] }))).toEqual(['ООО Маршрут']);
});
