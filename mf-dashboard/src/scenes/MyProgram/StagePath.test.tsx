/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import type { StageProgress } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { StagePath } from './StagePath';
import { daysLeftPhrase, stageCountText, stageDueText } from './stageText';

const course = (courseId: string, title: string, percent: number) => ({ courseId, title, percent, completed: percent === 100 });

const stage = (over: Partial<StageProgress> & Pick<StageProgress, 'key' | 'title' | 'status'>): StageProgress => ({
  dueDate: null,
  daysLeft: null,
  dueDays: 7,
  dueFrom: 'assigned',
  completedAt: null,
  opensAfter: null,
  required: 1,
  done: 0,
  courses: [],
  ...over,
});

const STAGES: StageProgress[] = [
  stage({
    key: 'intro',
    title: 'Знакомство с компанией',
    status: 'completed',
    dueDate: '2026-12-01',
    completedAt: '2026-11-28T10:00:00.000Z',
    required: 1,
    done: 1,
    courses: [course('c-1', 'О компании', 100)],
  }),
  stage({
    key: 'safety',
    title: 'Охрана труда',
    status: 'in_progress',
    dueDate: '2026-12-12',
    daysLeft: 3,
    required: 2,
    done: 1,
    courses: [
      course('c-2', 'Пожарная безопасность', 100),
      course('c-3', 'Электробезопасность', 40),
      course('c-4', 'Первая помощь', 0),
    ],
  }),
  stage({
    key: 'product',
    title: 'Продукт',
    status: 'locked',
    opensAfter: 'Охрана труда',
    required: 1,
    courses: [course('c-5', 'Наши продукты', 0)],
  }),
  stage({
    key: 'sales',
    title: 'Продажи',
    status: 'overdue',
    dueDate: '2026-12-02',
    daysLeft: -2,
    required: 1,
    courses: [course('c-6', 'Техника продаж', 10)],
  }),
];

function show(stages: StageProgress[]) {
  render(
    <ThemeProvider theme={lightTheme}>
      <StagePath stages={stages} />
    </ThemeProvider>,
  );
}

const stepNamed = (name: string) => screen.getByRole('listitem', { name });

test('the stages are an ordered list, each step named «Этап N: <title>, <status>»', () => {
  show(STAGES);
  const path = screen.getByRole('list', { name: 'Этапы программы' });
  expect(path.tagName).toBe('OL');
  const steps = within(path)
    .getAllByTestId('program-stage')
    .map((li) => li.getAttribute('aria-label'));
  expect(steps).toEqual([
    'Этап 1: Знакомство с компанией, пройден',
    'Этап 2: Охрана труда, в процессе',
    'Этап 3: Продукт, закрыт до завершения этапа «Охрана труда»',
    'Этап 4: Продажи, просрочен',
  ]);
});

test('each stage shows its status, its deadline with the days left, and how many of its courses are done', () => {
  show(STAGES);
  const done = stepNamed('Этап 1: Знакомство с компанией, пройден');
  expect(within(done).getByText('пройден')).toBeTruthy();
  expect(within(done).getByText('до 01.12.2026')).toBeTruthy();

  const current = stepNamed('Этап 2: Охрана труда, в процессе');
  expect(within(current).getByText('до 12.12.2026, осталось 3 дня')).toBeTruthy();
  expect(within(current).getByText('Пройдено 1 из 2 (нужно любые 2)')).toBeTruthy();

  const overdue = stepNamed('Этап 4: Продажи, просрочен');
  expect(within(overdue).getByText('просрочен')).toBeTruthy();
  expect(within(overdue).getByText('до 02.12.2026, просрочен на 2 дня')).toBeTruthy();
});

test('a locked stage says which stage opens it, and lists its courses without links', () => {
  show(STAGES);
  const locked = stepNamed('Этап 3: Продукт, закрыт до завершения этапа «Охрана труда»');
  expect(within(locked).getByText('закрыт до завершения этапа «Охрана труда»')).toBeTruthy();
  expect(within(locked).getByText('срок — 7 дней после предыдущего этапа')).toBeTruthy();
  expect(within(locked).getByText('Наши продукты')).toBeTruthy();
  expect(within(locked).queryAllByRole('link')).toHaveLength(0);
  // The padlock is drawn, and hidden from a screen reader (the words say it).
  expect(
    within(locked).getByText('закрыт до завершения этапа «Охрана труда»').querySelector('svg[aria-hidden="true"]'),
  ).not.toBeNull();
});

test('an open stage links each of its courses to study mode, with its progress', () => {
  show(STAGES);
  const current = stepNamed('Этап 2: Охрана труда, в процессе');
  const link = within(current).getByRole('link', { name: 'Открыть курс «Электробезопасность»' });
  expect(link.getAttribute('href')).toBe('/student/c-3');
  expect(link.textContent).toBe('Открыть курс');
  expect(within(current).getAllByRole('link')).toHaveLength(3);
  const bar = within(current).getByRole('progressbar', { name: 'Курс «Электробезопасность»' });
  expect(bar.getAttribute('aria-valuenow')).toBe('40');
});

test('days left are said as Russian counts them', () => {
  expect([1, 2, 5, 11, 21, 22, 0, -1, -3, -5, -21].map(daysLeftPhrase)).toEqual([
    'остался 1 день',
    'осталось 2 дня',
    'осталось 5 дней',
    'осталось 11 дней',
    'остался 21 день',
    'осталось 22 дня',
    'последний день',
    'просрочен на 1 день',
    'просрочен на 3 дня',
    'просрочен на 5 дней',
    'просрочен на 21 день',
  ]);
  expect(daysLeftPhrase(null)).toBeNull();
});

test('a stage counted from the previous one says how long it will have, once its days are known', () => {
  expect(stageDueText({ status: 'in_progress', dueDate: null, daysLeft: null, dueDays: 10 })).toBe(
    'срок — 10 дней после предыдущего этапа',
  );
  expect(stageDueText({ status: 'locked', dueDate: null, daysLeft: null, dueDays: 1 })).toBe(
    'срок — 1 день после предыдущего этапа',
  );
  // A completed stage keeps its deadline without the days left.
  expect(stageDueText({ status: 'completed', dueDate: '2026-12-12', daysLeft: null })).toBe('до 12.12.2026');
});

test('a stage of all its courses does not say «любые»', () => {
  expect(stageCountText({ done: 1, required: 2, courses: [course('a', 'A', 100), course('b', 'B', 0)] })).toBe('Пройдено 1 из 2');
  expect(
    stageCountText({ done: 3, required: 2, courses: [course('a', 'A', 100), course('b', 'B', 100), course('c', 'C', 100)] }),
  ).toBe('Пройдено 2 из 2 (нужно любые 2)');
});
