/** Styled pieces the views of «Создать с ИИ» share: the notice of who builds the course, a view's panel and its buttons. */
import styled from 'styled-components';
import { Muted } from '@portal/ui';

export const Notice = styled.p<{ $tone: 'ai' | 'template' }>`
  margin: 0;
  padding: 10px 14px;
  font-size: 14px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border-left: 4px solid ${({ theme, $tone }) => ($tone === 'ai' ? theme.colors.primary : theme.colors.warning)};
  min-height: 42px;
`;
export const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  flex-wrap: wrap;
  margin-top: 4px;
`;
export const Panel = styled.div`
  display: grid;
  gap: 14px;
  align-content: start;
  ${Muted} {
    margin: 0;
  }
`;
