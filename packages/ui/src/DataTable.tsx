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

/**
 * A table's own horizontal scroll: a table wider than a phone scrolls inside it and never widens the
 * page. It is a named region in the tab order, so a keyboard can scroll it too.
 */
export const TableScroll = styled.div.attrs({ role: 'region', tabIndex: 0 })<{ 'aria-label': string }>`
  max-width: 100%;
  overflow-x: auto;
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

/** A table's header row: one column heading a name. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
