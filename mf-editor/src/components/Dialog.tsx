import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button, Dialog, DialogActions, Message } from '@portal/ui';
import type { ConflictChoice } from '../autosave/conflicts';

export { ConfirmDialog, Dialog, DialogActions } from '@portal/ui';

/**
 * A dialog's form. Submitting runs `onSubmit` in place; the form's own messages say what is wrong,
 * since the browser's bubbles would stop the submit silently.
 */
export function DialogForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <Form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </Form>
  );
}

/**
 * Another author saved the document first (412): the author's own text stays in the editor until
 * they choose. Nothing is lost whichever they choose but «Загрузить их версию», which says so.
 * One dialog for lessons, quizzes and the course form; it must be answered (no ✕, no Escape).
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
    <Dialog title="Документ изменён другим пользователем" onClose={() => undefined} describedBy={messageId} dismissible={false}>
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
        <Button type="button" onClick={() => onChoose('copy')} disabled={busy} data-autofocus>
          Сохранить мою как копию
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const Form = styled.form`
  display: grid;
  gap: 14px;
`;
