import { useId } from 'react';
import styled from 'styled-components';
import { Button } from './components';
import { Dialog, DialogActions } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The portal's confirmation (never the browser's `confirm`), on the one Dialog. The safe choice
 * (cancel) has the initial focus; Escape cancels. Render it only while asking: it opens when mounted.
 */
export function ConfirmDialog({ title, message, confirmLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const messageId = useId();
  return (
    <Dialog title={title} onClose={onCancel} describedBy={messageId}>
      <Message id={messageId}>{message}</Message>
      <DialogActions>
        <Button type="button" $variant="outline" onClick={onCancel} data-autofocus>
          Отмена
        </Button>
        <Button type="button" $variant="destructive" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export const Message = styled.p`
  margin: 0 0 4px;
  color: ${({ theme }) => theme.colors.muted};
  overflow-wrap: anywhere;
`;
