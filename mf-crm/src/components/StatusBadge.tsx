import { ORG_STATUS_LABELS, type OrgStatus } from '@portal/contracts';
import { Badge } from '@portal/ui';

/** An organization's status: active green, pending yellow, the rest grey. */
export function StatusBadge({ status }: { status: OrgStatus }) {
  return (
    <Badge $tone={status === 'ACTIVE' ? 'success' : status === 'PENDING' ? 'warning' : 'muted'} data-testid="org-status">
      {ORG_STATUS_LABELS[status]}
    </Badge>
  );
}
