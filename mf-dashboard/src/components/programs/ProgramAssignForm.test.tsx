/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import { ASSIGNMENT_MSG, PROGRAM_MSG, type ProgramAssignmentCreateInput } from '@portal/contracts';
import { lightTheme, type Refusal } from '@portal/ui';
import { ProgramAssignForm } from './ProgramAssignForm';

const PROGRAM = '64a000000000000000000001';

/** The little of a fetch Response the client reads (jsdom has no Response). */
const answered = (body: unknown) =>
  ({
    ok: true,
    status: 200,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

beforeEach(() => {
  global.fetch = jest.fn(async (url: string) =>
    url.includes('/users/departments')
      ? answered({ data: [{ name: 'Отдел продаж' }, { name: 'Склад' }], total: 2, page: 1, limit: 100 })
      : answered({ data: [], total: 0, page: 1, limit: 8 }),
  ) as unknown as typeof fetch;
});

function show(
  onSubmit: (input: ProgramAssignmentCreateInput) => void,
  { busy = false, error = null }: { busy?: boolean; error?: Refusal | null } = {},
) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <ProgramAssignForm programId={PROGRAM} busy={busy} error={error} onSubmit={onSubmit} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const submit = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Назначить' })));
/** The message under a field: the text its `aria-describedby` points at. */
const messageUnder = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .filter(Boolean)
    .join(' ');

test('no department chosen is said under «Подразделение», which takes the focus, and nothing is sent', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await screen.findByRole('option', { name: 'Склад' });
  expect(screen.getByText('Сотрудники, которые позже придут в подразделение, тоже получат программу.')).toBeTruthy();
  await submit();
  const department = screen.getByRole('combobox', { name: 'Подразделение' });
  expect(department.getAttribute('aria-invalid')).toBe('true');
  expect(messageUnder(department)).toBe(ASSIGNMENT_MSG.departmentRequired);
  expect(document.activeElement).toBe(department);
  expect(onSubmit).not.toHaveBeenCalled();
});

test('a role, a recurrence and a message are sent for the program; a recurrence out of range is refused under it', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  fireEvent.change(screen.getByRole('combobox', { name: 'Кому' }), { target: { value: 'role' } });
  fireEvent.change(await screen.findByRole('combobox', { name: 'Роль' }), { target: { value: 'CANDIDATE' } });
  expect(screen.queryByText(/тоже получат программу/)).toBeNull();
  const recurrence = screen.getByLabelText('Повторять каждые (месяцев)');
  fireEvent.change(recurrence, { target: { value: '0' } });
  await submit();
  expect(messageUnder(recurrence)).toBe(PROGRAM_MSG.recurrenceInvalid);
  expect(onSubmit).not.toHaveBeenCalled();

  fireEvent.change(recurrence, { target: { value: '6' } });
  fireEvent.click(screen.getByLabelText('Обязательное'));
  fireEvent.change(screen.getByLabelText('Сообщение'), { target: { value: ' Начните с первого этапа ' } });
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({
    programId: PROGRAM,
    audience: { kind: 'role', role: 'CANDIDATE' },
    mandatory: false,
    recurrenceMonths: 6,
    message: 'Начните с первого этапа',
  });
});

test('a refusal naming the department stands under «Подразделение»', async () => {
  show(jest.fn(), { error: { message: ASSIGNMENT_MSG.departmentRequired, field: 'audience.department' } });
  await screen.findByRole('option', { name: 'Склад' });
  expect(messageUnder(screen.getByRole('combobox', { name: 'Подразделение' }))).toBe(ASSIGNMENT_MSG.departmentRequired);
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a refusal naming no field of the form is said above the button, and the button waits while sending', async () => {
  show(jest.fn(), { error: { message: PROGRAM_MSG.notFound, field: 'programId' }, busy: true });
  expect(screen.getByRole('alert').textContent).toBe(PROGRAM_MSG.notFound);
  expect(screen.getByRole('button', { name: 'Назначить' })).toHaveProperty('disabled', true);
  await screen.findByRole('option', { name: 'Склад' });
});
