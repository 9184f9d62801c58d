import { createContext, useContext, useEffect } from 'react';

/**
 * True only in the build's pre-render of the landing (`src/prerender.tsx`): the HTML a visitor sees
 * before the scripts come. A control that needs a script renders disabled there; links work as links.
 */
export const Prerendering = createContext(false);

export const usePrerendering = (): boolean => useContext(Prerendering);

/** The attribute of the pre-render's <style> elements in the page's head. */
export const PRERENDERED_CSS_ATTR = 'data-prerendered-css';

/** Once the landing has rendered over its first view, that view's rules have nothing left to style. */
export function useDropPrerenderedStyles(): void {
  useEffect(() => document.querySelectorAll(`style[${PRERENDERED_CSS_ATTR}]`).forEach((el) => el.remove()), []);
}
