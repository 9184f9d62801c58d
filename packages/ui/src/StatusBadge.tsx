import styled from 'styled-components';
import { COURSE_STATUS_ICONS, COURSE_STATUS_LABELS, type CourseStatus } from '@portal/contracts';

export type BadgeTone = 'success' | 'warning' | 'danger' | 'muted' | 'primary';

const toneColor = (tone: BadgeTone) => (tone === 'muted' ? 'muted' : tone);

/** A rounded label in one of five tones (an organization's status, an attempt's result...). */
export const Badge = styled.span<{ $tone?: BadgeTone }>`
  display: inline-flex;
  flex-shrink: 0;
  align-items: center;
  gap: 4px;
  padding: 2px 8px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  white-space: nowrap;
  border: 1px solid currentColor;
  color: ${({ theme, $tone = 'muted' }) => theme.colors[toneColor($tone)]};
`;

/** Text that only screen readers read. */
export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
`;

export const courseStatusTone = (status: CourseStatus): BadgeTone =>
  status === 'published' ? 'success' : status === 'draft' ? 'warning' : 'muted';

/**
 * A course's or a lesson's status (draft, hidden, published): draft yellow ●, hidden grey ◎, published green ✔,
 * with the status text (only for screen readers when `compact`).
 */
export function StatusBadge({ status, compact = false }: { status: CourseStatus; compact?: boolean }) {
  const label = COURSE_STATUS_LABELS[status];
  return (
    <Badge $tone={courseStatusTone(status)} title={`Статус: ${label}`}>
      <span aria-hidden="true">{COURSE_STATUS_ICONS[status]}</span>
      {compact ? <VisuallyHidden>{label}</VisuallyHidden> : <span>{label}</span>}
    </Badge>
  );
}
