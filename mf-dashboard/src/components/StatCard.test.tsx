/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { lightTheme } from '@portal/ui';
import { StatCard } from './StatCard';

const card = (props: Partial<Parameters<typeof StatCard>[0]>) =>
  render(
    <ThemeProvider theme={lightTheme}>
      <StatCard label="Организации" value={10_000} change="+12" loading={false} {...props} />
    </ThemeProvider>,
  );

describe('StatCard', () => {
  it('says a figure counted to the cap is «at least», and an exact one as it is', () => {
    card({ atLeast: true, change: null });
    expect(screen.getByTestId('stat-value').textContent).toBe('10\u00a0000+');
    expect(screen.queryByTestId('stat-change')).toBeNull();
  });

  it('shows an exact figure with its change over 30 days', () => {
    card({ value: 1234 });
    expect(screen.getByTestId('stat-value').textContent).toBe('1\u00a0234');
    expect(screen.getByTestId('stat-change').textContent).toBe('+12 за 30 дней');
  });
});
