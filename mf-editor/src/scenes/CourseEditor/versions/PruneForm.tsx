import { useState } from 'react';
import styled from 'styled-components';
import { useQueryClient } from '@tanstack/react-query';
import { readAgain } from '@portal/web-core/query';
import { DEFAULT_VERSION_RETENTION, pruneVersionsSchema } from '@portal/contracts';
import { Button, Field, Input, Muted } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { versionsKey } from '../../../api/versions';
import { VERSIONS_UI } from './texts';
import { useVersionsApi } from './useVersions';

/** «Очистить старые версии»: keeps the newest N (and any version an attempt refers to). */
export function PruneForm({ courseId }: { courseId: string }) {
  const api = useVersionsApi();
  const queryClient = useQueryClient();
  const [keep, setKeep] = useState(String(DEFAULT_VERSION_RETENTION));
  const [error, setError] = useState<string>();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const prune = async () => {
    const checked = pruneVersionsSchema.shape.keep.safeParse(keep);
    setOutcome(null);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const { removed } = await api.prune(courseId, checked.data);
      setOutcome(VERSIONS_UI.pruned(removed));
      void readAgain(queryClient, versionsKey(courseId));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      aria-label={VERSIONS_UI.prune}
      onSubmit={(e) => {
        e.preventDefault();
        void prune();
      }}
      noValidate
    >
      <Field label={VERSIONS_UI.pruneKeep} hint={VERSIONS_UI.pruneHint} error={error}>
        <Input type="number" min={1} max={1000} inputMode="numeric" value={keep} onChange={(e) => setKeep(e.target.value)} />
      </Field>
      <Button type="submit" $variant="outline" $size="sm" disabled={busy}>
        {VERSIONS_UI.prune}
      </Button>
      {outcome && <Muted role="status">{outcome}</Muted>}
    </Box>
  );
}

const Box = styled.form`
  display: grid;
  gap: 8px;
  justify-items: start;
  padding-top: 12px;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  p {
    margin: 0;
  }
`;
