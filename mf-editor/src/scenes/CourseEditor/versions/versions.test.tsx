/** @jest-environment jsdom */
import type { ReactNode } from 'react';
import { act, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import { VERSION_MSG, type CourseVersionSummary, type DraftState, type Page, type VersionDiff } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { ApiError, type RequestOptions } from '@portal/web-core';
import { createVersionsApi } from '../../../api/versions';
import { HistoryDialog } from './HistoryDialog';
import { VersionsBar } from './VersionsBar';
import { DRAFT_REFRESH_DELAY_MS, VersionsApiContext, changeMarksOf, useDraftRefresh, useDraftState } from './useVersions';

// jsdom has <dialog> but not its modal methods: open and close it by its attribute.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const emptyDiff = (): VersionDiff => ({
  modules: [],
  lessons: [],
  quizzes: [],
  bank: { added: 0, removed: 0, changed: 0 },
  blocks: {},
  counts: { added: 0, removed: 0, changed: 0 },
});

const changedDraft = (): DraftState => ({
  publishedVersion: 3,
  versioned: true,
  hasChanges: true,
  diff: {
    ...emptyDiff(),
    modules: [{ id: 'm2', kind: 'added', title: 'Практика' }],
    lessons: [
      { id: 'l1', kind: 'changed', title: 'Введение', moduleId: 'm1' },
      { id: 'l2', kind: 'changed', title: 'Термины', moduleId: 'm1' },
      { id: 'l3', kind: 'added', title: 'Задание', moduleId: 'm2' },
    ],
    blocks: { l1: [{ id: 'b1', kind: 'changed', type: 'text' }] },
    counts: { added: 1, removed: 0, changed: 2 },
  },
});

const version = (number: number, over: Partial<CourseVersionSummary> = {}): CourseVersionSummary => ({
  number,
  summary: `Правки ${number}`,
  publishedBy: { id: 'u1', name: 'Анна Автор' },
  publishedAt: '2026-12-04T10:00:00.000Z',
  counts: { added: 1, removed: 0, changed: 0 },
  retakeLessonIds: [],
  current: false,
  pinned: false,
  ...over,
});

type Route = (options: RequestOptions) => unknown;

/** The content service's version routes, in memory: each call is kept, each answer comes from `routes`. */
function versionsServer(routes: Record<string, Route>) {
  const calls: Array<{ route: string; body?: unknown; query?: RequestOptions['query'] }> = [];
  const api = createVersionsApi(async <T,>(path: string, options: RequestOptions = {}) => {
    const route = `${options.method ?? 'GET'} ${path}`;
    calls.push({ route, body: options.body, query: options.query });
    const answer = routes[route];
    if (!answer) throw new ApiError('Не найдено', 404);
    return answer(options) as T;
  });
  const callsTo = (route: string) => calls.filter((c) => c.route === route);
  return { api, calls, callsTo };
}

function renderWith(server: ReturnType<typeof versionsServer>, ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ThemeProvider theme={lightTheme}>
        <VersionsApiContext.Provider value={server.api}>{ui}</VersionsApiContext.Provider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const renderBar = (
  server: ReturnType<typeof versionsServer>,
  over: { published?: boolean; prepare?: () => Promise<boolean> } = {},
) => {
  const onDraftReplaced = jest.fn();
  const prepare = jest.fn(over.prepare ?? (() => Promise.resolve(true)));
  renderWith(
    server,
    <VersionsBar courseId="c1" published={over.published ?? true} prepare={prepare} onDraftReplaced={onDraftReplaced} />,
  );
  return { onDraftReplaced, prepare };
};

describe('the draft bar', () => {
  test('a draft with changes shows the published version, the counts and the actions', async () => {
    renderBar(versionsServer({ 'GET /courses/c1/draft': changedDraft }));

    const bar = await screen.findByRole('region', { name: 'Версии курса' });
    expect(bar.textContent).toContain('Черновик · опубликована версия 3');
    expect(bar.textContent).toContain('Изменено уроков: 2, добавлено: 1, удалено: 0');
    expect(within(bar).getByRole('button', { name: 'Опубликовать изменения' })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Отменить изменения' })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'История версий' })).toBeTruthy();
  });

  test('a draft equal to the published version offers only the history', async () => {
    renderBar(
      versionsServer({
        'GET /courses/c1/draft': () => ({ publishedVersion: 3, versioned: true, hasChanges: false, diff: emptyDiff() }),
      }),
    );

    const bar = await screen.findByRole('region', { name: 'Версии курса' });
    expect(bar.textContent).toContain('Черновик совпадает с опубликованной версией 3');
    expect(within(bar).queryByRole('button', { name: 'Опубликовать изменения' })).toBeNull();
    expect(within(bar).getByRole('button', { name: 'История версий' })).toBeTruthy();
  });

  test('a published course nobody has started says that edits are live', async () => {
    renderBar(
      versionsServer({
        'GET /courses/c1/draft': () => ({ publishedVersion: null, versioned: false, hasChanges: false, diff: emptyDiff() }),
      }),
    );

    expect((await screen.findByRole('note')).textContent).toBe('Курс ещё никто не начал: правки сразу видны ученикам');
    expect(screen.queryByRole('button', { name: 'История версий' })).toBeNull();
  });

  test('the outline marks added and changed modules and lessons, not removed ones', () => {
    const diff = changedDraft().diff;
    diff.lessons.push({ id: 'l9', kind: 'removed', title: 'Старый' });

    const marks = changeMarksOf(diff);

    expect([...marks]).toEqual([
      ['m2', 'added'],
      ['l1', 'changed'],
      ['l2', 'changed'],
      ['l3', 'added'],
    ]);
  });
});

describe('the draft state after saves', () => {
  test('is read again once a burst of saves is over, not before', async () => {
    jest.useFakeTimers();
    try {
      const server = versionsServer({ 'GET /courses/c1/draft': changedDraft });
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const { rerender } = renderHook(
        ({ saves }: { saves: number }) => {
          useDraftRefresh('c1', saves);
          return useDraftState('c1');
        },
        {
          initialProps: { saves: 0 },
          wrapper: ({ children }) => (
            <QueryClientProvider client={client}>
              <VersionsApiContext.Provider value={server.api}>{children}</VersionsApiContext.Provider>
            </QueryClientProvider>
          ),
        },
      );
      await act(async () => {
        await jest.advanceTimersByTimeAsync(0);
      });
      const reads = () => server.callsTo('GET /courses/c1/draft').length;
      expect(reads()).toBe(1);

      rerender({ saves: 1 });
      await act(async () => {
        await jest.advanceTimersByTimeAsync(DRAFT_REFRESH_DELAY_MS / 2);
      });
      rerender({ saves: 2 });
      await act(async () => {
        await jest.advanceTimersByTimeAsync(DRAFT_REFRESH_DELAY_MS / 2);
      });
      expect(reads()).toBe(1);

      await act(async () => {
        await jest.advanceTimersByTimeAsync(DRAFT_REFRESH_DELAY_MS);
      });
      expect(reads()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('publishing the draft', () => {
  const openPublish = async (server: ReturnType<typeof versionsServer>) => {
    const rendered = renderBar(server);
    fireEvent.click(await screen.findByRole('button', { name: 'Опубликовать изменения' }));
    return { ...rendered, dialog: screen.getByRole('dialog', { name: 'Опубликовать изменения' }) };
  };

  test('an empty summary is refused with the Russian message and nothing is sent', async () => {
    const server = versionsServer({ 'GET /courses/c1/draft': changedDraft });
    const { dialog } = await openPublish(server);

    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));
    });

    expect(within(dialog).getByText(VERSION_MSG.summaryRequired)).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('textbox', { name: /Что изменилось/ })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(server.callsTo('POST /courses/c1/versions')).toHaveLength(0);
  });

  test('a summary over 500 characters is refused', async () => {
    const server = versionsServer({ 'GET /courses/c1/draft': changedDraft });
    const { dialog } = await openPublish(server);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Что изменилось/ }), { target: { value: 'а'.repeat(501) } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));
    });

    expect(within(dialog).getByText(VERSION_MSG.summaryTooLong)).toBeTruthy();
    expect(server.callsTo('POST /courses/c1/versions')).toHaveLength(0);
  });

  test('sends the summary, the version it is based on and the lessons to take again, after saving', async () => {
    const server = versionsServer({
      'GET /courses/c1/draft': changedDraft,
      'POST /courses/c1/versions': () => version(4, { current: true }),
    });
    const { dialog, prepare } = await openPublish(server);
    expect(within(dialog).getByText('Задание')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Что изменилось/ }), {
      target: { value: '  Новое задание  ' },
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Урок «Введение» требует повторного прохождения' }));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));
    });

    expect(prepare).toHaveBeenCalled();
    expect(server.callsTo('POST /courses/c1/versions')).toEqual([
      {
        route: 'POST /courses/c1/versions',
        body: { summary: 'Новое задание', basedOn: 3, retakeLessonIds: ['l1'] },
        query: undefined,
      },
    ]);
    expect(screen.queryByRole('dialog', { name: 'Опубликовать изменения' })).toBeNull();
  });

  test('a publish made meanwhile by someone else is said, and «Обновить» reads the draft again', async () => {
    const server = versionsServer({
      'GET /courses/c1/draft': changedDraft,
      'POST /courses/c1/versions': () => {
        throw new ApiError(VERSION_MSG.stalePublished, 412);
      },
    });
    const { dialog } = await openPublish(server);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Что изменилось/ }), { target: { value: 'Правки' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));
    });

    expect(within(dialog).getByRole('alert').textContent).toContain(VERSION_MSG.stalePublished);
    const readsBefore = server.callsTo('GET /courses/c1/draft').length;
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Обновить' }));
    });
    expect(server.callsTo('GET /courses/c1/draft').length).toBeGreaterThan(readsBefore);
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  test('nothing is published while the editor could not save', async () => {
    const server = versionsServer({ 'GET /courses/c1/draft': changedDraft });
    renderBar(server, { prepare: () => Promise.resolve(false) });
    fireEvent.click(await screen.findByRole('button', { name: 'Опубликовать изменения' }));
    const dialog = screen.getByRole('dialog', { name: 'Опубликовать изменения' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Что изменилось/ }), { target: { value: 'Правки' } });

    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));
    });

    expect(within(dialog).getByRole('alert').textContent).toMatch(/Не удалось сохранить последние правки/);
    expect(server.callsTo('POST /courses/c1/versions')).toHaveLength(0);
  });
});

describe('discarding the draft', () => {
  test('asks first, then discards based on the published version and rebuilds the editor', async () => {
    const server = versionsServer({
      'GET /courses/c1/draft': changedDraft,
      'POST /courses/c1/draft/discard': () => ({ publishedVersion: 3, versioned: true, hasChanges: false, diff: emptyDiff() }),
    });
    const { onDraftReplaced } = renderBar(server);
    fireEvent.click(await screen.findByRole('button', { name: 'Отменить изменения' }));
    const dialog = screen.getByRole('dialog', { name: 'Отменить изменения' });
    expect(dialog.textContent).toContain(
      'Отменить все изменения черновика? Черновик станет таким, как опубликованная версия 3. Это действие нельзя отменить.',
    );

    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Отменить изменения' }));
    });

    expect(server.callsTo('POST /courses/c1/draft/discard')[0].body).toEqual({ basedOn: 3 });
    expect(onDraftReplaced).toHaveBeenCalledTimes(1);
  });

  test('«Оставить» keeps the draft', async () => {
    const server = versionsServer({ 'GET /courses/c1/draft': changedDraft });
    renderBar(server);
    fireEvent.click(await screen.findByRole('button', { name: 'Отменить изменения' }));

    fireEvent.click(screen.getByRole('button', { name: 'Оставить' }));

    expect(screen.queryByRole('dialog', { name: 'Отменить изменения' })).toBeNull();
    expect(server.callsTo('POST /courses/c1/draft/discard')).toHaveLength(0);
  });
});

describe('the history of versions', () => {
  const page = (data: CourseVersionSummary[], total = data.length): Page<CourseVersionSummary> => ({
    data,
    total,
    page: 1,
    limit: 20,
  });
  const renderHistory = (server: ReturnType<typeof versionsServer>) => {
    const onRestored = jest.fn();
    renderWith(
      server,
      <HistoryDialog courseId="c1" prepare={() => Promise.resolve(true)} onClose={() => undefined} onRestored={onRestored} />,
    );
    return { onRestored };
  };

  test('lists versions newest first with who, the summary, the counts and the current mark', async () => {
    renderHistory(
      versionsServer({
        'GET /courses/c1/versions': () =>
          page([version(2, { current: true, counts: { added: 0, removed: 1, changed: 2 } }), version(1)]),
      }),
    );

    const items = within(await screen.findByRole('list', { name: 'Версии' })).getAllByRole('listitem');
    expect(items.map((i) => within(i).getByRole('heading').textContent)).toEqual(['Версия 2', 'Версия 1']);
    expect(items[0].textContent).toContain('текущая');
    expect(items[0].textContent).toContain('Анна Автор');
    expect(items[0].textContent).toContain('Правки 2');
    expect(items[0].textContent).toContain('Уроков добавлено: 0, удалено: 1, изменено: 2');
    expect(items[1].textContent).not.toContain('текущая');
    expect(screen.getByRole('button', { name: 'Открыть версию 2' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Восстановить версию 1 как черновик' })).toBeTruthy();
  });

  test('compares the previous version with the current one, grouped by added, removed and changed', async () => {
    const diff: VersionDiff = {
      ...emptyDiff(),
      modules: [{ id: 'm2', kind: 'added', title: 'Практика' }],
      lessons: [
        { id: 'l1', kind: 'changed', title: 'Введение' },
        { id: 'l3', kind: 'added', title: 'Задание' },
        { id: 'l9', kind: 'removed', title: 'Старый урок' },
      ],
      quizzes: [{ id: 'q1', kind: 'changed', title: 'Итоговый тест' }],
      bank: { added: 2, removed: 0, changed: 1 },
      blocks: {
        l1: [
          { id: 'b1', kind: 'changed', type: 'text' },
          { id: 'b2', kind: 'added', type: 'text' },
        ],
      },
    };
    const server = versionsServer({
      'GET /courses/c1/versions': () => page([version(3, { current: true }), version(2), version(1)]),
      'GET /courses/c1/versions/compare': () => diff,
    });
    renderHistory(server);

    fireEvent.click(await screen.findByRole('button', { name: 'Сравнить' }));

    expect((screen.getByLabelText('С версии') as HTMLSelectElement).value).toBe('2');
    expect((screen.getByLabelText('По версию') as HTMLSelectElement).value).toBe('3');
    const lessons = await screen.findByRole('region', { name: 'Уроки' });
    expect(server.callsTo('GET /courses/c1/versions/compare')[0].query).toEqual({ from: 2, to: 3 });
    expect(
      within(lessons)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Добавлены', 'Удалены', 'Изменены']);
    expect(within(lessons).getByRole('list', { name: 'Уроки: удалены' }).textContent).toBe('Старый урок');
    expect(within(lessons).getByRole('list', { name: 'Уроки: изменены' }).textContent).toBe(
      'Введение · блоков изменено: 2 (Текст ×2)',
    );
    expect(within(screen.getByRole('region', { name: 'Модули' })).getByRole('list', { name: 'Модули: добавлены' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Квизы' }).textContent).toContain('Итоговый тест');
    expect(screen.getByText('Банк вопросов: добавлено 2, удалено 0, изменено 1')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('С версии'), { target: { value: '1' } });
    await screen.findByRole('region', { name: 'Уроки' });
    expect(server.callsTo('GET /courses/c1/versions/compare').at(-1)?.query).toEqual({ from: 1, to: 3 });
  });

  test('opens a version read-only and shows a lesson of it', async () => {
    const server = versionsServer({
      'GET /courses/c1/versions': () => page([version(2, { current: true }), version(1)]),
      'GET /courses/c1/versions/1': () => ({
        courseId: 'c1',
        number: 1,
        summary: 'Первая',
        publishedAt: '2026-12-01T10:00:00.000Z',
        modules: [
          {
            id: 'm1',
            title: 'Основы',
            description: '',
            lessons: [{ id: 'l1', title: 'Введение', blocksCount: 1, hasQuiz: false }],
          },
        ],
      }),
      'GET /courses/c1/versions/1/lessons/l1': () => ({
        id: 'l1',
        type: 'LESSON',
        title: 'Введение',
        content: JSON.stringify([{ id: 'b1', type: 'text', order: 1, lessonId: 'l1', content: { text: 'Старый текст' } }]),
        description: '',
        courseId: 'c1',
        moduleId: 'm1',
        position: 0,
        status: 'published',
        version: 1,
        createdAt: '2026-12-01T10:00:00.000Z',
        updatedAt: '2026-12-01T10:00:00.000Z',
      }),
    });
    renderHistory(server);

    fireEvent.click(await screen.findByRole('button', { name: 'Открыть версию 1' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Введение' }));

    expect((await screen.findByRole('list', { name: 'Блоки урока' })).textContent).toContain('Старый текст');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  test('restores a version as the draft after asking, and the editor reads the course again', async () => {
    const server = versionsServer({
      'GET /courses/c1/versions': () => page([version(2, { current: true }), version(1)]),
      'POST /courses/c1/versions/1/restore': () => changedDraft(),
    });
    const { onRestored } = renderHistory(server);

    fireEvent.click(await screen.findByRole('button', { name: 'Восстановить версию 1 как черновик' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Восстановить' }));
    });

    expect(server.callsTo('POST /courses/c1/versions/1/restore')).toHaveLength(1);
    expect(onRestored).toHaveBeenCalledTimes(1);
  });
});
