import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import type { CourseVersionSummary } from '@portal/contracts';
import { Field, Loading, LoadError, Select } from '@portal/ui';
import { versionsKey } from '../../../api/versions';
import { DiffView } from './DiffView';
import { VERSIONS_UI, versionTitle } from './texts';
import { useVersionsApi } from './useVersions';

/** The pair compared first: the version before the current one, and the current one (the list is newest first). */
export function defaultPair(versions: readonly CourseVersionSummary[]): { from: number; to: number } {
  const toIndex = Math.max(
    0,
    versions.findIndex((v) => v.current),
  );
  const to = versions[toIndex]?.number ?? 1;
  const from = versions[toIndex + 1]?.number ?? versions.find((v) => v.number !== to)?.number ?? to;
  return { from, to };
}

/** «Сравнить»: two versions chosen in «С версии» and «По версию», and what differs between them. */
export function CompareView({ courseId, versions }: { courseId: string; versions: readonly CourseVersionSummary[] }) {
  const api = useVersionsApi();
  const [pair, setPair] = useState(() => defaultPair(versions));
  const diff = useQuery({
    queryKey: [...versionsKey(courseId), 'compare', pair.from, pair.to],
    queryFn: ({ signal }) => api.compare(courseId, pair.from, pair.to, signal),
    enabled: pair.from !== pair.to,
    staleTime: Infinity,
  });
  const choose = (side: 'from' | 'to') => (
    <Select value={pair[side]} onChange={(e) => setPair((p) => ({ ...p, [side]: Number(e.target.value) }))}>
      {versions.map((v) => (
        <option key={v.number} value={v.number}>
          {versionTitle(v.number)}
        </option>
      ))}
    </Select>
  );
  return (
    <Box aria-label="Сравнение версий">
      <Pair>
        <Field label={VERSIONS_UI.from}>{choose('from')}</Field>
        <Field label={VERSIONS_UI.to}>{choose('to')}</Field>
      </Pair>
      {pair.from === pair.to ? (
        <p>{VERSIONS_UI.noDifferences}</p>
      ) : diff.isPending ? (
        <Loading label={VERSIONS_UI.compareLoading} />
      ) : diff.isError ? (
        <LoadError title={VERSIONS_UI.compareFailed} error={diff.error} onRetry={() => void diff.refetch()} />
      ) : (
        <DiffView diff={diff.data} />
      )}
    </Box>
  );
}

const Box = styled.section`
  display: grid;
  gap: 16px;
  p {
    margin: 0;
  }
`;
const Pair = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: 12px;
`;
