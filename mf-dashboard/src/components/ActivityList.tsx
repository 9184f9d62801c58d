import styled from 'styled-components';
import type { AuditRecord } from '@portal/contracts';
import { PlainList } from '@portal/ui';
import { formatDateTime, relativeTime } from '../format';
import { activityPhrase, readableDetails } from '../activity';

interface ActivityListProps {
  records: AuditRecord[];
  now: Date;
  /** Relative times ('5 мин назад') on the dashboard; exact ones and the details in the history. */
  detailed?: boolean;
  label: string;
}

export function ActivityList({ records, now, detailed = false, label }: ActivityListProps) {
  return (
    <PlainList $gap={0} aria-label={label}>
      {records.map((record) => (
        <Item key={record.id} data-testid="activity-item" data-entity={record.entity} data-action={record.action}>
          <Dot $action={record.action} aria-hidden="true" />
          <Body>
            <Phrase>{activityPhrase(record)}</Phrase>
            {detailed && record.details && <Details>{readableDetails(record.details)}</Details>}
          </Body>
          <Time dateTime={record.timestamp} title={formatDateTime(record.timestamp)}>
            {detailed ? formatDateTime(record.timestamp) : relativeTime(record.timestamp, now)}
          </Time>
        </Item>
      ))}
    </PlainList>
  );
}

const Item = styled.li`
  display: grid;
  grid-template-columns: auto 1fr auto;
  gap: 12px;
  align-items: start;
  padding: 10px 0;
  & + & {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
`;

const Dot = styled.span<{ $action: AuditRecord['action'] }>`
  width: 10px;
  height: 10px;
  margin-top: 7px;
  border-radius: 50%;
  background: ${({ theme, $action }) =>
    $action === 'delete'
      ? theme.colors.danger
      : $action === 'create'
        ? theme.colors.success
        : $action === 'update'
          ? theme.colors.warning
          : theme.colors.primary};
`;

const Body = styled.div`
  display: grid;
  gap: 2px;
  min-width: 0;
`;

const Phrase = styled.span`
  overflow-wrap: anywhere;
`;

const Details = styled.span`
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
  overflow-wrap: anywhere;
`;

const Time = styled.time`
  font-size: 13px;
  white-space: nowrap;
  color: ${({ theme }) => theme.colors.muted};
`;
