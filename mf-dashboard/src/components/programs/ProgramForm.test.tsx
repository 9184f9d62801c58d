/** @jest-environment jsdom */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import type { Program } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { ProgramForm } from '../../scenes/ProgramEditor/ProgramForm';

const C1 = '64b000000000000000000001';
const C2 = '64b000000000000000000002';
const C3 = '64b000000000000000000003';
const OWNER = '64c000000000000000000001';
const ANNA = '64c000000000000000000002';
const BORIS = '64c000000000000000000003';

const person = (id: string, fullName: string, email: string) => ({ id, fullName, email, role: 'CURATOR' });
const curators = [person(OWNER, 'Куратор', 'owner@example.test'), person(BORIS, 'Борис Петров', 'boris@example.test')];

const program: Program = {
  id: '64a000000000000000000001',
  title: 'Адаптация нового сотрудника',
  description: '',
  certificate: false,
  status: 'active',
  stages: [
    {
      key: 'first',
      title: 'Знакомство',
      courses: [
        { id: C1, title: 'О компании', published: true },
        { id: C2, title: 'Охрана труда', published: true },
      ],
      required: null,
      dueDays: 7,
      dueFrom: 'assigned',
      locked: false,
    },
    { key: 'second', title: 'Практика', courses: [], required: null, dueDays: 14, dueFrom: 'previous', locked: true },
  ],
  owner: { id: OWNER, fullName: 'Куратор' },
  coAuthorIds: [],
  coAuthors: [],
  canEdit: true,
  version: 3,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};

const answer = (status: number, body: unknown) =>
  ({
    ok: status < 400,
    status,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

let sent: Array<{ url: string; method: string; body: unknown }> = [];
let putAnswer: () => Response;

beforeEach(() => {
  sent = [];
  putAnswer = () => answer(200, { ...program, version: 4 });
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    sent.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (init?.method === 'PUT') return putAnswer();
    if (url.includes('/courses')) return answer(200, [{ id: C3, title: 'Продажи' }]);
    if (url.includes('/users?')) return answer(200, { data: curators, total: curators.length, page: 1, limit: 8 });
    return answer(200, {});
  }) as unknown as typeof fetch;
});

function show(p: Program = program, canManageCoAuthors = true) {
  const onReload = jest.fn(async () => undefined);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <ProgramForm program={p} onSaved={jest.fn()} onReload={onReload} canManageCoAuthors={canManageCoAuthors} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { onReload };
}

test('each stage is a named group with its drag handle; the first is counted from the assignment and never locked', () => {
  show();
  const first = screen.getByRole('group', { name: 'Этап 1: Знакомство' });
  const second = screen.getByRole('group', { name: 'Этап 2: Практика' });
  expect(screen.getByRole('button', { name: 'Переместить этап «Знакомство»' })).toBeTruthy();
  expect(within(first).getByRole('button', { name: 'Переместить курс «Охрана труда»' })).toBeTruthy();
  expect(within(first).queryByRole('checkbox', { name: 'Закрыт до завершения предыдущего этапа' })).toBeNull();
  expect(within(first).queryByRole('combobox', { name: 'От чего считается срок' })).toBeNull();
  expect(within(first).getByText('от назначения программы')).toBeTruthy();
  expect(within(second).getByRole('checkbox', { name: 'Закрыт до завершения предыдущего этапа' })).toHaveProperty(
    'checked',
    true,
  );
});

test('a course added from the published ones is saved with the version the editor read', async () => {
  show();
  const second = screen.getByRole('group', { name: 'Этап 2: Практика' });
  const picker = within(second).getByRole('combobox', { name: 'Курс для этапа «Практика»' });
  await within(second).findByRole('option', { name: 'Продажи' });
  fireEvent.change(picker, { target: { value: C3 } });
  fireEvent.click(within(second).getByRole('button', { name: 'Добавить курс' }));
  expect(within(second).getByRole('listitem', { name: 'Курс 1: Продажи' })).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
  const put = sent.find((s) => s.method === 'PUT')!;
  expect(put.url).toBe(`/api/programs/${program.id}`);
  expect(put.body).toMatchObject({
    version: 3,
    stages: [
      { key: 'first', courseIds: [C1, C2] },
      { key: 'second', courseIds: [C3] },
    ],
  });
});

test('a problem the schema finds is shown under its field and nothing is sent', () => {
  show();
  const first = screen.getByRole('group', { name: 'Этап 1: Знакомство' });
  fireEvent.change(within(first).getByRole('textbox', { name: 'Название этапа' }), { target: { value: ' ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  expect(within(first).getByText('Введите название этапа')).toBeTruthy();
  expect(sent.some((s) => s.method === 'PUT')).toBe(false);
});

test('a save someone else overtook (412) says so and offers to load the program again', async () => {
  putAnswer = () => answer(412, { message: 'Документ изменён другим пользователем', statusCode: 412 });
  const { onReload } = show();
  fireEvent.change(screen.getByRole('textbox', { name: 'Название' }), { target: { value: 'Адаптация' } });
  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  expect(await screen.findByText(/Программу изменил другой пользователь/)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Загрузить заново' }));
  expect(onReload).toHaveBeenCalled();
});

test('a program the person may not change is read-only and says why', () => {
  show({ ...program, canEdit: false });
  expect(screen.getByRole('note').textContent).toContain('Изменять программу могут её автор, соавторы и администратор');
  expect(screen.queryByRole('button', { name: 'Сохранить' })).toBeNull();
  expect(screen.queryByRole('button', { name: /Переместить/ })).toBeNull();
});

test('the owner adds a curator as a co-author, removes another, and «Сохранить» sends the list with the version', async () => {
  show({ ...program, coAuthorIds: [ANNA], coAuthors: [{ id: ANNA, fullName: 'Анна Иванова' }] });
  const section = screen.getByRole('region', { name: 'Соавторы' });
  expect(within(section).getByText('Автор: Куратор')).toBeTruthy();
  expect(await within(section).findByText('Анна Иванова')).toBeTruthy();

  fireEvent.click(within(section).getByRole('button', { name: 'Добавить соавтора' }));
  const found = await within(section).findByRole('list', { name: 'Найденные кураторы' });
  // The owner is never a co-author of their own program.
  expect((within(found).getByRole('button', { name: 'Куратор: уже автор программы' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(within(found).getByRole('button', { name: 'Добавить соавтора: Борис Петров' }));
  expect((within(found).getByRole('button', { name: 'Борис Петров: уже автор программы' }) as HTMLButtonElement).disabled).toBe(
    true,
  );
  fireEvent.click(within(section).getByRole('button', { name: 'Убрать соавтора Анна Иванова' }));
  const list = within(section).getByRole('list', { name: 'Соавторы программы' });
  expect(list.textContent).toContain('Борис Петров');
  expect(list.textContent).not.toContain('Анна Иванова');

  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
  const put = sent.find((s) => s.method === 'PUT')!;
  expect(put.url).toBe(`/api/programs/${program.id}`);
  expect(put.body).toMatchObject({ version: 3, coAuthorIds: [BORIS] });
  const search = sent.find((s) => s.url.includes('/users?'))!;
  expect(search.url).toContain('role=CURATOR');
});

test('a co-author who is not the owner sees the list read-only, says why, and saves it unchanged', async () => {
  show({ ...program, coAuthorIds: [ANNA], coAuthors: [{ id: ANNA, fullName: 'Анна Иванова' }] }, false);
  const section = screen.getByRole('region', { name: 'Соавторы' });
  expect(await within(section).findByText('Анна Иванова')).toBeTruthy();
  expect(within(section).getByRole('note').textContent).toContain('Соавторов программы назначает её автор или администратор');
  expect(within(section).queryByRole('button', { name: 'Добавить соавтора' })).toBeNull();
  expect(within(section).queryByRole('button', { name: /Убрать соавтора/ })).toBeNull();

  fireEvent.change(screen.getByRole('textbox', { name: 'Название' }), { target: { value: 'Адаптация' } });
  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
  expect(sent.find((s) => s.method === 'PUT')!.body).toMatchObject({ title: 'Адаптация', coAuthorIds: [ANNA] });
});
