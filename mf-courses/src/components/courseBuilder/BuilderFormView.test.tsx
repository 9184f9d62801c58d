/** @jest-environment jsdom */
import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import { GENERATION_MSG, type GenerateCourseRequest, type GenerationConfigInfo } from '@portal/contracts';
import { lightTheme, type Refusal } from '@portal/ui';
import { BuilderFormView, useBuilderForm } from './BuilderFormView';

interface Options {
  busy?: boolean;
  error?: Refusal | null;
}

/** The form as the dialog holds it: kept while the view comes and goes («Скрыть» stands for a job running). */
function Builder({ onSubmit, busy = false, error = null }: Options & { onSubmit: (request: GenerateCourseRequest) => void }) {
  const form = useBuilderForm();
  const [shown, setShown] = useState(true);
  const config = useQuery<GenerationConfigInfo>({
    queryKey: ['generation-config'],
    queryFn: async () => ({ source: 'template', notice: GENERATION_MSG.templateAhead }),
  });
  return (
    <>
      <button type="button" onClick={() => setShown((s) => !s)}>
        {shown ? 'Скрыть' : 'Показать'}
      </button>
      {shown && (
        <BuilderFormView
          form={form}
          config={config}
          busy={busy}
          error={error}
          onSubmit={onSubmit}
          onCancel={() => undefined}
          topicRef={() => undefined}
        />
      )}
    </>
  );
}

function show(onSubmit: (request: GenerateCourseRequest) => void = jest.fn(), options: Options = {}) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ThemeProvider theme={lightTheme}>
        <Builder onSubmit={onSubmit} {...options} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const field = (label: string | RegExp) => screen.getByLabelText(label);
const type = (label: string | RegExp, value: string) => act(async () => fireEvent.change(field(label), { target: { value } }));
const generate = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Сгенерировать курс' })));
/** The message under a control: the texts its `aria-describedby` points at, hints left out. */
const messageUnder = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-error') || id.includes('-goal-'))
    .map((id) => document.getElementById(id)?.textContent)
    .filter(Boolean)
    .join(' ');

test('an empty form names each missing field beside it, focuses the topic and starts nothing', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await screen.findByText(GENERATION_MSG.templateAhead);
  await generate();

  const topic = field(/Тема курса/);
  expect(topic.getAttribute('aria-invalid')).toBe('true');
  expect(messageUnder(topic)).toBe(GENERATION_MSG.topicRequired);
  expect(messageUnder(field(/Аудитория/))).toBe(GENERATION_MSG.audienceRequired);
  expect(messageUnder(screen.getByRole('group', { name: 'Цели обучения' }))).toBe(GENERATION_MSG.goalsRequired);
  expect(document.activeElement).toBe(topic);
  expect(onSubmit).not.toHaveBeenCalled();

  // A field put right loses its message at once; the others keep theirs until they are.
  await type(/Тема курса/, 'Переговоры');
  expect(screen.queryByText(GENERATION_MSG.topicRequired)).toBeNull();
  expect(screen.getByText(GENERATION_MSG.audienceRequired)).toBeTruthy();
});

test('with no goal the first goal takes the focus, and a goal typed clears the message', async () => {
  show();
  await type(/Тема курса/, 'Переговоры');
  await type(/Аудитория/, 'Менеджеры');
  await generate();
  expect(screen.getByText(GENERATION_MSG.goalsRequired)).toBeTruthy();
  expect(document.activeElement).toBe(field('Цель 1'));

  await type('Цель 1', 'Готовить повестку');
  expect(screen.queryByText(GENERATION_MSG.goalsRequired)).toBeNull();
});

test('counts out of range and a too-long goal are refused beside them; the first of them takes the focus', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await type(/Тема курса/, 'Переговоры');
  await type(/Аудитория/, 'Менеджеры');
  await type('Цель 1', 'Готовить повестку');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Добавить цель' })));
  expect(document.activeElement).toBe(field('Цель 2'));
  await type('Цель 2', 'д'.repeat(301));
  await type('Модулей', '13');
  await type('Уроков в модуле', '0');
  await generate();

  expect(messageUnder(field('Цель 2'))).toBe(GENERATION_MSG.goalTooLong);
  expect(field('Цель 1').getAttribute('aria-invalid')).toBeNull();
  expect(screen.getByText(GENERATION_MSG.modulesRange)).toBeTruthy();
  expect(screen.getByText(GENERATION_MSG.lessonsRange)).toBeTruthy();
  expect(document.activeElement).toBe(field('Цель 2'));
  expect(onSubmit).not.toHaveBeenCalled();
});

test('a good form sends the request trimmed, with the counts and choices made, and blank goals dropped', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  await type(/Тема курса/, '  Переговоры  ');
  await type(/Аудитория/, 'Менеджеры по продажам');
  await type('Цель 1', ' Готовить повестку ');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Добавить цель' })));
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Добавить цель' })));
  await type('Цель 3', 'Отвечать на возражения');
  await type('Уровень', 'Продвинутый');
  await type('Модулей', '4');
  await act(async () => fireEvent.click(field('Добавить квизы')));
  await generate();

  expect(onSubmit).toHaveBeenCalledWith({
    topic: 'Переговоры',
    audience: 'Менеджеры по продажам',
    goals: ['Готовить повестку', 'Отвечать на возражения'],
    level: 'Продвинутый',
    modulesCount: 4,
    withQuizzes: false,
  });
});

test('a goal removed takes its message with it, and the goal before it takes the focus', async () => {
  show();
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Добавить цель' })));
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Добавить цель' })));
  await type('Цель 1', 'Первая');
  await type('Цель 2', 'д'.repeat(301));
  await type('Цель 3', 'Третья');
  await generate();
  expect(screen.getByText(GENERATION_MSG.goalTooLong)).toBeTruthy();

  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Удалить цель 2' })));
  expect(screen.queryByText(GENERATION_MSG.goalTooLong)).toBeNull();
  expect(screen.getAllByRole('textbox', { name: /^Цель / }).map((input) => (input as HTMLInputElement).value)).toEqual([
    'Первая',
    'Третья',
  ]);
  await waitFor(() => expect(document.activeElement).toBe(field('Цель 1')));
});

test('what was typed is kept while the form is away (a job that failed or was cancelled)', async () => {
  show();
  await type(/Тема курса/, 'Переговоры');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Добавить цель' })));
  await type('Цель 2', 'Вторая');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Скрыть' })));
  expect(screen.queryByLabelText(/Тема курса/)).toBeNull();
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Показать' })));
  expect((field(/Тема курса/) as HTMLInputElement).value).toBe('Переговоры');
  expect((field('Цель 2') as HTMLInputElement).value).toBe('Вторая');
});

test('a refusal naming a field stands beside it; one naming none is said above the form', async () => {
  show(jest.fn(), { error: { message: GENERATION_MSG.goalTooLong, field: 'goals.0' } });
  expect(messageUnder(field('Цель 1'))).toBe(GENERATION_MSG.goalTooLong);
  expect(screen.queryByRole('alert')).toBeNull();
});

test('the server’s limit is said in the red box, and the form waits while the job starts', async () => {
  const limit = GENERATION_MSG.rateLimited.replace('{minutes}', '12');
  show(jest.fn(), { error: { message: limit }, busy: true });
  expect(screen.getByRole('alert').textContent).toBe(limit);
  expect(screen.getByRole('button', { name: 'Запускаем…' })).toHaveProperty('disabled', true);
  expect(field(/Тема курса/).matches(':disabled')).toBe(true);
});
