import type { ReactNode } from 'react';

/** Small stroke icons drawn in the current text colour; decorative, so hidden from screen readers. */
export const StrokeIcon = ({ children, size = 18 }: { children: ReactNode; size?: number }) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {children}
  </svg>
);

/** An icon drawn by its stroked paths alone. */
export const pathIcon = (...paths: string[]) =>
  function PathIcon() {
    return (
      <StrokeIcon>
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </StrokeIcon>
    );
  };
