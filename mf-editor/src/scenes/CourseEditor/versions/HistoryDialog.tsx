import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CourseVersionSummary } from '@portal/contracts';
import { Badge, Button, ConfirmDialog, Loading, LoadError, Muted, Pager, PlainList } from '@portal/ui';
import { versionsKey } from '../../../api/versions';
import { Dialog } from '../../../components/Dialog';
import { ActionError } from './ActionError';
import { CompareView } from './CompareView';
import { PruneForm } from './PruneForm';
import { VersionView } from './VersionView';
import { VERSIONS_UI, formatWhen, restoreQuestion, versionTitle } from './texts';
import { useDraftAction, useVersionsApi } from './useVersions';

interface HistoryDialogProps {
  courseId: string;
  prepare: () => Promise<boolean>;
  onClose: () => void;
  /** A version became the draft: the editor reads the course anew. */
  onRestored: () => void;
}

type View = { kind: 'list' } | { kind: 'open'; number: number } | { kind: 'compare' };

/** «История версий»: the published versions newest first, each to open, restore as the draft, or compare. */
export function HistoryDialog({ courseId, prepare, onClose, onRestored }: HistoryDialogProps) {
  const api = useVersionsApi();
  const [page, setPage] = useState(1);
  const [view, setView] = useState<View>({ kind: 'list' });
  const [restoring, setRestoring] = useState<number | null>(null);
  const { busy, failure, setFailure, run } = useDraftAction(courseId, prepare);
  const list = useQuery({
    queryKey: [...versionsKey(courseId), 'list', page],
    queryFn: ({ signal }) => api.list(courseId, page, signal),
    placeholderData: keepPreviousData,
  });

  const restore = (number: number) => {
    setRestoring(null);
    return run(() => api.restore(courseId, number), onRestored);
  };

  const body = () => {
    if (list.isPending) return <Loading label={VERSIONS_UI.historyLoading} />;
    if (list.isError)
      return <LoadError title={VERSIONS_UI.historyFailed} error={list.error} onRetry={() => void list.refetch()} />;
    const versions = list.data.data;
    if (view.kind === 'open') return <VersionView courseId={courseId} number={view.number} />;
    if (view.kind === 'compare') return <CompareView courseId={courseId} versions={versions} />;
    if (versions.length === 0) return <Muted role="status">{VERSIONS_UI.historyEmpty}</Muted>;
    return (
      <>
        {versions.length > 1 && (
          <div>
            <Button type="button" $variant="secondary" $size="sm" onClick={() => setView({ kind: 'compare' })}>
              {VERSIONS_UI.compare}
            </Button>
          </div>
        )}
        <PlainList $gap={12} aria-label="Версии">
          {versions.map((v) => (
            <VersionItem
              key={v.number}
              version={v}
              busy={busy}
              onOpen={() => setView({ kind: 'open', number: v.number })}
              onRestore={() => setRestoring(v.number)}
            />
          ))}
        </PlainList>
        <Pager of={list.data} onPage={setPage} />
        <PruneForm courseId={courseId} />
      </>
    );
  };

  return (
    <Dialog title={VERSIONS_UI.history} onClose={onClose} wide>
      <Body>
        {view.kind !== 'list' && (
          <div>
            <Button type="button" $variant="link" onClick={() => setView({ kind: 'list' })}>
              {VERSIONS_UI.back}
            </Button>
          </div>
        )}
        {failure !== null && <ActionError courseId={courseId} error={failure} onRefreshed={() => setFailure(null)} />}
        {body()}
      </Body>
      {restoring !== null && (
        <ConfirmDialog
          title={`Восстановить версию ${restoring}`}
          message={restoreQuestion(restoring)}
          confirmLabel="Восстановить"
          busy={busy}
          onCancel={() => setRestoring(null)}
          onConfirm={() => void restore(restoring)}
        />
      )}
    </Dialog>
  );
}

function VersionItem({
  version: v,
  busy,
  onOpen,
  onRestore,
}: {
  version: CourseVersionSummary;
  busy: boolean;
  onOpen: () => void;
  onRestore: () => void;
}) {
  return (
    <Item aria-label={versionTitle(v.number)}>
      <Head>
        <h3>{versionTitle(v.number)}</h3>
        {v.current && <Badge $tone="success">{VERSIONS_UI.current}</Badge>}
        <Muted as="span">
          {v.publishedBy.name} · {formatWhen(v.publishedAt)}
        </Muted>
      </Head>
      <p>{v.summary}</p>
      <Muted as="span">
        Уроков добавлено: {v.counts.added}, удалено: {v.counts.removed}, изменено: {v.counts.changed}
        {v.retakeLessonIds.length > 0 && ` · повторное прохождение: ${v.retakeLessonIds.length}`}
      </Muted>
      <Actions>
        <Button type="button" $variant="outline" $size="sm" aria-label={`Открыть версию ${v.number}`} onClick={onOpen}>
          {VERSIONS_UI.open}
        </Button>
        <Button
          type="button"
          $variant="outline"
          $size="sm"
          disabled={busy}
          aria-label={`Восстановить версию ${v.number} как черновик`}
          onClick={onRestore}
        >
          {VERSIONS_UI.restore}
        </Button>
      </Actions>
    </Item>
  );
}

const Body = styled.div`
  display: grid;
  gap: 16px;
`;
const Item = styled.li`
  display: grid;
  gap: 6px;
  padding: 12px 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  p {
    margin: 0;
    overflow-wrap: anywhere;
    white-space: pre-wrap;
  }
`;
const Head = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  flex-wrap: wrap;
  h3 {
    margin: 0;
    font-size: 16px;
  }
`;
const Actions = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
`;
