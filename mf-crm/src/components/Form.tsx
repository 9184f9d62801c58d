import styled from 'styled-components';

/** Layout shared by the CRM dialogs' forms. */
export const FormGrid = styled.form`
  display: grid;
  gap: 14px;
`;

/** What each CRM dialog's form takes besides its record: whether it is saving, where the values go, and «Отмена». */
export interface FormProps<Values> {
  busy: boolean;
  onSubmit: (values: Values) => void;
  onCancel: () => void;
}
