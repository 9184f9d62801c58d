import styled from 'styled-components';
import { Card } from '@portal/ui';
import { DASHBOARD_MSG } from '@portal/contracts';

const numberFormat = new Intl.NumberFormat('ru-RU');

interface StatCardProps {
  label: string;
  value: number | null;
  change: string | null;
  loading: boolean;
  /** The value was counted to a cap and stopped: there are more («10 000+»). */
  atLeast?: boolean;
}

type Trend = 'up' | 'down' | 'flat';
const trendOf = (change: string): Trend => (change.startsWith('-') ? 'down' : change === '0' ? 'flat' : 'up');

/** One figure of the dashboard with its change over the last 30 days. */
export function StatCard({ label, value, change, loading, atLeast = false }: StatCardProps) {
  const missing = !loading && value === null;
  return (
    <Figure as="article" aria-label={label} aria-busy={loading} data-testid="stat-card">
      <Label>{label}</Label>
      <Value data-testid="stat-value" title={missing ? DASHBOARD_MSG.unavailable : undefined}>
        {loading ? '…' : value === null ? '—' : `${numberFormat.format(value)}${atLeast ? '+' : ''}`}
      </Value>
      {change !== null && !loading && (
        <Change $trend={trendOf(change)} data-testid="stat-change">
          {change} <span>за 30 дней</span>
        </Change>
      )}
      {missing && <Note>{DASHBOARD_MSG.unavailable}</Note>}
    </Figure>
  );
}

const Figure = styled(Card)`
  display: grid;
  gap: 4px;
  padding: 20px;
`;

const Label = styled.span`
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;

const Value = styled.span`
  font-size: 32px;
  font-weight: 700;
  line-height: 1.2;
`;

const Change = styled.span<{ $trend: Trend }>`
  font-size: 13px;
  font-weight: 600;
  color: ${({ theme, $trend }) => ($trend === 'up' ? theme.colors.success : $trend === 'down' ? theme.colors.danger : theme.colors.muted)};
  span {
    font-weight: 400;
    color: ${({ theme }) => theme.colors.muted};
  }
`;

const Note = styled.span`
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
