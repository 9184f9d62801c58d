import type { Quiz } from '@portal/contracts';
import { QuizPlayer } from './components/QuizPlayer';

/**
 * The quiz player in preview mode, exposed for the quiz editor (Module Federation `./QuizPreview`):
 * the author's own quiz, graded in the page with the shared rules, reported nowhere. Render it
 * inside the portal's providers (theme, query cache), which are shared singletons.
 */
export function QuizPreview({ quiz, onClose }: { quiz: Quiz; onClose: () => void }) {
  return <QuizPlayer source={{ kind: 'preview', quiz }} onClose={onClose} />;
}
