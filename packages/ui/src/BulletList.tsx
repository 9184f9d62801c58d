import styled from 'styled-components';

/** A bulleted list (links, choices, remarks): its items one under another, `$gap` px apart. */
export const BulletList = styled.ul<{ $gap?: number }>`
  margin: 0;
  padding-left: 20px;
  display: grid;
  gap: ${({ $gap = 4 }) => $gap}px;
`;
