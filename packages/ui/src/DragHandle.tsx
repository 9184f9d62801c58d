import styled, { css } from 'styled-components';

/**
 * The ⠿ an item of a sortable list is dragged by: a button, so the keyboard can take it too. A small
 * one in a row (a course's modules and lessons), or `$framed`: a dashed column beside a card (a lesson's blocks).
 */
export const DragHandle = styled.button<{ $framed?: boolean }>`
  flex: none;
  background: transparent;
  color: ${({ theme }) => theme.colors.muted};
  cursor: grab;
  touch-action: none;
  ${({ theme, $framed = false }) =>
    $framed
      ? css`
          width: 32px;
          font-size: 18px;
          border: 1px dashed ${theme.colors.border};
          border-radius: ${theme.radius};
        `
      : css`
          width: 24px;
          height: 28px;
          font-size: 14px;
          border: none;
          border-radius: 6px;
        `}
  &:active {
    cursor: grabbing;
  }
`;

/** A small button of one glyph (rename, regenerate, delete), named by its aria-label. */
export const IconButton = styled.button`
  width: 28px;
  height: 28px;
  flex: none;
  border: none;
  background: transparent;
  color: ${({ theme }) => theme.colors.muted};
  cursor: pointer;
  border-radius: 6px;
  &:hover {
    background: ${({ theme }) => theme.colors.surfaceAlt};
    color: ${({ theme }) => theme.colors.text};
  }
`;
