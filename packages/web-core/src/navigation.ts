import { useSyncExternalStore } from 'react';

/** Navigation shared by every micro-frontend: history API plus an event single-spa listens to. */
export function navigate(path: string, { replace = false } = {}): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  // single-spa patches history and reroutes; listeners of popstate-like changes update too.
  window.dispatchEvent(new CustomEvent('portal:navigate'));
}

const subscribe = (listener: () => void) => {
  window.addEventListener('popstate', listener);
  window.addEventListener('portal:navigate', listener);
  window.addEventListener('single-spa:routing-event', listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener('portal:navigate', listener);
    window.removeEventListener('single-spa:routing-event', listener);
  };
};

export const usePathname = (): string => useSyncExternalStore(subscribe, () => window.location.pathname);

/** The address's query (`?filter=assigned`), which some header links open a view of their page with. */
export const useSearch = (): string => useSyncExternalStore(subscribe, () => window.location.search);
