import styled from 'styled-components';

/** Layout shared by the CRM dialogs' forms. */
export const FormGrid = styled.form`
  display: grid;
  gap: 14px;
`;
