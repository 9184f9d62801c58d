import { useEffect, useId, useRef } from 'react';
import styled from 'styled-components';
import { Button } from './components';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The portal's confirmation (never the browser's `confirm`), on the native <dialog>: the browser
 * traps focus, Escape cancels, and focus returns to what opened it. The safe choice (cancel) has the
 * initial focus. Render it only while asking: it opens when mounted.
 */
export function ConfirmDialog({ title, message, confirmLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      // The dialog leaves the page when the question is answered, and a removed dialog gives focus
      // back to nobody: hand it back to what opened it, if that is still there.
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  return (
    <Panel
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(e) => {
        e.preventDefault();
        // Asked inside another dialog: Escape answers this question only.
        e.stopPropagation();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <p id={messageId}>{message}</p>
      <Actions>
        <Button type="button" $variant="outline" onClick={onCancel} autoFocus>
          Отмена
        </Button>
        <Button type="button" $variant="destructive" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Actions>
    </Panel>
  );
}

const Panel = styled.dialog`
  width: min(440px, calc(100vw - 32px));
  padding: 24px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: 0 20px 50px rgba(0, 0, 0, 0.35);
  h2 {
    margin: 0 0 8px;
    font-size: 18px;
  }
  p {
    margin: 0 0 20px;
    color: ${({ theme }) => theme.colors.muted};
    overflow-wrap: anywhere;
  }
  &::backdrop {
    background: rgba(10, 12, 20, 0.55);
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
`;
