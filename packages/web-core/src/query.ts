import { QueryClient } from '@tanstack/react-query';

/** One query cache for the page (spec section 7: retry once, no refetch on window focus). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: 0 },
  },
});
