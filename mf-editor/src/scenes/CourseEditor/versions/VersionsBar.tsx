import { useState } from 'react';
import styled from 'styled-components';
import type { DraftState } from '@portal/contracts';
import { Button, LoadError, Muted } from '@portal/ui';
import { DiscardDialog } from './DiscardDialog';
import { HistoryDialog } from './HistoryDialog';
import { PublishDialog } from './PublishDialog';
import { VERSIONS_UI, bankText, countsText, draftTitle, sameAsPublished } from './texts';
import { useDraftState } from './useVersions';

export interface VersionsBarProps {
  courseId: string;
  /** The course is published (learners can start it). */
  published: boolean;
  /** Saves whatever the editor holds; false when something could not be saved. */
  prepare: () => Promise<boolean>;
  /** The draft was replaced on the server (discarded or restored): the editor reads its course again. */
  onDraftReplaced: () => void;
}

type Open = 'publish' | 'discard' | 'history' | null;

/**
 * The top of the course editor once learners have a published version: what the draft changes, and
 * «Опубликовать изменения», «Отменить изменения», «История версий». Before the first learner a quiet
 * note says that edits reach learners at once.
 */
export function VersionsBar({ courseId, published, prepare, onDraftReplaced }: VersionsBarProps) {
  const draft = useDraftState(courseId);
  const [open, setOpen] = useState<Open>(null);

  if (draft.isPending) return null;
  if (draft.isError) {
    return <LoadError title={VERSIONS_UI.draftFailed} error={draft.error} onRetry={() => void draft.refetch()} />;
  }
  const state = draft.data;
  if (!state.versioned) return published ? <Note role="note">{VERSIONS_UI.notVersioned}</Note> : null;

  const close = () => setOpen(null);
  return (
    <Bar aria-label="Версии курса">
      <Summary>
        <strong>{draftTitle(state.publishedVersion)}</strong>
        <DraftChanges state={state} />
      </Summary>
      <Actions>
        {state.hasChanges && (
          <>
            <Button type="button" $size="sm" onClick={() => setOpen('publish')}>
              {VERSIONS_UI.publishChanges}
            </Button>
            <Button type="button" $size="sm" $variant="outline" onClick={() => setOpen('discard')}>
              {VERSIONS_UI.discardChanges}
            </Button>
          </>
        )}
        <Button type="button" $size="sm" $variant="secondary" onClick={() => setOpen('history')}>
          {VERSIONS_UI.history}
        </Button>
      </Actions>
      {open === 'publish' && <PublishDialog courseId={courseId} draft={state} prepare={prepare} onClose={close} />}
      {open === 'discard' && (
        <DiscardDialog
          courseId={courseId}
          draft={state}
          prepare={prepare}
          onClose={close}
          onDiscarded={() => {
            close();
            onDraftReplaced();
          }}
        />
      )}
      {open === 'history' && (
        <HistoryDialog
          courseId={courseId}
          prepare={prepare}
          onClose={close}
          onRestored={() => {
            close();
            onDraftReplaced();
          }}
        />
      )}
    </Bar>
  );
}

function DraftChanges({ state }: { state: DraftState }) {
  if (!state.hasChanges) return <Muted as="span">{sameAsPublished(state.publishedVersion)}</Muted>;
  const { bank } = state.diff;
  return (
    <Muted as="span">
      {countsText(state.diff.counts)}
      {bank.added + bank.removed + bank.changed > 0 && `. ${bankText(bank)}`}
    </Muted>
  );
}

const Bar = styled.section`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
  padding: 10px 14px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
`;
const Summary = styled.div`
  display: grid;
  gap: 2px;
  min-width: 0;
  span {
    font-size: 14px;
  }
`;
const Actions = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
`;
const Note = styled(Muted)`
  margin: 0;
  font-size: 14px;
`;
