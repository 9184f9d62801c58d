import styled from 'styled-components';

/** A checkbox or radio with its text beside it, the whole line clickable. */
export const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
  cursor: pointer;
`;
