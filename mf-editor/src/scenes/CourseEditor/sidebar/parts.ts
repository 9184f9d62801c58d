import styled from 'styled-components';

/** The ⠿ a module or a lesson is dragged by: a button, so the keyboard can take it too. */
export const Handle = styled.button`
  width: 24px;
  height: 28px;
  flex: none;
  border: none;
  background: transparent;
  color: ${({ theme }) => theme.colors.muted};
  cursor: grab;
  font-size: 14px;
  border-radius: 6px;
  touch-action: none;
  &:active {
    cursor: grabbing;
  }
`;
/** A small button of one glyph (rename, regenerate, delete), named by its aria-label. */
export const Icon = styled.button`
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
