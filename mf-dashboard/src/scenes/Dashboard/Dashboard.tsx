import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, ErrorBox, Muted, Page, PageHeader, Spread } from '@portal/ui';
import {
  ACTIVITY_DAYS,
  DASHBOARD_MSG,
  FIGURE_LABELS,
  ROLE_LABELS,
  STUDY_ROLES,
  figuresFor,
  isStaff,
  type DashboardStats,
  type User,
} from '@portal/contracts';
import { readerTimeZone, useAuth } from '@portal/web-core';
import { fetchStats, statsKey } from '../../api/dashboard';
import { ActivityChart } from '../../components/ActivityChart';
import { ApplicationNotice } from '../../components/ApplicationNotice';
import { ActivityList } from '../../components/ActivityList';
import { HistoryDialog } from '../../components/HistoryDialog';
import { MyAssignments } from '../../components/MyAssignments';
import { MyPrograms } from '../../components/MyPrograms';
import { QuickActions } from '../../components/QuickActions';
import { StatCard } from '../../components/StatCard';
import { greeting, lastLocalDays, todayLabel } from '../../format';
import { useNow } from '../../hooks/useNow';

export function Dashboard() {
  const { user } = useAuth();
  // The route guard lets only signed-in people here; the check keeps the types honest.
  if (!user) return null;
  return <DashboardFor user={user} />;
}

/** How soon a dashboard with figures missing asks again. */
const PARTIAL_REFETCH_MS = 3_000;

function DashboardFor({ user }: { user: User }) {
  const now = useNow();
  const [historyOpen, setHistoryOpen] = useState(false);
  const tz = readerTimeZone();
  const stats = useQuery({
    queryKey: statsKey(user.id, tz),
    queryFn: ({ signal }) => fetchStats(tz, signal),
    staleTime: 0,
    // Figures a service could not give in time («—») are asked for again within seconds, not at the
    // next half-minute: a service busy or restarting for a moment leaves no gap for long.
    refetchInterval: (query) => (query.state.data?.partial ? PARTIAL_REFETCH_MS : 30_000),
  });

  useEffect(() => {
    if (stats.error) console.error('Не удалось загрузить данные дашборда', stats.error);
  }, [stats.error]);

  const loading = stats.isPending;
  // On failure the figures are zeros and the activity is empty.
  const failed = !!stats.error && !stats.data;
  const data: DashboardStats | undefined = stats.data;
  const figures = figuresFor(user.role);
  const days = data?.activityByDay.length
    ? data.activityByDay
    : lastLocalDays(ACTIVITY_DAYS, now).map((date) => ({ date, count: 0 }));
  const recent = data?.recentActivity ?? [];
  const firstName = user.firstName || user.fullName;

  return (
    <Page data-mf="mf_dashboard">
      <Header>
        <div>
          <h1>
            {greeting(now)}, {firstName}!
          </h1>
          <Muted data-testid="dashboard-subtitle">
            <Role>{ROLE_LABELS[user.role]}</Role> · {todayLabel(now)}
          </Muted>
        </div>
        <Button type="button" $variant="outline" onClick={() => setHistoryOpen(true)}>
          {DASHBOARD_MSG.history}
        </Button>
      </Header>

      {user.role === 'CANDIDATE' && <ApplicationNotice user={user} />}
      {failed && <ErrorBox>{DASHBOARD_MSG.loadFailed}</ErrorBox>}
      {data?.partial && <Muted role="status">{DASHBOARD_MSG.partial}</Muted>}
      {STUDY_ROLES.includes(user.role) && (
        <Learning>
          <MyAssignments />
          <MyPrograms />
        </Learning>
      )}

      <Stats aria-label="Показатели">
        {figures.map((figure) => (
          <StatCard
            key={figure}
            label={FIGURE_LABELS[figure]}
            value={failed ? 0 : (data?.[figure] ?? null)}
            change={failed ? null : (data?.change[figure] ?? null)}
            atLeast={!failed && !!data?.lowerBounds?.includes(figure)}
            loading={loading}
          />
        ))}
      </Stats>

      <Columns>
        <Side>
          <Section aria-labelledby="dashboard-quick-actions">
            <h2 id="dashboard-quick-actions">{DASHBOARD_MSG.quickActions}</h2>
            <QuickActions role={user.role} />
          </Section>
          <Section aria-labelledby="dashboard-chart">
            <h2 id="dashboard-chart">{DASHBOARD_MSG.chartTitle}</h2>
            <ActivityChart days={days} label={DASHBOARD_MSG.chartTitle} />
          </Section>
        </Side>
        <Section aria-labelledby="dashboard-recent">
          <SectionHeader>
            <h2 id="dashboard-recent">{DASHBOARD_MSG.recentActivity}</h2>
            <Button type="button" $variant="link" onClick={() => setHistoryOpen(true)}>
              Вся история
            </Button>
          </SectionHeader>
          {loading ? (
            <Muted>Загрузка...</Muted>
          ) : recent.length === 0 ? (
            <Muted>{DASHBOARD_MSG.noActivity}</Muted>
          ) : (
            <ActivityList records={recent} now={now} label={DASHBOARD_MSG.recentActivity} />
          )}
        </Section>
      </Columns>

      <HistoryDialog open={historyOpen} onClose={() => setHistoryOpen(false)} scope={isStaff(user.role) ? 'all' : 'own'} />
    </Page>
  );
}

const Header = styled(PageHeader).attrs({ $gap: 16 })`
  align-items: flex-start;
  margin-bottom: 16px;
  h1 {
    margin: 0 0 4px;
    font-size: 28px;
  }
  p {
    margin: 0;
  }
`;

const Role = styled.span`
  font-weight: 600;
  color: ${({ theme }) => theme.colors.text};
`;

/** A learner's assignments and programs side by side; one under the other on a narrow screen. */
const Learning = styled.div`
  display: grid;
  gap: 0 24px;
  grid-template-columns: repeat(auto-fit, minmax(min(360px, 100%), 1fr));
`;

const Stats = styled.section`
  display: grid;
  gap: 16px;
  margin: 16px 0 24px;
  grid-template-columns: repeat(auto-fit, minmax(200px, 1fr));
`;

const Columns = styled.div`
  display: grid;
  gap: 24px;
  align-items: start;
  grid-template-columns: minmax(0, 1fr) minmax(0, 1.3fr);
  @media (max-width: 900px) {
    grid-template-columns: 1fr;
  }
`;

const Side = styled.div`
  display: grid;
  gap: 24px;
  align-content: start;
`;

const Section = styled(Card).attrs({ as: 'section' })`
  h2 {
    margin: 0 0 16px;
    font-size: 18px;
  }
`;

const SectionHeader = styled(Spread).attrs({ $align: 'baseline' })`
  h2 {
    margin-bottom: 12px;
  }
`;
