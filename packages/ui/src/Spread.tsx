import styled from 'styled-components';

/**
 * Children at the two ends of a line: a title and its badge, a count and its buttons, a notice and
 * its action. They wrap under each other on a narrow screen, unless `$wrap={false}` (then the first
 * shrinks: a dialog's title and its ✕). `$align` lines them up across the line (centred unless
 * told), `$gap` is in px.
 */
export const Spread = styled.div<{ $gap?: number; $align?: 'center' | 'flex-start' | 'baseline'; $wrap?: boolean }>`
  display: flex;
  flex-wrap: ${({ $wrap = true }) => ($wrap ? 'wrap' : 'nowrap')};
  align-items: ${({ $align = 'center' }) => $align};
  justify-content: space-between;
  gap: ${({ $gap = 12 }) => $gap}px;
`;
