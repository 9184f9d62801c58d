import type { Quiz } from '@portal/contracts';
import { QuizPlayer } from './components/QuizPlayer';

export interface QuizPreviewProps {
  quiz: Quiz;
  onClose: () => void;
  /** Inside the host's own dialog (the quiz editor): a region, closed by the host or by `closeLabel`. */
  embedded?: boolean;
  closeLabel?: string;
}

/**
 * The quiz player in preview mode, exposed for the quiz editor (Module Federation `./QuizPreview`,
 * loaded by the editor through web-core's loadRemoteModule): the author's own quiz, shown and graded
 * in the page by the quiz engine, reported nowhere. Render it inside the portal's providers
 * (theme, query cache), which are shared singletons.
 */
export function QuizPreview({ quiz, onClose, embedded, closeLabel }: QuizPreviewProps) {
  return <QuizPlayer source={{ kind: 'preview', quiz }} onClose={onClose} embedded={embedded} closeLabel={closeLabel} />;
}
