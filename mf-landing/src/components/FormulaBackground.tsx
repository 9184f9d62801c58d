import { useEffect, useRef, useState, type RefObject } from 'react';
import styled, { keyframes } from 'styled-components';
import { usePrerendering } from './prerendering';

/** Decorative formulas: where each floats (percent of the hero), its size and its drift period. */
const FORMULAS: Array<{ tex: string; x: number; y: number; size: number; period: number }> = [
  { tex: 'e^(iπ) + 1 = 0', x: 5, y: 14, size: 22, period: 26 },
  { tex: 'a² + b² = c²', x: 80, y: 30, size: 24, period: 23 },
  { tex: '∑ 1/n² = π²/6', x: 7, y: 46, size: 21, period: 29 },
  { tex: 'sin²α + cos²α = 1', x: 78, y: 64, size: 20, period: 27 },
  { tex: 'E = mc²', x: 86, y: 8, size: 23, period: 24 },
  { tex: 'lim (1 + 1/n)ⁿ = e', x: 4, y: 80, size: 19, period: 32 },
  { tex: '∫ e^(−x²) dx = √π', x: 58, y: 6, size: 20, period: 31 },
  { tex: 'x = (−b ± √(b² − 4ac)) / 2a', x: 36, y: 90, size: 19, period: 34 },
  { tex: 'f′(x) = lim (f(x+h) − f(x)) / h', x: 14, y: 4, size: 17, period: 36 },
  { tex: 'det(A − λI) = 0', x: 82, y: 86, size: 18, period: 25 },
  { tex: 'P(A|B) = P(B|A)·P(A) / P(B)', x: 70, y: 46, size: 16, period: 38 },
  { tex: '∇ · E = ρ / ε₀', x: 9, y: 64, size: 20, period: 28 },
];

/**
 * The hero's animated background of math formulas. Pure CSS animation of transforms (no script
 * per frame); it starts once the page has loaded and the main thread is idle, pauses while the
 * hero is out of view or the tab is hidden, and stands still when the person prefers reduced
 * motion. The text sits in pseudo-elements of an aria-hidden layer: it is decoration, never read out.
 */
export function FormulaBackground() {
  const ref = useRef<HTMLDivElement>(null);
  const settled = usePageSettled();
  const paused = usePausedWhenUnseen(ref) || !settled;
  // Not in the page's pre-rendered first view: their serif italic glyphs (∑, ∫, √, ε₀…) send a
  // phone's first layout looking through its fonts, before the heading can show; they come with the landing.
  const prerendering = usePrerendering();
  return (
    <Layer ref={ref} aria-hidden="true" data-testid="formula-background" data-paused={paused}>
      {!prerendering &&
        FORMULAS.map((f, i) => (
          <Formula
            key={f.tex}
            data-formula={f.tex}
            style={{
              left: `${f.x}%`,
              top: `${f.y}%`,
              fontSize: f.size,
              animationDuration: `${f.period}s`,
              animationDelay: `${-i * 3}s`,
            }}
          />
        ))}
    </Layer>
  );
}

/**
 * True once the page has loaded and the browser has an idle moment. Drawn without a GPU the drift
 * keeps a core busy, which on a small device slows the landing's own loading by as much; the
 * formulas stand at their first frame until then, and the drift is slow enough not to show it.
 */
function usePageSettled(): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let cancel = () => undefined as void;
    const whenIdle = () => {
      if (typeof requestIdleCallback === 'function') {
        const id = requestIdleCallback(() => setSettled(true), { timeout: SETTLE_TIMEOUT_MS });
        cancel = () => cancelIdleCallback(id);
      } else {
        const id = setTimeout(() => setSettled(true), SETTLE_FALLBACK_MS);
        cancel = () => clearTimeout(id);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      window.removeEventListener('load', whenIdle);
      cancel();
    };
  }, []);
  return settled;
}

/** The longest the drift waits for an idle moment after the load event, and the wait where idle callbacks are missing (Safari). */
const SETTLE_TIMEOUT_MS = 3000;
const SETTLE_FALLBACK_MS = 1000;

/** True while the element is scrolled out of view or the page is in a background tab. */
function usePausedWhenUnseen(ref: RefObject<HTMLElement | null>): boolean {
  const [hidden, setHidden] = useState(() => typeof document !== 'undefined' && document.visibilityState === 'hidden');
  const [offscreen, setOffscreen] = useState(false);

  useEffect(() => {
    const onVisibility = () => setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOffscreen(!entry.isIntersecting));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);

  return hidden || offscreen;
}

const drift = keyframes`
  from { transform: translate3d(0, 0, 0) rotate(-4deg); }
  to { transform: translate3d(28px, -36px, 0) rotate(4deg); }
`;

const Layer = styled.div`
  position: absolute;
  inset: 0;
  overflow: hidden;
  pointer-events: none;
  user-select: none;
  background:
    radial-gradient(
      60% 50% at 50% 0%,
      ${({ theme }) => (theme.dark ? 'rgba(139, 133, 255, 0.18)' : 'rgba(79, 70, 229, 0.12)')},
      transparent 70%
    ),
    radial-gradient(
      40% 40% at 90% 90%,
      ${({ theme }) => (theme.dark ? 'rgba(56, 189, 248, 0.10)' : 'rgba(14, 165, 233, 0.08)')},
      transparent 70%
    );
  &[data-paused='true'] > span {
    animation-play-state: paused;
  }
  /* Fade the formulas out towards the bottom edge so the next section starts clean. */
  mask-image: linear-gradient(to bottom, #000 70%, transparent);
`;

const Formula = styled.span`
  position: absolute;
  white-space: nowrap;
  font-family: 'Times New Roman', 'STIX Two Math', Cambria, serif;
  font-style: italic;
  color: ${({ theme }) => theme.colors.primary};
  opacity: ${({ theme }) => (theme.dark ? 0.22 : 0.18)};
  will-change: transform;
  animation: ${drift} 30s ease-in-out infinite alternate;
  &::before {
    content: attr(data-formula);
  }
  /* A narrow screen keeps only the formulas at the edges, away from the heading. */
  @media (max-width: 720px) {
    &:nth-child(n + 7) {
      display: none;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    animation: none;
    will-change: auto;
  }
`;
