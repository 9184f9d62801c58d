import { Fragment } from 'react';
import styled from 'styled-components';
import { Select } from '@portal/ui';
import { indexMap, type AnswerInputProps } from './props';

/** matching: a dropdown of the right-hand items beside each left-hand one; the answer maps left → right. */
export function MatchingInput({ question, value, onChange, disabled, name }: AnswerInputProps) {
  const map = indexMap(value);
  return (
    <Pairs>
      {(question.left ?? []).map((left, i) => (
        <Fragment key={i}>
          <span id={`${name}-l${i}`}>{left}</span>
          <Select
            aria-labelledby={`${name}-l${i}`}
            value={map[String(i)] ?? ''}
            disabled={disabled}
            onChange={(e) => {
              const next = { ...map };
              if (e.target.value === '') delete next[String(i)];
              else next[String(i)] = Number(e.target.value);
              onChange(next);
            }}
          >
            <option value="">— выберите —</option>
            {(question.right ?? []).map((right, j) => (
              <option key={j} value={j}>
                {right}
              </option>
            ))}
          </Select>
        </Fragment>
      ))}
    </Pairs>
  );
}

/** matrix: one radio group per row, a column each; the answer maps row → column. */
export function MatrixInput({ question, value, onChange, disabled, name }: AnswerInputProps) {
  const map = indexMap(value);
  return (
    <Matrix>
      <thead>
        <tr>
          <td />
          {question.options.map((column, j) => (
            <th key={j} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {(question.rows ?? []).map((row, i) => (
          <tr key={i} role="radiogroup" aria-label={row}>
            <th scope="row">{row}</th>
            {question.options.map((column, j) => (
              <td key={j}>
                <input
                  type="radio"
                  name={`${name}-r${i}`}
                  aria-label={`${row}: ${column}`}
                  checked={map[String(i)] === j}
                  disabled={disabled}
                  onChange={() => onChange({ ...map, [String(i)]: j })}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Matrix>
  );
}

const Pairs = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  align-items: center;
  gap: 8px 16px;
  /* A phone: each item above its dropdown, which takes the whole width («— выберите —» is never cut). */
  @media (max-width: 640px) {
    grid-template-columns: minmax(0, 1fr);
    gap: 4px;
    select {
      margin-bottom: 8px;
    }
  }
`;
const Matrix = styled.table`
  border-collapse: collapse;
  th,
  td {
    padding: 8px 10px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    text-align: center;
  }
  th[scope='row'] {
    text-align: left;
    font-weight: 500;
  }
  input {
    width: 18px;
    height: 18px;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;
