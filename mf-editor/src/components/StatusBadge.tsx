import styled from 'styled-components';
import { COURSE_STATUS_ICONS, COURSE_STATUS_LABELS, type CourseStatus } from '@portal/contracts';

/** Spec section 4: draft yellow ●, hidden grey ◎, published green ✔, with the status text. */
export function StatusBadge({ status, compact = false }: { status: CourseStatus; compact?: boolean }) {
  const label = COURSE_STATUS_LABELS[status];
  return (
    <Badge $status={status} title={label}>
      <span aria-hidden="true">{COURSE_STATUS_ICONS[status]}</span>
      {compact ? <VisuallyHidden>{label}</VisuallyHidden> : <span>{label}</span>}
    </Badge>
  );
}

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

const Badge = styled.span<{ $status: CourseStatus }>`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  font-size: 13px;
  font-weight: 600;
  color: ${({ theme, $status }) => ($status === 'published' ? theme.colors.success : $status === 'draft' ? theme.colors.warning : theme.colors.muted)};
`;
