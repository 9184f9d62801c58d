/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import type { MyProgram as MyProgramData } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { MyProgram } from './MyProgram';

const answered = (status: number, body: unknown) =>
  ({
    ok: status < 400,
    status,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

let answer: Response;
beforeEach(() => {
  global.fetch = jest.fn(async () => answer) as unknown as typeof fetch;
});

function show(assignmentId: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <MyProgram assignmentId={assignmentId} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const COMPLETED: MyProgramData = {
  assignmentId: 'pa-1',
  programId: 'p-1',
  title: 'Адаптация нового сотрудника',
  description: 'Первые недели в компании.',
  status: 'completed',
  mandatory: true,
  message: 'Пройдите до конца месяца',
  completedAt: '2026-11-30T12:00:00.000Z',
  certificateNumber: 'PRG-2026-0001',
  stages: [
    {
      key: 'intro',
      title: 'Знакомство',
      status: 'completed',
      dueDate: '2026-12-01',
      daysLeft: null,
      dueDays: 7,
      dueFrom: 'assigned',
      completedAt: '2026-11-30T12:00:00.000Z',
      opensAfter: null,
      required: 1,
      done: 1,
      courses: [{ courseId: 'c-1', title: 'О компании', completed: true, percent: 100 }],
    },
  ],
};

test('a program that is not there (or not this learner’s) says «Программа не найдена»', async () => {
  answer = answered(404, { message: 'Программа не найдена', statusCode: 404 });
  show('nope');
  expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Программа не найдена');
  expect(screen.getByRole('link', { name: 'Все мои программы' }).getAttribute('href')).toBe('/my-programs');
});

test('a failure other than «not found» says so and offers «Повторить»', async () => {
  answer = answered(503, { message: 'Сервис временно недоступен', statusCode: 503 });
  show('pa-1');
  // Asked once more first (a passing failure), then said.
  expect((await screen.findByRole('alert', {}, { timeout: 4000 })).textContent).toContain('Сервис временно недоступен');
  expect(screen.getByRole('button', { name: 'Повторить' })).toBeTruthy();
});

test('a completed program shows its date, the curator’s message and its certificate', async () => {
  answer = answered(200, COMPLETED);
  show('pa-1');
  expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Адаптация нового сотрудника');
  expect(screen.getByText('Пройдите до конца месяца')).toBeTruthy();
  expect(screen.getByTestId('program-completed').textContent).toContain('Программа пройдена 30.11.2026');
  expect(screen.getByRole('button', { name: 'Скачать сертификат PRG-2026-0001 (PDF)' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Сертификат № PRG-2026-0001' }).getAttribute('href')).toBe('/verify/PRG-2026-0001');
  expect(screen.getByRole('listitem', { name: 'Этап 1: Знакомство, пройден' })).toBeTruthy();
});
