import styled from 'styled-components';

/** Layout shared by the CRM dialogs' forms. */
export const FormGrid = styled.form`
  display: grid;
  gap: 14px;
`;

export const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  margin-top: 8px;
`;

export const Required = styled.span.attrs({ 'aria-hidden': true, children: ' *' })`
  color: ${({ theme }) => theme.colors.danger};
`;
