import styled from 'styled-components';

/**
 * Two things at the ends of one line, centred on it: a title and its actions, a status and a count.
 * `$wrap` lets the second go under the first on a narrow screen; otherwise the first shrinks.
 */
export const SplitRow = styled.div<{ $gap?: number; $wrap?: boolean }>`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ $gap = 8 }) => $gap}px;
  flex-wrap: ${({ $wrap = false }) => ($wrap ? 'wrap' : 'nowrap')};
`;
