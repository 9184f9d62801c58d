import { useEffect, useId, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '@portal/ui';
import type { ConflictChoice } from '../autosave/conflicts';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  describedBy?: string;
}

/**
 * A modal on the native <dialog>: focus is trapped, Escape closes, the rest of the page is inert,
 * and focus returns where it was. Mounted only while open, so each opening starts fresh.
 */
export function Dialog({ title, onClose, children, wide = false, describedBy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <Panel
      ref={ref}
      $wide={wide}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </Panel>
  );
}

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A question with a safe default: Cancel has the focus. */
export function ConfirmDialog({ title, message, confirmLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const messageId = useId();
  return (
    <Dialog title={title} onClose={onCancel} describedBy={messageId}>
      <Message id={messageId}>{message}</Message>
      <DialogActions>
        <Button type="button" $variant="outline" onClick={onCancel} autoFocus>
          Отмена
        </Button>
        <Button type="button" $variant="destructive" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const Panel = styled.dialog<{ $wide: boolean }>`
  width: ${({ $wide }) => ($wide ? 'min(980px, calc(100vw - 32px))' : 'min(460px, calc(100vw - 32px))')};
  max-height: calc(100vh - 48px);
  padding: 24px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: 0 20px 50px rgba(0, 0, 0, 0.35);
  &::backdrop {
    background: rgba(8, 10, 16, 0.6);
  }
  h2 {
    margin: 0 0 16px;
    font-size: 20px;
  }
`;
const Message = styled.p`
  margin: 0 0 20px;
  color: ${({ theme }) => theme.colors.muted};
  overflow-wrap: anywhere;
`;
export const DialogActions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  margin-top: 16px;
  flex-wrap: wrap;
`;

/**
 * Another author saved the document first (412): the author's own text stays in the editor until
 * they choose. Nothing is lost whichever they choose but «Загрузить их версию», which says so.
 * One dialog for lessons, quizzes and the course form.
 */
export function ConflictDialog({
  title,
  busy = false,
  onChoose,
}: {
  title: string;
  busy?: boolean;
  onChoose: (choice: ConflictChoice) => void;
}) {
  const messageId = useId();
  return (
    <Dialog title="Документ изменён другим пользователем" onClose={() => undefined} describedBy={messageId}>
      <Message id={messageId}>
        Пока вы редактировали «{title}», другой автор сохранил свою версию. Ваш текст не потерян: выберите, что с ним сделать.
      </Message>
      <DialogActions>
        <Button type="button" $variant="outline" onClick={() => onChoose('theirs')} disabled={busy}>
          Загрузить их версию
        </Button>
        <Button type="button" $variant="outline" onClick={() => onChoose('overwrite')} disabled={busy}>
          Перезаписать
        </Button>
        <Button type="button" onClick={() => onChoose('copy')} disabled={busy} autoFocus>
          Сохранить мою как копию
        </Button>
      </DialogActions>
    </Dialog>
  );
}
