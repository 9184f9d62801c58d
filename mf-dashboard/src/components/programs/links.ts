import type { MouseEvent } from 'react';
import { navigate } from '@portal/web-core';

/** A link's click that stays in the portal (history navigation); a new tab or window is left to the browser. */
export const follow = (path: string) => (e: MouseEvent<HTMLAnchorElement>) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(path);
};
