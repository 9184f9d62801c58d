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

/** An eye: looking at something as another person sees it («Просмотр как слушатель»). */
export const EyeIcon = () => (
  <StrokeIcon>
    <path d="M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8z" />
    <circle cx="12" cy="12" r="3" />
  </StrokeIcon>
);

/** A chain link: a hyperlink. */
export const LinkIcon = pathIcon(
  'M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71',
  'M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71',
);

/** A page with a folded corner: a file to download. */
export const FileIcon = pathIcon('M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6');
