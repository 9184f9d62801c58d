import { useEffect, useState, type ComponentType } from 'react';
import type { Quiz } from '@portal/contracts';
import { ErrorBox, Muted } from '@portal/ui';
import { loadRemoteModule } from '@portal/web-core';

/** The props of the player's `./QuizPreview` (mf-player/src/QuizPreview.tsx). */
interface QuizPreviewProps {
  quiz: Quiz;
  onClose: () => void;
  embedded?: boolean;
  closeLabel?: string;
}

export const PREVIEW_MSG = { loading: 'Загрузка предпросмотра...', back: 'Вернуться к редактированию' } as const;

/**
 * The quiz as a learner will take it, in preview mode: the player's own
 * `mf_player/QuizPreview`, loaded through Module Federation, so the editor shows exactly what the
 * player shows (the quiz engine's view, shuffle, countdown and grading). Nothing is reported.
 */
export function RemoteQuizPreview({ quiz, onClose }: { quiz: Quiz; onClose: () => void }) {
  const [Preview, setPreview] = useState<ComponentType<QuizPreviewProps> | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    loadRemoteModule<{ QuizPreview: ComponentType<QuizPreviewProps> }>('mf_player/QuizPreview').then(
      (mod) => live && setPreview(() => mod.QuizPreview),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, []);

  if (error) return <ErrorBox>{error}</ErrorBox>;
  if (!Preview) return <Muted role="status">{PREVIEW_MSG.loading}</Muted>;
  return <Preview quiz={quiz} onClose={onClose} embedded closeLabel={PREVIEW_MSG.back} />;
}
