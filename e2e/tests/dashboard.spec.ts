import { completeInn } from '@portal/contracts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ALONE, expectAccessible, signIn, startOwnPortal, watchConsole } from './helpers';

// The browser runs in Moscow time (playwright.config.ts); the expectations are computed there too.
const TZ = 'Europe/Moscow';
const moscowDay = (offsetDays = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + offsetDays * 86_400_000),
  );
const moscowToday = () => {
  const text = new Intl.DateTimeFormat('ru-RU', {
    timeZone: TZ,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date());
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const GREETING = /^(Доброе утро|Добрый день|Добрый вечер), /;

let counter = 0;
const uniqueTag = () => `${Date.now().toString(36)}${counter++}`;
const uniqueInn = () => completeInn(`78${Date.now().toString().slice(-7)}`);

const figure = (page: Page, label: string): Locator => page.getByRole('article', { name: label, exact: true });
const figureValue = async (page: Page, label: string): Promise<number> =>
  Number((await figure(page, label).getByTestId('stat-value').textContent())?.replace(/\s/g, ''));
const recentList = (page: Page) => page.getByRole('list', { name: 'Последние действия' });

/** Events reach the audit store through the queue a moment after the action: look again until they are there. */
async function reloadUntil(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 15_000, intervals: [300, 600, 1000] });
}

/** A course and an organization made by the administrator over the API, once both are in the audit store. */
async function arrangeCourseAndOrganization(page: Page, tag: string) {
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  const headers = { authorization: `Bearer ${token}` };
  const courseTitle = `Основы HR ${tag}`;
  const orgName = `ООО Дашборд ${tag}`;
  expect((await page.request.post('/api/courses', { headers, data: { title: courseTitle } })).status()).toBe(201);
  const org = await page.request.post('/api/organizations', { headers, data: { name: orgName, inn: uniqueInn() } });
  expect(org.status()).toBe(201);
  // Events reach the audit store through the queue a moment after the action.
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/api/audit?search=${encodeURIComponent(tag)}`, { headers });
      return ((await answer.json()) as { total: number }).total;
    })
    .toBe(2);
  return { courseTitle, orgName };
}

test('the administrator’s dashboard greets them and shows the four figures, the quick actions and the chart', async ({
  page,
}) => {
  const errors = watchConsole(page);
  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`${GREETING.source}Анна!$`));
  await expect(page.getByTestId('dashboard-subtitle')).toHaveText(`Администратор · ${moscowToday()}`);
  await expect(page.getByTestId('stat-card')).toHaveCount(4);
  for (const label of ['Всего курсов', 'Активные курсы', 'Студенты', 'Организации'])
    await expect(figure(page, label)).toBeVisible();
  await expect(figure(page, 'Всего курсов').getByTestId('stat-value')).toHaveText(/^\d[\d\s]*$/);
  const quick = page.getByRole('region', { name: 'Быстрые действия' });
  for (const action of ['Создать курс', 'Управление курсами', 'Организации', 'Пользователи'])
    await expect(quick.getByRole('link', { name: action })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Активность за 14 дней: / })).toBeVisible();
  await expectAccessible(page, 'the administrator’s dashboard');
  expect(errors).toEqual([]);
});

test(
  'an admin creates a course and an organization and sees both in recent activity, with the counters moved',
  ALONE,
  async ({ page }) => {
    const errors = watchConsole(page);
    const tag = uniqueTag();
    const courseTitle = `Основы HR ${tag}`;
    const orgName = `ООО Дашборд ${tag}`;

    await signIn(page, 'admin@portal.local', 'Portal-Glav-2026');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(figure(page, 'Всего курсов').getByTestId('stat-value')).toHaveText(/^\d[\d\s]*$/);
    const coursesBefore = await figureValue(page, 'Всего курсов');
    const orgsBefore = await figureValue(page, 'Организации');

    // The course through the API (the journey is the dashboard's, not the course editor's).
    const token = await page.evaluate(() => localStorage.getItem('authToken'));
    const course = await page.request.post('/api/courses', {
      headers: { authorization: `Bearer ${token}` },
      data: { title: courseTitle },
    });
    expect(course.status()).toBe(201);

    // The organization through the CRM, reached from the quick actions.
    const quick = page.getByRole('region', { name: 'Быстрые действия' });
    await quick.getByRole('link', { name: 'Организации' }).click();
    await expect(page).toHaveURL(/\/crm\/orgs$/);
    await page.getByRole('button', { name: 'Добавить организацию' }).click();
    const create = page.getByRole('dialog', { name: 'Новая организация' });
    await create.getByLabel('Название').fill(orgName);
    await create.getByLabel('ИНН').fill(uniqueInn());
    await create.getByRole('button', { name: 'Создать' }).click();
    await expect(create).toBeHidden();
    await page.getByRole('navigation', { name: 'Основная навигация' }).getByRole('link', { name: 'Главная' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Recent activity: one phrase per action, newest first, with a relative time.
    const coursePhrase = `Анна Смирнова создала курс «${courseTitle}»`;
    const orgPhrase = `Анна Смирнова создала организацию «${orgName}»`;
    await reloadUntil(page, async () => {
      await expect(recentList(page)).toContainText(orgPhrase, { timeout: 1500 });
      await expect(recentList(page)).toContainText(coursePhrase, { timeout: 1500 });
    });
    const orgItem = recentList(page).getByRole('listitem').filter({ hasText: orgPhrase });
    await expect(orgItem.locator('time')).toHaveText(/^(только что|\d+ мин назад)$/);
    expect(await figureValue(page, 'Всего курсов')).toBeGreaterThanOrEqual(coursesBefore + 1);
    expect(await figureValue(page, 'Организации')).toBeGreaterThanOrEqual(orgsBefore + 1);
    await expect(figure(page, 'Организации').getByTestId('stat-change')).toHaveText(/^(\+\d+|0) за 30 дней$/);
    expect(errors).toEqual([]);
  },
);

test('the history finds the admin’s actions by text, sorts them, and filters by entity, action and date', async ({ page }) => {
  const errors = watchConsole(page);
  const tag = uniqueTag();
  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  const { courseTitle, orgName } = await arrangeCourseAndOrganization(page, tag);
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  const coursePhrase = `Анна Смирнова создала курс «${courseTitle}»`;
  const orgPhrase = `Анна Смирнова создала организацию «${orgName}»`;

  // The history dialog.
  const opener = page.getByRole('button', { name: 'История действий' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'История действий' });
  await expect(dialog).toBeVisible();
  const items = dialog.getByTestId('activity-item');
  const counter = dialog.getByTestId('history-counter');
  await expect(counter).toHaveText(/^Показано \d+ из \d+ (записи|записей)$/);

  await dialog.getByLabel('Поиск').fill(tag);
  await expect(counter).toHaveText('Показано 2 из 2 записей');
  await expect(items).toHaveCount(2);
  // Newest first: the organization came after the course; then the other way round.
  await expect(items.nth(0)).toContainText(orgPhrase);
  await expect(items.nth(1)).toContainText(coursePhrase);
  await dialog.getByRole('button', { name: /^Сначала новые/ }).click();
  await expect(dialog.getByRole('button', { name: /^Сначала старые/ })).toBeVisible();
  await expect(items.nth(0)).toContainText(coursePhrase);
  await expect(items.nth(1)).toContainText(orgPhrase);

  // By entity.
  await dialog.getByLabel('Объект').selectOption({ label: 'Организация' });
  await expect(counter).toHaveText('Показано 1 из 1 записи');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(orgPhrase);
  await expect(items.first()).toContainText(`Создана организация "${orgName}"`);
  await dialog.getByLabel('Объект').selectOption({ label: 'Курс' });
  await expect(counter).toHaveText('Показано 1 из 1 записи');
  await expect(items.first()).toContainText(coursePhrase);
  await dialog.getByLabel('Объект').selectOption({ label: 'Все объекты' });
  await dialog.getByLabel('Действие').selectOption({ label: 'Удаление' });
  await expect(counter).toHaveText('Показано 0 из 0 записей');
  await expect(dialog.getByText('Записи не найдены')).toBeVisible();
  await dialog.getByLabel('Действие').selectOption({ label: 'Создание' });
  await expect(counter).toHaveText('Показано 2 из 2 записей');

  // By date: today holds both, yesterday neither; reset brings them back.
  await dialog.getByLabel('С даты').fill(moscowDay());
  await dialog.getByLabel('По дату').fill(moscowDay());
  await expect(counter).toHaveText('Показано 2 из 2 записей');
  await dialog.getByLabel('С даты').fill(moscowDay(-1));
  await dialog.getByLabel('По дату').fill(moscowDay(-1));
  await expect(counter).toHaveText('Показано 0 из 0 записей');
  await dialog.getByRole('button', { name: 'Сбросить' }).click();
  await expect(dialog.getByLabel('С даты')).toHaveValue('');
  await expect(dialog.getByLabel('По дату')).toHaveValue('');
  await expect(counter).toHaveText('Показано 2 из 2 записей');

  // The counter agrees with the server for the same filters.
  const check = await page.request.get(
    `/api/audit?search=${encodeURIComponent(tag)}&action=create&tz=${encodeURIComponent(TZ)}`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  expect(((await check.json()) as { total: number }).total).toBe(2);

  // Escape closes it and gives the focus back.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  expect(errors).toEqual([]);
  expect(errors).toEqual([]);
});

test('a candidate sees courses, active and completed courses, their own quick actions and only their own actions', async ({
  page,
}) => {
  const errors = watchConsole(page);
  await signIn(page, 'candidate@portal.local', 'Portal-Kan-2026', '/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`${GREETING.source}Ольга!$`));
  await expect(page.getByTestId('dashboard-subtitle')).toContainText('Кандидат · ');
  await expect(page.getByTestId('stat-card')).toHaveCount(3);
  for (const label of ['Всего курсов', 'Активные курсы', 'Завершённые курсы']) await expect(figure(page, label)).toBeVisible();
  await expect(figure(page, 'Завершённые курсы').getByTestId('stat-value')).toHaveText('0');
  // The course figures count what the candidate can see: the catalogue they browse, the courses they started.
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  const catalogueTotal = async (query: string) =>
    Number(
      (await page.request.get(`/api/courses${query}`, { headers: { authorization: `Bearer ${token}` } })).headers()[
        'x-total-count'
      ],
    );
  await reloadUntil(page, async () => {
    await expect(figure(page, 'Всего курсов').getByTestId('stat-value')).toHaveText(/^\d/, { timeout: 1500 });
    expect(await figureValue(page, 'Всего курсов')).toBe(await catalogueTotal(''));
    expect(await figureValue(page, 'Активные курсы')).toBe(await catalogueTotal('?filter=started'));
  });
  await expect(figure(page, 'Студенты')).toHaveCount(0);
  await expect(figure(page, 'Организации')).toHaveCount(0);
  const quick = page.getByRole('region', { name: 'Быстрые действия' });
  await expect(quick.getByRole('link')).toHaveText(['Мои курсы', 'Результаты'].map((t) => new RegExp(`${t}$`)));

  await reloadUntil(page, async () => {
    await expect(recentList(page)).toContainText('Ольга Кузнецова вошла в систему', { timeout: 1500 });
  });
  for (const text of await recentList(page).getByRole('listitem').allTextContents()) expect(text).toMatch(/^Ольга Кузнецова /);

  await page.getByRole('button', { name: 'История действий' }).click();
  const dialog = page.getByRole('dialog', { name: 'История действий' });
  const items = dialog.getByTestId('activity-item');
  await expect(items.first()).toBeVisible();
  for (const text of await items.allTextContents()) expect(text).toMatch(/^Ольга Кузнецова /);
  await expectAccessible(page, 'the history dialog');
  await dialog.getByRole('button', { name: 'Закрыть' }).click();
  await expect(dialog).toBeHidden();
  expect(errors).toEqual([]);
});

test('when the dashboard cannot be loaded it says so and shows zeros', async ({ page }) => {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026');
  // The gateway is unreachable for this one call (a network failure, as a dropped connection would be).
  await page.route('**/api/dashboard/stats**', (route) => route.abort('connectionrefused'));
  await page.goto('/dashboard');
  await expect(page.getByRole('alert')).toHaveText('Не удалось загрузить данные дашборда');
  await expect(page.getByTestId('stat-value')).toHaveText(['0', '0', '0', '0']);
  await expect(page.getByText('Пока нет действий')).toBeVisible();
});

// The content service stopped is the journey's own (startOwnPortal): the shared one serves the others.
test('a figure its service could not give shows «—», and comes back by itself within seconds once the service answers', async ({
  page,
}) => {
  const own = await startOwnPortal({ content: {} });
  try {
    await signIn(page, 'admin@portal.local', 'Portal-Glav-2026', `${own.url}/dashboard`);
    await expect(figure(page, 'Всего курсов').getByTestId('stat-value')).toHaveText(/^\d[\d\s]*$/);
    await own.stop('content');
    try {
      // The next look at the dashboard: the course figures are missing, the others are there.
      await page.reload();
      await expect(figure(page, 'Всего курсов').getByTestId('stat-value')).toHaveText('—');
      await expect(figure(page, 'Всего курсов')).toContainText('Данные временно недоступны');
      await expect(page.getByText('Часть данных временно недоступна')).toBeVisible();
      await expect(figure(page, 'Студенты').getByTestId('stat-value')).toHaveText(/^\d[\d\s]*$/);
    } finally {
      await own.start('content');
    }
    // No reload: the page asks again within seconds, not at its next half-minute refresh.
    await expect(figure(page, 'Всего курсов').getByTestId('stat-value')).toHaveText(/^\d[\d\s]*$/, { timeout: 10_000 });
    await expect(page.getByText('Часть данных временно недоступна')).toBeHidden();
  } finally {
    await own.close();
  }
});
