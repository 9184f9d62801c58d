import styled from 'styled-components';

/** The player's body under its header: the question, the result or the start error. */
export const Body = styled.div`
  display: grid;
  gap: 16px;
  padding: 20px;
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 12px;
    min-width: 0;
  }
  legend {
    padding: 0;
    margin-bottom: 12px;
  }
  p {
    margin: 0;
  }
`;

/** The row of buttons at the foot of the player's body. */
export const Footer = styled.div`
  display: flex;
  justify-content: space-between;
  gap: 8px;
  flex-wrap: wrap;
`;
