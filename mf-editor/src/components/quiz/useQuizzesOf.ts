import { useQueries } from '@tanstack/react-query';
import type { ContentBlock } from '@portal/contracts';
import { useBackend } from '../../backend/backend';
import type { QuizTitles } from '../../model/blocks';

/**
 * The titles and question counts of the quizzes some blocks hold, for their previews. Each quiz is
 * read once under the key the quiz block's properties use, so the two share one read; a lesson holds
 * few quizzes.
 */
export function useQuizzesOf(blocks: readonly ContentBlock[]): QuizTitles {
  const backend = useBackend();
  const ids = [...new Set(blocks.flatMap((b) => (b.type === 'quiz' && b.content.quizId ? [b.content.quizId] : [])))];
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ['editor', backend.demo, 'quiz', id],
      queryFn: () => backend.getQuiz(id),
      staleTime: 30_000,
    })),
    combine: (results) =>
      new Map(
        results.flatMap((r) =>
          r.data ? [[r.data.id, { title: r.data.title, questionsCount: r.data.questions.length }] as const] : [],
        ),
      ),
  });
}
