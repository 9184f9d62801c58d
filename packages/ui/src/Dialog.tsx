import { useEffect, useId, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from './components';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Wide dialogs hold tables and lists; forms use the narrow default. */
  wide?: boolean;
}

/**
 * A modal on the native <dialog>: focus moves in and is trapped, Escape closes, the page behind is
 * inert, and focus returns to the button that opened it. The content mounts only while open, so
 * every opening starts afresh.
 */
export function Dialog({ open, title, onClose, children, wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <Panel
      $wide={wide}
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        // A dialog opened inside this one (a question) handles its own Escape.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {open && (
        <>
          <Header>
            <h2 id={titleId}>{title}</h2>
            <Button type="button" $variant="ghost" $size="icon" aria-label="Закрыть" onClick={onClose}>
              ✕
            </Button>
          </Header>
          {children}
        </>
      )}
    </Panel>
  );
}

const Panel = styled.dialog<{ $wide: boolean }>`
  width: min(${({ $wide }) => ($wide ? 860 : 520)}px, calc(100vw - 32px));
  max-height: calc(100vh - 48px);
  padding: 24px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: 0 20px 50px rgba(0, 0, 0, 0.35);
  &[open] {
    display: flex;
    flex-direction: column;
  }
  &::backdrop {
    background: rgba(8, 10, 16, 0.6);
  }
`;

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 16px;
  margin-bottom: 16px;
  h2 {
    margin: 0;
    font-size: 20px;
  }
`;
