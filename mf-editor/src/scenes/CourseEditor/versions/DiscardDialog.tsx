import { useId } from 'react';
import type { DraftState } from '@portal/contracts';
import { Button, Message } from '@portal/ui';
import { Dialog, DialogActions } from '../../../components/Dialog';
import { ActionError } from './ActionError';
import { VERSIONS_UI, discardQuestion } from './texts';
import { useDraftAction, useVersionsApi } from './useVersions';

interface DiscardDialogProps {
  courseId: string;
  draft: DraftState;
  prepare: () => Promise<boolean>;
  onClose: () => void;
  /** The draft is the published version again: the editor reads the course anew. */
  onDiscarded: () => void;
}

/** «Отменить изменения»: asked first, since the draft's edits are gone for good. The safe answer has the focus. */
export function DiscardDialog({ courseId, draft, prepare, onClose, onDiscarded }: DiscardDialogProps) {
  const api = useVersionsApi();
  const messageId = useId();
  const { busy, failure, setFailure, run } = useDraftAction(courseId, prepare);
  const discard = () => run(() => api.discard(courseId, draft.publishedVersion), onDiscarded);

  return (
    <Dialog title={VERSIONS_UI.discardChanges} onClose={onClose} describedBy={messageId}>
      <Message id={messageId}>{discardQuestion(draft.publishedVersion)}</Message>
      {failure !== null && <ActionError courseId={courseId} error={failure} onRefreshed={() => setFailure(null)} />}
      <DialogActions>
        <Button type="button" $variant="outline" onClick={onClose} data-autofocus>
          {VERSIONS_UI.keep}
        </Button>
        <Button type="button" $variant="destructive" disabled={busy} onClick={() => void discard()}>
          {VERSIONS_UI.discardChanges}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
