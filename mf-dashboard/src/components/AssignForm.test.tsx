/** @jest-environment jsdom */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import type { AssignmentCreateInput } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { AssignForm } from './AssignForm';

/** The little of a fetch Response the client reads (jsdom has no Response). */
const answered = (body: unknown) =>
  ({
    ok: true,
    status: 200,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

const page = <T,>(data: T[]) => ({ data, total: data.length, page: 1, limit: 8 });
const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  global.fetch = jest.fn(async (url: string) => {
    asked.push(url);
    if (url.includes('/users/departments'))
      return answered({ ...page([{ name: 'Отдел продаж' }, { name: 'Склад' }]), limit: 100 });
    if (url.includes('/users?'))
      return answered(
        page([
          { id: 'u-1', fullName: 'Дмитрий Соколов', email: 'client@portal.local', role: 'CLIENT', department: null },
          { id: 'u-2', fullName: 'Мария Петрова', email: 'maria@example.test', role: 'CANDIDATE', department: 'Склад' },
        ]),
      );
    if (url.includes('/courses')) return answered([{ id: 'c-1', title: 'Охрана труда' }]);
    return answered({});
  }) as unknown as typeof fetch;
});

function show(onSubmit: (input: AssignmentCreateInput) => void) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <AssignForm busy={false} error={null} onSubmit={onSubmit} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

test('«Подразделение» is chosen from the departments people are in', async () => {
  show(jest.fn());
  const select = await screen.findByRole('combobox', { name: 'Подразделение' });
  await screen.findByRole('option', { name: 'Склад' });
  expect(
    within(select)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Выберите подразделение', 'Отдел продаж', 'Склад']);
  expect(screen.queryByRole('textbox', { name: 'Подразделение' })).toBeNull();
});

test('«Выбранные сотрудники»: a person found in the directory is picked as a chip and assigned by id', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await screen.findByRole('option', { name: 'Охрана труда' });
  fireEvent.change(screen.getByRole('combobox', { name: 'Курс' }), { target: { value: 'c-1' } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Кому' }), { target: { value: 'users' } });
  fireEvent.change(screen.getByRole('searchbox', { name: 'Найти сотрудника' }), { target: { value: 'Соколов' } });
  // Only learners are asked for, by what was typed (once the typing pauses).
  await waitFor(() =>
    expect(asked.some((url) => url.includes('audience=learners') && url.includes(encodeURIComponent('Соколов')))).toBe(true),
  );
  await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Выбрать: Дмитрий Соколов' })));

  expect(within(screen.getByRole('list', { name: 'Выбранные сотрудники' })).getByText('Дмитрий Соколов')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Дмитрий Соколов: выбран' })).toHaveProperty('disabled', true);

  fireEvent.change(screen.getByLabelText('Срок'), { target: { value: '2099-12-31' } });
  fireEvent.click(screen.getByRole('button', { name: 'Назначить' }));
  expect(onSubmit).toHaveBeenCalledWith(
    expect.objectContaining({ courseId: 'c-1', audience: { kind: 'users', userIds: ['u-1'] } }),
  );

  // A chip is removed with its ×; with nobody picked the form says so in Russian.
  fireEvent.click(screen.getByRole('button', { name: 'Убрать: Дмитрий Соколов' }));
  fireEvent.click(screen.getByRole('button', { name: 'Назначить' }));
  expect(screen.getByRole('alert').textContent).toBe('Выберите хотя бы одного человека');
});
