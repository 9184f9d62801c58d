import styled, { type DefaultTheme } from 'styled-components';
import { COURSE_STATUS_ICONS, COURSE_STATUS_LABELS, type CourseStatus } from '@portal/contracts';

const colorOf = (theme: DefaultTheme, status: CourseStatus) =>
  status === 'published' ? theme.colors.success : status === 'draft' ? theme.colors.warning : theme.colors.muted;

/** A course status as an icon: draft yellow ●, hidden grey ◎, published green ✔, with the status in words for assistive tech. */
export function StatusIcon({ status }: { status: CourseStatus }) {
  const label = COURSE_STATUS_LABELS[status];
  return (
    <Mark $status={status} role="img" aria-label={`Статус: ${label}`} title={label} data-status={status}>
      {COURSE_STATUS_ICONS[status]}
    </Mark>
  );
}

const Mark = styled.span<{ $status: CourseStatus }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 22px;
  height: 22px;
  flex: none;
  font-size: 15px;
  line-height: 1;
  color: ${({ theme, $status }) => colorOf(theme, $status)};
`;
