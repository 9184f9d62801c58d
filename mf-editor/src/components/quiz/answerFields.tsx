import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '@portal/ui';

/**
 * The pieces every question type's answer fields are made of: a framed group, numbered rows, the
 * ✕, ↑ and ↓ buttons of a row and the «Добавить …» button under the rows.
 */

/** The list with the item at `i` replaced. */
export const replaceAt = <T,>(list: readonly T[], i: number, item: T): T[] => list.map((x, j) => (j === i ? item : x));
/** The list without the item at `i`. */
export const removeAt = <T,>(list: readonly T[], i: number): T[] => list.filter((_, j) => j !== i);

interface RowButtonProps {
  /** What a screen reader says: the button shows only a sign. */
  label: string;
  onClick: () => void;
  disabled?: boolean;
}

/** ✕: removes the row's item. */
export const RemoveButton = ({ label, onClick, disabled }: RowButtonProps) => (
  <Button type="button" $variant="ghost" $size="sm" disabled={disabled} onClick={onClick} aria-label={label}>
    ✕
  </Button>
);

/** ↑ or ↓: moves an item one place up (-1) or down (1). */
export const StepButton = ({ step, label, onClick, disabled }: RowButtonProps & { step: -1 | 1 }) => (
  <Button type="button" $variant="ghost" $size="sm" disabled={disabled} onClick={onClick} aria-label={label}>
    {step < 0 ? '↑' : '↓'}
  </Button>
);

/** «Добавить …» under a list of rows. */
export const AddButton = ({ children, onClick, disabled }: { children: ReactNode; onClick: () => void; disabled?: boolean }) => (
  <Button type="button" $variant="outline" $size="sm" disabled={disabled} onClick={onClick}>
    {children}
  </Button>
);

/** The group of one question's answer data, titled by its legend. */
export const AnswerFieldset = styled.fieldset`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 10px 12px;
  min-width: 0;
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  legend {
    font-size: 13px;
    font-weight: 600;
    padding: 0 4px;
  }
`;
/** A row's number, «1.», before its fields. */
export const RowIndex = styled.span`
  width: 24px;
  align-self: center;
  text-align: right;
  color: ${({ theme }) => theme.colors.muted};
`;
