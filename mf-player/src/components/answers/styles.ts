import styled from 'styled-components';
import { Stack } from '@portal/ui';

/** The options of a question, one bordered row each; the chosen one is outlined. */
export const Choices = styled(Stack).attrs({ $gap: 8 })``;
export const Choice = styled.label`
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 12px 14px;
  cursor: pointer;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  &:has(input:checked) {
    border-color: ${({ theme }) => theme.colors.primary};
    background: ${({ theme }) => theme.colors.surfaceAlt};
  }
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;
