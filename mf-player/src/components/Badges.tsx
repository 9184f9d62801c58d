import styled from 'styled-components';
import {
  COURSE_STATUS_ICONS,
  COURSE_STATUS_LABELS,
  PROGRESS_MSG,
  REVIEW_MSG,
  type AttemptStatus,
  type CourseStatus,
} from '@portal/contracts';

/** A lesson's status (spec section 4): draft yellow ●, hidden grey ◎, published green ✔. */
export function StatusBadge({ status }: { status: CourseStatus }) {
  return (
    <Badge
      $tone={status === 'published' ? 'success' : status === 'draft' ? 'warning' : 'muted'}
      title={`Статус: ${COURSE_STATUS_LABELS[status]}`}
    >
      <span aria-hidden="true">{COURSE_STATUS_ICONS[status]}</span> {COURSE_STATUS_LABELS[status]}
    </Badge>
  );
}

export const LESSON_STATE_LABELS = { done: 'Пройден', todo: 'Не начат' } as const;

/** What a learner sees beside a lesson instead of its publication status: their own state. */
export function LessonStateBadge({ done }: { done: boolean }) {
  return (
    <Badge $tone={done ? 'success' : 'muted'} title={`Урок: ${done ? 'пройден' : 'не начат'}`}>
      {done ? LESSON_STATE_LABELS.done : LESSON_STATE_LABELS.todo}
    </Badge>
  );
}

export function ResultBadge({ status, pendingReviews = 0 }: { status: AttemptStatus; pendingReviews?: number }) {
  if (status !== 'in_progress' && pendingReviews > 0)
    return (
      <Badge $tone="warning" title="Итог станет окончательным после проверки куратором">
        {REVIEW_MSG.pending}
      </Badge>
    );
  const label = status === 'passed' ? PROGRESS_MSG.passed : status === 'failed' ? PROGRESS_MSG.failed : PROGRESS_MSG.inProgress;
  return <Badge $tone={status === 'passed' ? 'success' : status === 'failed' ? 'danger' : 'muted'}>{label}</Badge>;
}

type Tone = 'success' | 'warning' | 'danger' | 'muted';
const Badge = styled.span<{ $tone: Tone }>`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  padding: 2px 8px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  white-space: nowrap;
  border: 1px solid currentColor;
  color: ${({ theme, $tone }) => ($tone === 'muted' ? theme.colors.muted : theme.colors[$tone])};
`;
