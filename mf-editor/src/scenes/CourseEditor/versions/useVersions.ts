import { createContext, useContext, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { readAgain } from '@portal/web-core/query';
import type { ChangeKind, DraftState, VersionDiff } from '@portal/contracts';
import { ApiError } from '@portal/web-core';
import { draftKey, versionsApi, versionsKey, type VersionsApi } from '../../../api/versions';
import { VERSIONS_UI } from './texts';

/** The calls the versions UI makes: the server's, or a test's stand-in. */
export const VersionsApiContext = createContext<VersionsApi>(versionsApi);
export const useVersionsApi = () => useContext(VersionsApiContext);

/** How long after the last save the draft's state is asked again (saves come in bursts while typing). */
export const DRAFT_REFRESH_DELAY_MS = 800;

/**
 * The draft's state against the published version. Read again when the window regains focus (a
 * co-author may have published meanwhile) and after the editor's saves (useDraftRefresh).
 */
export function useDraftState(courseId: string, enabled = true) {
  const api = useVersionsApi();
  return useQuery({
    queryKey: draftKey(courseId),
    queryFn: ({ signal }) => api.draft(courseId, signal),
    enabled,
    staleTime: 0,
    refetchOnWindowFocus: true,
    retry: (failures, err) => failures < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
  });
}

/** Each time `saves` moves on (the editor wrote something), the draft's state is read again, once the burst is over. */
export function useDraftRefresh(courseId: string, saves: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (saves === 0) return;
    const timer = setTimeout(() => void readAgain(queryClient, draftKey(courseId)), DRAFT_REFRESH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [queryClient, courseId, saves]);
}

/** What the outline marks: each added or changed module and lesson by id (removed ones are not in the outline). */
export function changeMarksOf(diff: VersionDiff | undefined): ReadonlyMap<string, ChangeKind> {
  const marks = new Map<string, ChangeKind>();
  for (const change of [...(diff?.modules ?? []), ...(diff?.lessons ?? [])]) {
    if (change.kind !== 'removed') marks.set(change.id, change.kind);
  }
  return marks;
}

/** Another author published (or discarded) since this draft state was read. */
export const isStale = (err: unknown) => err instanceof ApiError && err.status === 412;

/**
 * A publish, a discard or a restore: what the editor still holds is saved first (a save still waiting
 * would land on the new draft after it), then the call; its draft state, when it answers one, is
 * kept, and the history is read again. `failure` is what to show when it went wrong.
 */
export function useDraftAction(courseId: string, prepare: () => Promise<boolean>) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const run = async (call: () => Promise<DraftState | unknown>, done: () => void): Promise<void> => {
    setFailure(null);
    setBusy(true);
    try {
      if (!(await prepare())) {
        setFailure(VERSIONS_UI.unsaved);
        return;
      }
      const answer = await call();
      if (answer && typeof answer === 'object' && 'diff' in answer) queryClient.setQueryData(draftKey(courseId), answer);
      void readAgain(queryClient, versionsKey(courseId));
      done();
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, run };
}
