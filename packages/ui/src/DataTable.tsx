import styled from 'styled-components';

/** A table of records: the full width, each cell left-aligned, top-aligned and ruled beneath. */
export const DataTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th,
  td {
    text-align: left;
    vertical-align: top;
    padding: 6px 8px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
`;
