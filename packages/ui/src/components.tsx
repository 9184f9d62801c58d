import styled, { createGlobalStyle, css, keyframes } from 'styled-components';
import { Spread } from './Spread';

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { color-scheme: ${({ theme }) => (theme.dark ? 'dark' : 'light')}; }
  html.theme-transition, html.theme-transition * { transition: background-color 600ms ease, color 600ms ease, border-color 600ms ease !important; }
  body {
    margin: 0;
    background: ${({ theme }) => theme.colors.bg};
    color: ${({ theme }) => theme.colors.text};
    font-family: ${({ theme }) => theme.font};
    line-height: 1.5;
  }
  a { color: ${({ theme }) => theme.colors.primary}; }
  :focus-visible { outline: 2px solid ${({ theme }) => theme.colors.focus}; outline-offset: 2px; }
  @media (prefers-reduced-motion: reduce) { *, *::before, *::after { animation: none !important; transition: none !important; } }
`;

const sweep = keyframes`
  from { background-position: 0 0; }
  to { background-position: 100% 0; }
`;

/**
 * How a list or table shows that a newer page is on its way (`aria-busy="true"`): a bar sweeps
 * along its top edge. The rows keep their colours, so their text is as legible as when idle:
 * dimming the list to 0.7 took the dark theme's muted text to 4.3:1, under WCAG's 4.5:1.
 */
export const busyMark = css`
  position: relative;
  &[aria-busy='true'] {
    cursor: progress;
  }
  &[aria-busy='true']::after {
    content: '';
    position: absolute;
    inset: 0 0 auto 0;
    height: 3px;
    border-radius: 2px;
    pointer-events: none;
    background: linear-gradient(90deg, transparent, ${({ theme }) => theme.colors.primary}, transparent) 0 0 / 40% 100% no-repeat;
    animation: ${sweep} 0.9s ease-in-out infinite alternate;
  }
`;

export type ButtonVariant = 'default' | 'destructive' | 'outline' | 'secondary' | 'ghost' | 'link';
export type ButtonSize = 'default' | 'sm' | 'lg' | 'icon';

const sizes: Record<ButtonSize, ReturnType<typeof css>> = {
  default: css`
    height: 40px;
    padding: 0 16px;
    font-size: 14px;
  `,
  sm: css`
    height: 32px;
    padding: 0 12px;
    font-size: 13px;
  `,
  lg: css`
    height: 48px;
    padding: 0 24px;
    font-size: 16px;
  `,
  icon: css`
    height: 40px;
    width: 40px;
    padding: 0;
  `,
};

/** The six button variants (default, destructive, outline, secondary, ghost, link) and four sizes (default, sm, lg, icon). */
export const Button = styled.button<{ $variant?: ButtonVariant; $size?: ButtonSize }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid transparent;
  font-weight: 600;
  cursor: pointer;
  font-family: inherit;
  white-space: nowrap;
  ${({ $size = 'default' }) => sizes[$size]}
  ${({ theme, $variant = 'default' }) => {
    const c = theme.colors;
    switch ($variant) {
      case 'destructive':
        // The dark theme's danger is a light red: dark text on it keeps the contrast (WCAG AA).
        return css`
          background: ${c.danger};
          color: ${theme.dark ? theme.colors.bg : '#fff'};
        `;
      case 'outline':
        return css`
          background: transparent;
          color: ${c.text};
          border-color: ${c.border};
        `;
      case 'secondary':
        return css`
          background: ${c.surfaceAlt};
          color: ${c.text};
        `;
      case 'ghost':
        return css`
          background: transparent;
          color: ${c.text};
        `;
      case 'link':
        return css`
          background: none;
          color: ${c.primary};
          padding: 0;
          height: auto;
          text-decoration: underline;
        `;
      default:
        return css`
          background: ${c.primary};
          color: ${c.primaryText};
        `;
    }
  }}
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  &:not(:disabled):hover {
    filter: brightness(1.08);
  }
`;

/** Children one under another, `$gap` px apart: a form, a panel, a card's body. */
export const Stack = styled.div<{ $gap?: number }>`
  display: grid;
  gap: ${({ $gap = 12 }) => $gap}px;
  min-width: 0;
`;

/** A list without bullets or indent, its items one under another `$gap` px apart (never wider than the column). */
export const PlainList = styled.ul<{ $gap?: number }>`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: ${({ $gap = 8 }) => $gap}px;
`;

/** Children side by side, wrapping on a narrow screen: buttons, a toolbar, filters. */
export const Row = styled.div<{ $gap?: number }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ $gap = 8 }) => $gap}px;
`;

/** A page's title with its actions at the other end, the actions going under it on a narrow screen (a `header`, unless `as` says). */
export const PageHeader = styled(Spread).attrs<{ as?: 'header' | 'div' }>(({ as = 'header' }) => ({ as }))`
  h1 {
    margin: 0;
  }
`;

/** A record's facts as a definition list: each name muted, each value beside or under it, long values wrapping. */
export const FactList = styled.dl`
  display: grid;
  margin: 0;
  dt {
    color: ${({ theme }) => theme.colors.muted};
  }
  dd {
    margin: 0;
    overflow-wrap: break-word;
    min-width: 0;
  }
`;

export const Card = styled.div`
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: ${({ theme }) => theme.shadow};
  padding: 24px;
`;

/** A one-line control: a text input or a select look the same. */
const controlStyles = css`
  width: 100%;
  height: 40px;
  padding: 0 12px;
  font: inherit;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
`;

export const Input = styled.input`
  ${controlStyles}
`;

export const Select = styled.select`
  ${controlStyles}
`;

export const Label = styled.label`
  display: grid;
  gap: 6px;
  font-size: 14px;
  font-weight: 500;
`;

export const ErrorBox = styled.div.attrs({ role: 'alert' })`
  padding: 12px 16px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.dangerBg};
  color: ${({ theme }) => theme.colors.danger};
  border: 1px solid ${({ theme }) => theme.colors.danger};
`;

export const Page = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: 32px 24px;
`;

export const Muted = styled.p`
  color: ${({ theme }) => theme.colors.muted};
`;
