import { CANDIDATE_LINK_MSG, PROGRESS_MSG, REVIEW_MSG, type AttemptSummary } from '@portal/contracts';
import { Badge } from '@portal/ui';

export { StatusBadge } from '@portal/ui';

export const LESSON_STATE_LABELS = { done: 'Пройден', todo: 'Не начат' } as const;

/** What a learner sees beside a lesson instead of its publication status: their own state. */
export function LessonStateBadge({ done }: { done: boolean }) {
  return (
    <Badge $tone={done ? 'success' : 'muted'} title={`Урок: ${done ? 'пройден' : 'не начат'}`}>
      {done ? LESSON_STATE_LABELS.done : LESSON_STATE_LABELS.todo}
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
