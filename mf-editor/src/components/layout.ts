import styled from 'styled-components';

/** An editor screen's column: its width and padding. */
export const Page = styled.div`
  display: grid;
  gap: 16px;
  padding: 24px;
  max-width: 1400px;
  margin: 0 auto;
`;

/** A short message in place of a screen (loading, not found, nothing chosen): a narrow column. */
export const Centered = styled.div`
  display: grid;
  gap: 12px;
  justify-items: start;
  padding: 48px 24px;
  max-width: 720px;
  margin: 0 auto;
`;
