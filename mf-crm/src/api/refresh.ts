import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/** Reads again every query under the given keys, after a change that touches them (lists, counts). */
export function useRefresh() {
  const queryClient = useQueryClient();
  return (...keys: QueryKey[]) => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
