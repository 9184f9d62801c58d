import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { Button } from '@portal/ui';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question on the native <dialog>: the browser traps focus, Escape cancels, and focus
 * returns where it was. The safe choice (cancel) has the initial focus.
 */
export function ConfirmDialog({ title, message, confirmLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <Dialog
      ref={ref}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <p id="confirm-message">{message}</p>
      <Actions>
        <Button type="button" $variant="outline" onClick={onCancel} autoFocus>
          Отмена
        </Button>
        <Button type="button" $variant="destructive" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Actions>
    </Dialog>
  );
}

const Dialog = styled.dialog`
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
