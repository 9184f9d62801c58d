/** @jest-environment jsdom */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import type { MyProgramSummary } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { MyPrograms } from './MyPrograms';

/** The little of a fetch Response the client reads (jsdom has no Response). */
const answered = (body: unknown) =>
  ({
    ok: true,
    status: 200,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

const asked: string[] = [];
let programs: MyProgramSummary[] = [];

beforeEach(() => {
  asked.length = 0;
  global.fetch = jest.fn(async (url: string) => {
    asked.push(url);
    return answered({ data: programs, total: programs.length, page: 1, limit: 5 });
  }) as unknown as typeof fetch;
});

function show() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <MyPrograms />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const ONBOARDING: MyProgramSummary = {
  assignmentId: 'pa-1',
  programId: 'p-1',
  title: 'Адаптация нового сотрудника',
  status: 'in_progress',
  stageCount: 3,
  stagesCompleted: 1,
  currentStage: { key: 'safety', title: 'Охрана труда', status: 'in_progress', dueDate: '2026-12-09', daysLeft: 5 },
};

const LATE: MyProgramSummary = {
  assignmentId: 'pa-2',
  programId: 'p-2',
  title: 'Ежегодная проверка знаний',
  status: 'overdue',
  stageCount: 2,
  stagesCompleted: 0,
  currentStage: { key: 'theory', title: 'Теория', status: 'overdue', dueDate: '2026-12-02', daysLeft: -2 },
};

const DONE: MyProgramSummary = {
  assignmentId: 'pa-3',
  programId: 'p-3',
  title: 'Продукт',
  status: 'completed',
  stageCount: 2,
  stagesCompleted: 2,
  currentStage: null,
};

test('a learner without programs sees no «Мои программы» box at all', async () => {
  programs = [];
  const { container } = show();
  await waitFor(() => expect(asked).toHaveLength(1));
  expect(asked[0]).toBe('/api/programs/my?page=1&limit=5');
  // Still nothing once the empty answer is in.
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(container.innerHTML).toBe('');
});

test('each program shows its current stage, its deadline with the days left and the stages done', async () => {
  programs = [ONBOARDING, LATE, DONE];
  show();
  const section = await screen.findByRole('region', { name: 'Мои программы' });
  const lines = within(section).getAllByTestId('program-line');
  expect(lines).toHaveLength(3);

  const [onboarding, late, done] = lines;
  const title = within(onboarding).getByRole('link', { name: 'Адаптация нового сотрудника' });
  expect(title.getAttribute('href')).toBe('/my-programs/pa-1');
  expect(within(onboarding).getByText('Этап 2 из 3: Охрана труда')).toBeTruthy();
  expect(within(onboarding).getByText('в процессе')).toBeTruthy();
  expect(within(onboarding).getByText('до 09.12.2026, осталось 5 дней')).toBeTruthy();
  const bar = within(onboarding).getByRole('progressbar', { name: 'Программа «Адаптация нового сотрудника»' });
  expect(bar.getAttribute('aria-valuenow')).toBe('33');
  expect(bar.getAttribute('aria-valuetext')).toBe('Пройдено этапов: 1 из 3');

  expect(within(late).getByText('Этап 1 из 2: Теория')).toBeTruthy();
  expect(within(late).getByText('до 02.12.2026, просрочен на 2 дня')).toBeTruthy();

  expect(within(done).getByText('программа пройдена')).toBeTruthy();
  expect(within(done).queryByText(/Этап/)).toBeNull();

  expect(within(section).getByRole('link', { name: 'Все программы' }).getAttribute('href')).toBe('/my-programs');
});
