import styled from 'styled-components';
import type { DayCount } from '@portal/contracts';
import { actionCount, longDay, shortDay } from '../format';

const WIDTH = 280;
const HEIGHT = 96;
const GAP = 4;

/** Actions per day as plain SVG bars, with a text summary for those who cannot see it. */
export function ActivityChart({ days, label }: { days: DayCount[]; label: string }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const busiest = days.reduce<DayCount | null>((best, d) => (d.count > (best?.count ?? 0) ? d : best), null);
  const slot = WIDTH / Math.max(1, days.length);
  const summary = `${label}: ${actionCount(total)}${busiest ? `, больше всего ${longDay(busiest.date)} (${busiest.count})` : ''}`;
  return (
    <Figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        preserveAspectRatio="none"
        data-testid="activity-chart"
      >
        {days.map((day, i) => {
          const height = day.count === 0 ? 2 : Math.max(4, (day.count / max) * (HEIGHT - 4));
          return (
            <Bar
              key={day.date}
              x={i * slot + GAP / 2}
              y={HEIGHT - height}
              width={slot - GAP}
              height={height}
              rx={3}
              $empty={day.count === 0}
            >
              <title>{`${longDay(day.date)}: ${actionCount(day.count)}`}</title>
            </Bar>
          );
        })}
      </svg>
      {days.length > 0 && (
        <Axis aria-hidden="true">
          <span>{shortDay(days[0].date)}</span>
          <span>Сегодня</span>
        </Axis>
      )}
    </Figure>
  );
}

const Figure = styled.div`
  display: grid;
  gap: 6px;
  svg {
    width: 100%;
    height: 120px;
    display: block;
  }
`;

const Bar = styled.rect<{ $empty: boolean }>`
  fill: ${({ theme, $empty }) => ($empty ? theme.colors.border : theme.colors.primary)};
`;

const Axis = styled.div`
  display: flex;
  justify-content: space-between;
  font-size: 12px;
  color: ${({ theme }) => theme.colors.muted};
`;
