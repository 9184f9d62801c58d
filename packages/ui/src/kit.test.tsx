/** @jest-environment jsdom */
import { lazy, useState, type ReactNode } from 'react';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { CONSENT_DOCUMENT, CONSENT_MSG, loginSchema, MSG } from '@portal/contracts';
import { z } from 'zod';
import { QueryClient, QueryClientProvider, keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@portal/web-core';
import { queryClient } from '@portal/web-core/query';
import {
  CodeOptions,
  FilterInput,
  FilterSelect,
  PagedList,
  PasswordInput,
  changePasswordForm,
  newPasswordForm,
  newPasswordProblem,
  usePagedFilters,
  ConfirmDialog,
  ConsentCheck,
  Dialog,
  EmptyState,
  Field,
  FormActions,
  Input,
  LoadError,
  Pager,
  ProgressBar,
  ToastProvider,
  lightTheme,
  uploadHint,
  uploadProblem,
  withQueries,
  LazyPart,
  PartFailed,
  CodeSelect,
  TitleOptions,
  useCurrentState,
  useDebounced,
  useToast,
  useZodForm,
} from './index';

// jsdom has <dialog> but not its modal methods: open and close it by its attribute, which is all
// these tests need (the browser's inertness and focus trap are the journeys' to check).
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

/** A page's rows, as many as the pager needs to see. */
const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

const wrap = (ui: ReactNode) =>
  render(
    <ThemeProvider theme={lightTheme}>
      <ToastProvider>{ui}</ToastProvider>
    </ThemeProvider>,
  );

function SignInForm({ onDone }: { onDone: (email: string) => void }) {
  const form = useZodForm(loginSchema, { email: '', password: '' });
  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit((values) => onDone(values.email))}>
      <Field label="Email" hint="Рабочая почта" error={errors.email?.message}>
        <Input type="email" {...form.register('email')} />
      </Field>
      <Field label="Пароль" error={errors.password?.message}>
        <Input type="password" {...form.register('password')} />
      </Field>
      <button type="submit">Войти</button>
    </form>
  );
}

describe('Field and useZodForm', () => {
  it('shows every message under its field, marks the fields invalid and focuses the first', async () => {
    const done = jest.fn();
    wrap(<SignInForm onDone={done} />);
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(email.getAttribute('aria-describedby')).toBe(`${email.id}-hint`);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Войти' })));

    const password = screen.getByLabelText('Пароль');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(`${email.id}-error`)?.textContent).toBe(MSG.fillAllFields);
    expect(email.getAttribute('aria-describedby')).toBe(`${email.id}-hint ${email.id}-error`);
    expect(document.activeElement).toBe(email);
    expect(done).not.toHaveBeenCalled();
  });

  it('says a bad address in Russian, clears it once corrected, and submits the parsed values', async () => {
    const done = jest.fn();
    wrap(<SignInForm onDone={done} />);
    const email = screen.getByLabelText('Email');
    fireEvent.input(email, { target: { value: 'не-почта' } });
    fireEvent.input(screen.getByLabelText('Пароль'), { target: { value: 'секрет' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Войти' })));
    expect(screen.getByText(MSG.emailInvalid)).toBeTruthy();

    await act(async () => fireEvent.input(email, { target: { value: '  Anna@Portal.Local ' } }));
    expect(screen.queryByText(MSG.emailInvalid)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Войти' })));
    expect(done).toHaveBeenCalledWith('anna@portal.local');
  });
});

describe('required fields and the form foot', () => {
  it('marks a required field with a * that is not read as part of its name, and offers Отмена beside the submit', () => {
    const cancel = jest.fn();
    wrap(
      <form>
        <Field required label="ИНН">
          <Input />
        </Field>
        <FormActions submitLabel="Создать" busy onCancel={cancel} />
      </form>,
    );
    expect(screen.getByRole('textbox', { name: 'ИНН' })).toBeTruthy();
    expect(screen.getByText('*').getAttribute('aria-hidden')).toBe('true');
    expect((screen.getByRole('button', { name: 'Создать' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Отмена' }));
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('puts other actions before Отмена, the submit last, and holds the submit until the form is ready', () => {
    const view = (ready: boolean) => (
      <form>
        <FormActions submitLabel="Импортировать" ready={ready} onCancel={() => undefined}>
          <button type="button">Предпросмотр</button>
        </FormActions>
      </form>
    );
    const { rerender } = wrap(view(false));
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Предпросмотр', 'Отмена', 'Импортировать']);
    const submit = screen.getByRole('button', { name: 'Импортировать' }) as HTMLButtonElement;
    expect(submit.type).toBe('submit');
    expect(submit.disabled).toBe(true);
    rerender(
      <ThemeProvider theme={lightTheme}>
        <ToastProvider>{view(true)}</ToastProvider>
      </ThemeProvider>,
    );
    expect((screen.getByRole('button', { name: 'Импортировать' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('ConsentCheck', () => {
  const schema = z.object({ consent: z.boolean().refine((v) => v, CONSENT_MSG.required) });
  function Registration({ onDone }: { onDone: () => void }) {
    const form = useZodForm(schema, { consent: false });
    return (
      <form noValidate onSubmit={form.handleSubmit(onDone)}>
        <ConsentCheck error={form.formState.errors.consent?.message} {...form.register('consent')} />
        <button type="submit">Зарегистрироваться</button>
      </form>
    );
  }

  it('starts unticked, says why under itself until ticked, and opens the text to read', async () => {
    const onDone = jest.fn();
    wrap(<Registration onDone={onDone} />);
    const box = screen.getByRole('checkbox', { name: CONSENT_MSG.checkbox });
    expect((box as HTMLInputElement).checked).toBe(false);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' })));
    expect(onDone).not.toHaveBeenCalled();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(CONSENT_MSG.required);

    fireEvent.click(screen.getByRole('button', { name: 'Прочитать текст согласия' }));
    expect(screen.getByRole('dialog', { name: CONSENT_DOCUMENT.title }).textContent).toContain(CONSENT_DOCUMENT.paragraphs[1]);

    await act(async () => fireEvent.click(box));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' })));
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});

describe('Dialog and ConfirmDialog', () => {
  function Opener() {
    const [open, setOpen] = useState(false);
    const [asked, setAsked] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Открыть
        </button>
        <Dialog open={open} title="Новая организация" onClose={() => setOpen(false)}>
          <button type="button" onClick={() => setAsked(true)}>
            Удалить
          </button>
          {asked && (
            <ConfirmDialog
              title="Удалить?"
              message="Это нельзя отменить."
              confirmLabel="Удалить навсегда"
              onConfirm={() => setAsked(false)}
              onCancel={() => setAsked(false)}
            />
          )}
        </Dialog>
      </>
    );
  }

  it('opens named by its title, closes on Escape and gives focus back to its opener', () => {
    wrap(<Opener />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Новая организация' });
    expect(dialog.hasAttribute('open')).toBe(true);

    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('heading', { name: 'Новая организация' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('asks with the safe choice focused, and Escape on the question leaves the dialog under it open', () => {
    wrap(<Opener />);
    fireEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    const remove = screen.getByRole('button', { name: 'Удалить' });
    remove.focus();
    fireEvent.click(remove);
    const question = screen.getByRole('dialog', { name: 'Удалить?' });
    expect(question.getAttribute('aria-describedby')).toBe(screen.getByText('Это нельзя отменить.').id);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Отмена' }));

    fireEvent(question, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog', { name: 'Удалить?' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Новая организация' })).toBeTruthy();
    expect(document.activeElement).toBe(remove);
  });
});

describe('Toast', () => {
  function Saver({ error }: { error: unknown }) {
    const toast = useToast();
    return (
      <>
        <button type="button" onClick={() => toast.failed(error)}>
          Сохранить
        </button>
        <button type="button" onClick={() => toast.show('Сохранено', 'success')}>
          Готово
        </button>
      </>
    );
  }

  it('reports a failed change as «Ошибка: {message}» in an alert until closed', () => {
    wrap(<Saver error={new ApiError('Организация с таким ИНН уже существует', 409)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getByRole('alert').textContent).toContain('Ошибка: Организация с таким ИНН уже существует');
    fireEvent.click(screen.getByRole('button', { name: 'Закрыть уведомление' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('lets a notice go by itself after a few seconds', () => {
    jest.useFakeTimers();
    try {
      wrap(<Saver error={null} />);
      fireEvent.click(screen.getByRole('button', { name: 'Готово' }));
      expect(screen.getByRole('status').textContent).toContain('Сохранено');
      act(() => jest.advanceTimersByTime(6000));
      expect(screen.queryByRole('status')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('states, pager, progress and debounce', () => {
  it('says what is empty and what failed, with a retry', () => {
    const retry = jest.fn();
    wrap(
      <>
        <EmptyState title="Курсов пока нет" hint="Создайте первый курс" />
        <LoadError error={new ApiError('Сервис временно недоступен', 503)} onRetry={retry} />
      </>,
    );
    expect(screen.getByRole('status').textContent).toContain('Курсов пока нет');
    expect(screen.getByRole('alert').textContent).toContain('Сервис временно недоступен');
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('pages and shows progress with its values', () => {
    const onPage = jest.fn();
    wrap(
      <>
        <Pager of={{ page: 1, total: 45, limit: 20, data: rows(20) }} onPage={onPage} />
        <ProgressBar name="Загрузка файла" value={42.4} valueText="42%" />
      </>,
    );
    expect(screen.getByText('Страница 1 из 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Назад' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(onPage).toHaveBeenCalledWith(2);
    const bar = screen.getByRole('progressbar', { name: 'Загрузка файла' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
  });

  it('pages past a total the service stopped counting, while pages come full', () => {
    const onPage = jest.fn();
    const view = wrap(<Pager of={{ page: 417, total: 10_000, limit: 24, totalExact: false, data: rows(24) }} onPage={onPage} />);
    expect(screen.getByText('Страница 417')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(onPage).toHaveBeenCalledWith(418);
    view.unmount();
    wrap(<Pager of={{ page: 430, total: 10_000, limit: 24, totalExact: false, data: rows(7) }} onPage={onPage} />);
    expect((screen.getByRole('button', { name: 'Вперёд' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Назад' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows no pager for a counted list that fits one page, and the last counted page ends it', () => {
    const view = wrap(<Pager of={{ page: 1, total: 7, limit: 20, data: rows(7) }} onPage={jest.fn()} />);
    expect(screen.queryByRole('navigation', { name: 'Страницы' })).toBeNull();
    view.unmount();
    // A full last page of an exact total: nothing lies past it, whatever its length says.
    wrap(<Pager of={{ page: 3, total: 60, limit: 20, data: rows(20) }} onPage={jest.fn()} />);
    expect(screen.getByText('Страница 3 из 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Вперёд' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('hands on a value only once it stops changing', () => {
    jest.useFakeTimers();
    try {
      const Probe = ({ value }: { value: string }) => <span data-testid="v">{useDebounced(value, 300)}</span>;
      const view = wrap(<Probe value="к" />);
      view.rerender(
        <ThemeProvider theme={lightTheme}>
          <ToastProvider>
            <Probe value="курс" />
          </ToastProvider>
        </ThemeProvider>,
      );
      act(() => jest.advanceTimersByTime(200));
      expect(screen.getByTestId('v').textContent).toBe('к');
      act(() => jest.advanceTimersByTime(200));
      expect(screen.getByTestId('v').textContent).toBe('курс');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('uploadProblem', () => {
  it('refuses an empty file, one over the limit and one of the wrong kind, in Russian, and lets the rest go', () => {
    const file = (name: string, size: number, type: string) => ({ name, size, type });
    expect(uploadProblem(file('пусто.png', 0, 'image/png'), 'image')).toBe('Файл «пусто.png» пуст');
    expect(uploadProblem(file('фильм.mp4', 60 * 1024 * 1024, 'video/mp4'), 'video')).toBe(
      'Файл «фильм.mp4» весит 60,00\u00a0МБ, а загрузить можно не больше 50\u00a0МБ',
    );
    expect(uploadProblem(file('отчёт.pdf', 1000, 'application/pdf'), 'image')).toBe(
      'Файл «отчёт.pdf» не подходит: нужно изображение (PNG, JPEG, GIF, WebP или SVG)',
    );
    expect(uploadProblem(file('песня.mp3', 1000, 'audio/mpeg'), 'media')).toBeNull();
    expect(uploadProblem(file('отчёт.pdf', 1000, 'application/pdf'), 'any')).toBeNull();
    // The browser does not know the type: the server decides from the content.
    expect(uploadProblem(file('схема.heic', 1000, ''), 'image')).toBeNull();
  });
});

describe('uploadHint', () => {
  it('says what an upload field takes in words and how large, never a MIME pattern', () => {
    expect(uploadHint('image')).toBe('Изображение (PNG, JPEG, GIF, WebP или SVG), до 50\u00a0МБ');
    expect(uploadHint('any')).toBe('Файл любого типа, до 50\u00a0МБ');
    for (const accept of ['image', 'video', 'audio', 'media', 'any'] as const) expect(uploadHint(accept)).not.toMatch(/\*|\//);
  });
});

describe('PagedList and the paged filters', () => {
  const ROWS = Array.from({ length: 5 }, (_, i) => `строка ${i + 1}`);
  const COLOURS = ['red', 'green'] as const;
  const COLOUR_LABELS = { red: 'Красный', green: 'Зелёный' };

  /** A list of two rows a page, read through TanStack Query the way the remotes read theirs. */
  function Rows({ fail = false }: { fail?: boolean }) {
    const { filters, filterProps, page, setPage } = usePagedFilters({ search: '', colour: '' as (typeof COLOURS)[number] | '' });
    const list = useQuery({
      queryKey: ['rows', filters, page, fail],
      queryFn: () => {
        if (fail) throw new ApiError('Сервис недоступен', 500);
        const found = ROWS.filter((row) => row.includes(filters.search));
        return { data: found.slice((page - 1) * 2, page * 2), total: found.length, page, limit: 2 };
      },
      placeholderData: keepPreviousData,
    });
    return (
      <>
        <FilterInput label="Поиск" {...filterProps('search')} />
        <FilterSelect label="Цвет" {...filterProps('colour')} anyLabel="Все цвета" options={COLOURS} labels={COLOUR_LABELS} />
        <span data-testid="page">{page}</span>
        <PagedList query={list} failed="Не удалось загрузить строки" empty={<p>Ничего нет</p>} onPage={setPage}>
          {(rows) => (
            <ul>
              {rows.map((row) => (
                <li key={row}>{row}</li>
              ))}
            </ul>
          )}
        </PagedList>
      </>
    );
  }
  const renderRows = (ui: ReactNode) =>
    wrap(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>,
    );

  it('shows loading, then the rows with the pager, and a new filter goes back to page 1', async () => {
    renderRows(<Rows />);
    expect(screen.getByRole('status').textContent).toBe('Загрузка...');
    expect(await screen.findByText('строка 1')).toBeTruthy();
    expect(screen.getByText('Страница 1 из 3')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(await screen.findByText('строка 3')).toBeTruthy();
    expect(screen.getByTestId('page').textContent).toBe('2');

    fireEvent.change(screen.getByRole('combobox', { name: 'Цвет' }), { target: { value: 'green' } });
    expect(screen.getByTestId('page').textContent).toBe('1');
    expect((screen.getByRole('combobox', { name: 'Цвет' }) as HTMLSelectElement).value).toBe('green');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Все цвета', 'Красный', 'Зелёный']);
  });

  it('says the list is empty when the search finds nothing, without a pager', async () => {
    renderRows(<Rows />);
    await screen.findByText('строка 1');
    fireEvent.change(screen.getByRole('textbox', { name: 'Поиск' }), { target: { value: 'нет такой' } });
    expect(await screen.findByText('Ничего нет')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Страницы' })).toBeNull();
  });

  it('shows a failed read with its reason and «Повторить»', async () => {
    renderRows(<Rows fail />);
    expect(await screen.findByText('Не удалось загрузить строки: Сервис недоступен')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeTruthy();
  });
});

describe('CodeOptions', () => {
  it('offers each code under its label, in the given order', () => {
    wrap(
      <select aria-label="Роль" defaultValue="CURATOR">
        <CodeOptions codes={['ADMIN', 'CURATOR']} labels={{ ADMIN: 'Администратор', CURATOR: 'Куратор' }} />
      </select>,
    );
    expect(screen.getAllByRole('option').map((o) => [(o as HTMLOptionElement).value, o.textContent])).toEqual([
      ['ADMIN', 'Администратор'],
      ['CURATOR', 'Куратор'],
    ]);
    expect((screen.getByRole('combobox', { name: 'Роль' }) as HTMLSelectElement).value).toBe('CURATOR');
  });
});

describe('CodeSelect and TitleOptions', () => {
  it('offers each code under its label and hands back the code chosen', () => {
    const chosen: string[] = [];
    wrap(
      <label>
        Статус
        <CodeSelect
          codes={['draft', 'published']}
          labels={{ draft: 'Черновик', published: 'Опубликован' }}
          value="draft"
          onValue={(code) => chosen.push(code)}
        />
      </label>,
    );
    const select = screen.getByRole('combobox', { name: 'Статус' }) as HTMLSelectElement;
    expect(select.value).toBe('draft');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Черновик', 'Опубликован']);
    fireEvent.change(select, { target: { value: 'published' } });
    expect(chosen).toEqual(['published']);
  });

  it('offers records by their ids, each said by its title', () => {
    wrap(
      <select aria-label="Модуль" defaultValue="m2">
        <TitleOptions
          items={[
            { id: 'm1', title: 'Введение' },
            { id: 'm2', title: 'Практика' },
          ]}
        />
      </select>,
    );
    expect(screen.getAllByRole('option').map((o) => [(o as HTMLOptionElement).value, o.textContent])).toEqual([
      ['m1', 'Введение'],
      ['m2', 'Практика'],
    ]);
    expect((screen.getByRole('combobox', { name: 'Модуль' }) as HTMLSelectElement).value).toBe('m2');
  });
});

describe('useCurrentState', () => {
  it('lets a handler started in an old render read the value set since', () => {
    const { result } = renderHook(() => useCurrentState<'form' | 'running'>('form'));
    const [, setPhase, phase] = result.current;
    const readLater = () => phase.current;
    act(() => setPhase('running'));
    expect(result.current[0]).toBe('running');
    expect(readLater()).toBe('running');
    expect(result.current[1]).toBe(setPhase);
  });
});

describe('PasswordInput and newPasswordProblem', () => {
  it('is a password box named by its label that hands over what is typed', () => {
    const typed: string[] = [];
    wrap(<PasswordInput label="Новый пароль" value="" onValue={(value) => typed.push(value)} />);
    const box = screen.getByLabelText('Новый пароль');
    expect(box.getAttribute('type')).toBe('password');
    expect(box.getAttribute('autocomplete')).toBe('new-password');
    fireEvent.change(box, { target: { value: 'Svezhii-Parol-5' } });
    expect(typed).toEqual(['Svezhii-Parol-5']);
    expect(box.getAttribute('aria-invalid')).toBeNull();
  });

  it('says what is wrong under the box, which is then invalid and described by it', () => {
    wrap(<PasswordInput label="Текущий пароль" current value="x" onValue={() => {}} error="Текущий пароль указан неверно" />);
    const box = screen.getByLabelText('Текущий пароль');
    expect(box.getAttribute('autocomplete')).toBe('current-password');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe('Текущий пароль указан неверно');
    expect(screen.getByRole('alert').textContent).toBe('Текущий пароль указан неверно');
  });

  it('names a short password, then two that differ, and lets a good pair through', () => {
    expect(newPasswordProblem('short', 'short')).toEqual({ field: 'password', message: MSG.passwordTooShort });
    expect(newPasswordProblem('Svezhii-Parol-5', 'Svezhii-Parol-6')).toEqual({
      field: 'confirm',
      message: MSG.passwordsMismatch,
    });
    expect(newPasswordProblem('Svezhii-Parol-5', 'Svezhii-Parol-5')).toBeNull();
  });

  it('takes a form’s register(): the form reads what is typed, says its problem under the box and focuses it', async () => {
    function NewPassword() {
      const form = useZodForm(newPasswordForm, { password: '', confirm: '' });
      const { errors } = form.formState;
      return (
        <form onSubmit={form.handleSubmit(() => undefined)} noValidate>
          <PasswordInput label="Новый пароль" error={errors.password?.message} {...form.register('password')} />
          <PasswordInput label="Повторите пароль" error={errors.confirm?.message} {...form.register('confirm')} />
          <button type="submit">Сохранить пароль</button>
        </form>
      );
    }
    wrap(<NewPassword />);
    fireEvent.change(screen.getByLabelText('Новый пароль'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MSG.passwordTooShort);
    const box = screen.getByLabelText('Новый пароль');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box);
  });

  it('the forms of a new password name one problem at a time, on the field it is about', () => {
    const problems = (result: { success: boolean; error?: z.ZodError }) =>
      result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];
    expect(problems(newPasswordForm.safeParse({ password: '', confirm: '' }))).toEqual([['password', MSG.fillAllFields]]);
    expect(problems(newPasswordForm.safeParse({ password: 'short', confirm: 'other' }))).toEqual([
      ['password', MSG.passwordTooShort],
    ]);
    expect(problems(changePasswordForm.safeParse({ currentPassword: '', newPassword: 'short', confirm: '' }))).toEqual([
      ['currentPassword', MSG.fillAllFields],
    ]);
    expect(
      problems(
        changePasswordForm.safeParse({ currentPassword: 'x', newPassword: 'Svezhii-Parol-5', confirm: 'Svezhii-Parol-6' }),
      ),
    ).toEqual([['confirm', MSG.passwordsMismatch]]);
    expect(newPasswordForm.safeParse({ password: 'Svezhii-Parol-5', confirm: 'Svezhii-Parol-5' }).success).toBe(true);
  });
});

describe('withQueries', () => {
  it('puts a component, with its props, in the page’s one query cache; the kit’s providers alone hold none', async () => {
    function Cached({ label }: { label: string }) {
      const client = useQueryClient();
      const answer = useQuery({ queryKey: ['kit', 'with-queries'], queryFn: async () => 'из кэша страницы' });
      return (
        <p>
          {label}: {client === queryClient ? (answer.data ?? '…') : 'другой кэш'}
        </p>
      );
    }
    const Wrapped = withQueries(Cached);
    wrap(<Wrapped label="Ответ" />);
    expect(await screen.findByText('Ответ: из кэша страницы')).toBeTruthy();
    expect(queryClient.getQueryData(['kit', 'with-queries'])).toBe('из кэша страницы');
    // Without it a query has no cache to live in: React Query says so instead of inventing one.
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => wrap(<Cached label="Без кэша" />)).toThrow('No QueryClient set');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('LazyPart', () => {
  it('shows its place while the files come, the part once they have, and keeps the place when they cannot come', async () => {
    const Part = lazy(async () => ({ default: () => <p>часть пришла</p> }));
    wrap(
      <>
        <LazyPart fallback={<p>место части</p>}>
          <Part />
        </LazyPart>
        <p>соседи</p>
      </>,
    );
    expect(screen.getByText('место части')).toBeTruthy();
    expect(await screen.findByText('часть пришла')).toBeTruthy();

    const Lost = lazy(() => Promise.reject(new Error('Loading chunk 460 failed')));
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      wrap(
        <>
          <LazyPart fallback={<p>место потерянной части</p>}>
            <Lost />
          </LazyPart>
          <p>остальная страница</p>
        </>,
      );
      await act(async () => undefined);
      expect(screen.getByText('место потерянной части')).toBeTruthy();
      expect(screen.getByText('остальная страница')).toBeTruthy();
    } finally {
      spy.mockRestore();
    }
  });

  it('says what could not come, in Russian, when it has words for that, and the rest of the screen stays', async () => {
    const Lost = lazy(() => Promise.reject(new Error('Loading chunk 512 failed')));
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      wrap(
        <>
          <LazyPart fallback={<p>Загрузка редактора текста...</p>} failed={<PartFailed what="редактор текста" />}>
            <Lost />
          </LazyPart>
          <p>свойства блока</p>
        </>,
      );
      expect(screen.getByText('Загрузка редактора текста...')).toBeTruthy();
      expect((await screen.findByRole('alert')).textContent).toBe('Не удалось загрузить редактор текста. Обновите страницу.');
      expect(screen.queryByText('Загрузка редактора текста...')).toBeNull();
      expect(screen.getByText('свойства блока')).toBeTruthy();
    } finally {
      spy.mockRestore();
    }
  });
});
