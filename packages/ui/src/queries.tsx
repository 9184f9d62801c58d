import type { ComponentType } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@portal/web-core/query';

/**
 * A component inside the page's one query cache. Apart from the kit's other providers, so that a root
 * without server lists (the landing for a visitor, the header) loads no TanStack Query: the landing's
 * sign-in and the header's bell wrap only themselves, in chunks of their own.
 */
export function withQueries<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  const WithQueries = (props: P) => (
    <QueryClientProvider client={queryClient}>
      <Component {...props} />
    </QueryClientProvider>
  );
  WithQueries.displayName = `withQueries(${Component.displayName ?? Component.name})`;
  return WithQueries;
}
