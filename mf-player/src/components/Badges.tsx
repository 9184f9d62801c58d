import { CANDIDATE_LINK_MSG, PROGRESS_MSG, REVIEW_MSG, type AttemptSummary, type CourseProgress } from '@portal/contracts';
import { Badge } from '@portal/ui';

export { StatusBadge } from '@portal/ui';

/** A learner's state in a lesson: complete (by the server's one rule), its quiz answer waiting for a grade, its quiz tried, or nothing yet. */
export type LessonState = 'done' | 'review' | 'started' | 'todo';

export const LESSON_STATE_LABELS: Record<LessonState, string> = {
  done: 'Пройден',
  review: PROGRESS_MSG.lessonAwaitingReview,
  started: PROGRESS_MSG.inProgress,
  todo: 'Не начат',
};

const LESSON_STATE_TONES = { done: 'success', review: 'warning', started: 'primary', todo: 'muted' } as const;

/** The state of one lesson from the completed set (which a preview keeps in the page) and the server's progress. */
export function lessonStateOf(
  lessonId: string,
  completed: ReadonlySet<string>,
  progress: CourseProgress | undefined,
): LessonState {
  if (completed.has(lessonId)) return 'done';
  if (progress?.awaitingReviewLessonIds?.includes(lessonId)) return 'review';
  if (progress?.attemptedLessonIds?.includes(lessonId)) return 'started';
  return 'todo';
}

/** What a learner sees beside a lesson instead of its publication status: their own state. */
export function LessonStateBadge({ state }: { state: LessonState }) {
  return (
    <Badge $tone={LESSON_STATE_TONES[state]} title={`Урок: ${LESSON_STATE_LABELS[state].toLowerCase()}`}>
      {LESSON_STATE_LABELS[state]}
    </Badge>
  );
}

export function ResultBadge({ status, pendingReviews = 0 }: { status: AttemptSummary['status']; pendingReviews?: number }) {
  if (status === 'submitted') return <Badge $tone="muted">{CANDIDATE_LINK_MSG.submittedTitle}</Badge>;
  if (status !== 'in_progress' && pendingReviews > 0)
    return (
      <Badge $tone="warning" title="Итог станет окончательным после проверки куратором">
        {REVIEW_MSG.pending}
      </Badge>
    );
  const label = status === 'passed' ? PROGRESS_MSG.passed : status === 'failed' ? PROGRESS_MSG.failed : PROGRESS_MSG.inProgress;
  return <Badge $tone={status === 'passed' ? 'success' : status === 'failed' ? 'danger' : 'muted'}>{label}</Badge>;
}

/** Beside a candidate's name in the results: they took the test by a link, without an account. */
export function ViaLinkBadge() {
  return (
    <Badge $tone="muted" title="Кандидат прошёл тест по ссылке, без учётной записи">
      {CANDIDATE_LINK_MSG.viaLink}
    </Badge>
  );
}
