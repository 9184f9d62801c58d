/** @jest-environment jsdom */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import { ASSIGNMENT_MSG, type AssignmentCreateInput } from '@portal/contracts';
import { lightTheme, type Refusal } from '@portal/ui';
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

function show(
  onSubmit: (input: AssignmentCreateInput) => void,
  { busy = false, error = null }: { busy?: boolean; error?: Refusal | null } = {},
) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <AssignForm busy={busy} error={error} onSubmit={onSubmit} />
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
  await submit();
  expect(onSubmit).toHaveBeenCalledWith(
    expect.objectContaining({ courseId: 'c-1', audience: { kind: 'users', userIds: ['u-1'] } }),
  );

  // A chip is removed with its ×; with nobody picked the form says so in Russian, under the picker,
  // and the search box takes the focus.
  fireEvent.click(screen.getByRole('button', { name: 'Убрать: Дмитрий Соколов' }));
  await submit();
  expect(screen.getByRole('alert').textContent).toBe(ASSIGNMENT_MSG.usersRequired);
  expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Найти сотрудника' }));
  expect(onSubmit).toHaveBeenCalledTimes(1);
});

test('an empty form names what is missing under each field, the course first, and sends nothing', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await screen.findByRole('option', { name: 'Охрана труда' });
  await submit();

  const course = screen.getByRole('combobox', { name: 'Курс' });
  expect(course.getAttribute('aria-invalid')).toBe('true');
  expect(messageUnder(course)).toBe('Выберите курс');
  expect(messageUnder(screen.getByRole('combobox', { name: 'Подразделение' }))).toBe(ASSIGNMENT_MSG.departmentRequired);
  expect(messageUnder(screen.getByLabelText('Срок'))).toBe(ASSIGNMENT_MSG.dueDateInvalid);
  expect(document.activeElement).toBe(course);
  expect(onSubmit).not.toHaveBeenCalled();

  // A field put right loses its message as it changes; the others keep theirs.
  await act(async () => fireEvent.change(course, { target: { value: 'c-1' } }));
  expect(course.getAttribute('aria-invalid')).toBeNull();
  expect(screen.queryByText('Выберите курс')).toBeNull();
  expect(screen.getByText(ASSIGNMENT_MSG.dueDateInvalid)).toBeTruthy();
});

test('a department, a date and a recurrence are sent as the request; a recurrence out of range is refused under its field', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await screen.findByRole('option', { name: 'Охрана труда' });
  await screen.findByRole('option', { name: 'Склад' });
  fireEvent.change(screen.getByRole('combobox', { name: 'Курс' }), { target: { value: 'c-1' } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Подразделение' }), { target: { value: 'Склад' } });
  fireEvent.change(screen.getByLabelText('Срок'), { target: { value: '2099-12-31' } });
  const recurrence = screen.getByLabelText('Повторять каждые (месяцев)');
  fireEvent.change(recurrence, { target: { value: '121' } });
  await submit();
  expect(messageUnder(recurrence)).toBe(ASSIGNMENT_MSG.recurrenceInvalid);
  expect(onSubmit).not.toHaveBeenCalled();

  fireEvent.change(recurrence, { target: { value: '12' } });
  fireEvent.change(screen.getByLabelText('Сообщение'), { target: { value: '  Пройдите до конца года  ' } });
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({
    courseId: 'c-1',
    audience: { kind: 'department', department: 'Склад' },
    dueDate: '2099-12-31',
    mandatory: true,
    recurrenceMonths: 12,
    message: 'Пройдите до конца года',
  });
});

test('a refusal naming the due date stands under «Срок», and the button waits while sending', async () => {
  show(jest.fn(), { error: { message: ASSIGNMENT_MSG.dueDatePast, field: 'dueDate' }, busy: true });
  const due = screen.getByLabelText('Срок');
  expect(due.getAttribute('aria-invalid')).toBe('true');
  expect(messageUnder(due)).toBe(ASSIGNMENT_MSG.dueDatePast);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByRole('button', { name: 'Назначить' })).toHaveProperty('disabled', true);
  await screen.findByRole('option', { name: 'Охрана труда' });
});

test('a refusal about the people picked stands under the picker', async () => {
  show(jest.fn(), { error: { message: ASSIGNMENT_MSG.tooManyUsers, field: 'audience.userIds' } });
  await screen.findByRole('option', { name: 'Охрана труда' });
  expect(screen.queryByRole('alert')).toBeNull();
  fireEvent.change(screen.getByRole('combobox', { name: 'Кому' }), { target: { value: 'users' } });
  const said = await screen.findByRole('alert');
  expect(said.textContent).toBe(ASSIGNMENT_MSG.tooManyUsers);
  // Between the picker's search box and «Срок».
  const after = (a: Node, b: Node) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  expect(after(screen.getByRole('searchbox', { name: 'Найти сотрудника' }), said)).toBe(true);
  expect(after(said, screen.getByLabelText('Срок'))).toBe(true);
});

test('a refusal naming no field of the form is said above the button', async () => {
  show(jest.fn(), { error: { message: ASSIGNMENT_MSG.courseNotPublished } });
  expect(screen.getByRole('alert').textContent).toBe(ASSIGNMENT_MSG.courseNotPublished);
  expect(screen.getByRole('button', { name: 'Назначить' })).toHaveProperty('disabled', false);
  await screen.findByRole('option', { name: 'Охрана труда' });
});
