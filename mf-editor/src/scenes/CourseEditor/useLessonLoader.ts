import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BlockRecord } from '@portal/contracts';
import { retriedUnlessRefused } from '@portal/web-core';
import type { EditorBackend } from '../../backend/backend';
import type { EditorLesson } from '../../model/structure';

/** Every lesson read by the editor, per backend (the demo's sample ids never meet the server's). */
export const lessonsKey = (demo: boolean) => ['editor-lesson', demo] as const;

/**
 * One lesson's blocks, keyed by the version the outline named: a copy read earlier is used only
 * while it is still the stored one.
 */
const lessonQuery = (backend: EditorBackend, id: string, version: string | undefined) => ({
  queryKey: [...lessonsKey(backend.demo), id, version ?? ''] as const,
  queryFn: () => backend.getBlock(id),
  staleTime: Infinity,
});

/**
 * The editor opens a course from its outline. The open lesson's blocks are read when it is chosen
 * and handed to the editor; the next lesson is read ahead, so «Следующий урок →» shows it at once.
 */
export function useLessonLoader(
  backend: EditorBackend,
  selected: EditorLesson | null,
  next: EditorLesson | null,
  onLoaded: (record: BlockRecord) => void,
) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...lessonQuery(backend, selected?.id ?? '', selected?.updatedAt),
    enabled: !!selected && !selected.loaded,
    // A lesson that is not there will not appear on a second try.
    retry: retriedUnlessRefused,
  });
  const { data } = query;
  useEffect(() => {
    if (data) onLoaded(data);
  }, [data, onLoaded]);

  const ahead = next && !next.loaded ? next : null;
  const aheadId = ahead?.id;
  const aheadVersion = ahead?.updatedAt;
  useEffect(() => {
    if (aheadId) void queryClient.prefetchQuery(lessonQuery(backend, aheadId, aheadVersion));
  }, [backend, queryClient, aheadId, aheadVersion]);

  return query;
}
