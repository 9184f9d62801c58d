import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '@portal/web-core';

/**
 * A link to another screen of the portal: a plain click moves inside the page (single-spa routes
 * it); a click with a modifier or the middle button opens a tab as any link does.
 */
export function AppLink({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}
