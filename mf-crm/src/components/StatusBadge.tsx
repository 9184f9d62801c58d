import styled from 'styled-components';
import { ORG_STATUS_LABELS, type OrgStatus } from '@portal/contracts';

export function StatusBadge({ status }: { status: OrgStatus }) {
  return (
    <Badge $status={status} data-testid="org-status">
      {ORG_STATUS_LABELS[status]}
    </Badge>
  );
}

export const Badge = styled.span<{ $status?: OrgStatus }>`
  display: inline-flex;
  flex-shrink: 0;
  align-items: center;
  height: 24px;
  padding: 0 10px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  white-space: nowrap;
  border: 1px solid currentColor;
  color: ${({ theme, $status }) =>
    $status === 'ACTIVE' ? theme.colors.success : $status === 'PENDING' ? theme.colors.warning : theme.colors.muted};
`;
