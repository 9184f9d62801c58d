import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from './components';
import { Spread } from './Spread';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Defaults to true: a dialog rendered only while it is needed opens when mounted. */
  open?: boolean;
  /** Wide dialogs hold tables and lists; forms use the narrow default. */
  wide?: boolean;
  /** The id of the text that says what the dialog is about (a question's message). */
  describedBy?: string;
  /** False for a question that must be answered: no ✕ and Escape does nothing. */
  dismissible?: boolean;
}

/**
 * The portal's one modal, on the native <dialog>: focus moves in and is trapped, Escape closes, the
 * page behind is inert, and focus returns to what opened it (also when the dialog leaves the page
 * instead of closing). The first focus goes to the control marked `data-autofocus`, else the ✕. The content mounts only while open, so every opening starts afresh.
 */
export function Dialog({ open = true, title, onClose, children, wide = false, describedBy, dismissible = true }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Read while rendering, before anything inside (an autoFocus button) can take the focus.
  const opener = useMemo(() => (open ? document.activeElement : null), [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    if (!dialog.open) {
      dialog.showModal();
      // React's autoFocus runs while the dialog is still closed (and fails); the browser then focuses
      // the first control, the ✕. A control marked data-autofocus takes the focus instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => {
      if (dialog.open) dialog.close();
      // A removed dialog gives focus back to nobody: hand it back to what opened it, if still there.
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open, opener]);

  return (
    <Panel
      $wide={wide}
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={open ? describedBy : undefined}
      onCancel={(e) => {
        e.preventDefault();
        // A dialog opened inside this one (a question) answers its own Escape.
        e.stopPropagation();
        if (e.target === e.currentTarget && dismissible) onClose();
      }}
    >
      {open && (
        <>
          <Header $gap={16}>
            <h2 id={titleId}>{title}</h2>
            {dismissible && (
              <Button type="button" $variant="ghost" $size="icon" aria-label="Закрыть" onClick={onClose}>
                ✕
              </Button>
            )}
          </Header>
          {children}
        </>
      )}
    </Panel>
  );
}

/** The row of buttons at the foot of a dialog, the main action last. */
export const DialogActions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  margin-top: 16px;
  flex-wrap: wrap;
`;

const Panel = styled.dialog<{ $wide: boolean }>`
  width: min(${({ $wide }) => ($wide ? 920 : 520)}px, calc(100vw - 24px));
  max-height: calc(100vh - 32px);
  overflow: auto;
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
  @media (max-width: 480px) {
    padding: 16px;
  }
`;

const Header = styled(Spread).attrs({ $gap: 8, $wrap: false })`
  margin-bottom: 16px;
  h2 {
    margin: 0;
    font-size: 20px;
  }
`;
