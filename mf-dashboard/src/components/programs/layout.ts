import styled from 'styled-components';
import { PageHeader, PlainList } from '@portal/ui';

/** A program screen's title and its actions; a long program title wraps rather than widen a phone's page. */
export const TitleBar = styled(PageHeader)`
  margin: 8px 0 4px;
  h1 {
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

/** A program's stages, one card under another (an ordered list: their order is the program's). */
export const StageList = styled(PlainList).attrs({ as: 'ol' })`
  gap: 12px;
`;

/** A progress bar with its figure beside it: the bar takes the room the figure leaves. */
export const ProgressLine = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
  & > :first-child {
    flex: 1;
  }
`;
