import styled from 'styled-components';
import { busyMark, Card } from '@portal/ui';

/** A list of record cards, marked busy while its next page loads. */
export const RecordList = styled.div`
  display: grid;
  gap: 12px;
  ${busyMark}
`;

/**
 * One record: its text beside its actions, and a full-width row under them. The text's column may
 * shrink below its longest word (an email): it wraps there, not past the phone's width.
 */
export const RecordCard = styled(Card).attrs({ as: 'article' })`
  display: grid;
  grid-template-columns: minmax(0, 1fr) auto;
  overflow-wrap: anywhere;
  gap: 8px 16px;
  align-items: center;
  padding: 16px 20px;
  p {
    margin: 4px 0 0;
    font-size: 13px;
  }
`;
