import { useEffect, useRef, useState } from 'react';
import { css } from 'styled-components';

/** A card appears once a tenth of it is in view and it is 50 px above the bottom edge. */
export const REVEAL_THRESHOLD = 0.1;
export const REVEAL_ROOT_MARGIN = '0px 0px -50px 0px';

// One observer serves every card on the page; a card is watched until it has appeared once.
let observer: IntersectionObserver | null = null;
const onRevealOf = new Map<Element, () => void>();

function watch(el: Element, onReveal: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    onReveal();
    return () => undefined;
  }
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        onRevealOf.get(entry.target)?.();
        unwatch(entry.target);
      }
    },
    { threshold: REVEAL_THRESHOLD, rootMargin: REVEAL_ROOT_MARGIN },
  );
  onRevealOf.set(el, onReveal);
  observer.observe(el);
  return () => unwatch(el);
}

function unwatch(el: Element) {
  onRevealOf.delete(el);
  observer?.unobserve(el);
}

/** A ref for the element and whether it has scrolled into view yet (it stays revealed after). */
export function useReveal<T extends Element>() {
  const ref = useRef<T>(null);
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    const el = ref.current;
    return el ? watch(el, () => setRevealed(true)) : undefined;
  }, []);
  return [ref, revealed] as const;
}

/**
 * Styles of a card that rises into place when `data-revealed="true"`; `$order` staggers a row.
 * With reduced motion the card is simply there.
 */
export const revealStyles = css<{ $order?: number }>`
  opacity: 0;
  transform: translateY(24px);
  transition:
    opacity 600ms ease,
    transform 600ms ease;
  transition-delay: ${({ $order = 0 }) => Math.min($order, 5) * 90}ms;
  &[data-revealed='true'] {
    opacity: 1;
    transform: none;
  }
  @media (prefers-reduced-motion: reduce) {
    opacity: 1;
    transform: none;
    transition: none;
  }
`;
