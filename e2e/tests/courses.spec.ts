import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible, signIn, watchConsole } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const CANDIDATE = { email: 'candidate@portal.local', password: 'Portal-Kan-2026' };

let counter = 0;
const unique = (tag: string) => `${tag} ${Date.now().toString(36)}${counter++}`;
const today = () => new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow' }).format(new Date());

const cardOf = (page: Page, title: string): Locator => page.getByRole('article', { name: title, exact: true });
const search = (page: Page) => page.getByPlaceholder('Поиск...');

/** Signs in over the API, for arranging data the journey itself is not about. */
async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

async function createCourse(
  request: APIRequestContext,
  token: string,
  body: Record<string, unknown>,
  lessons = 0,
): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const course = await request.post('/api/courses', { headers, data: body });
  expect(course.status()).toBe(201);
  const { id } = (await course.json()) as { id: string };
  if (lessons) {
    const mod = await request.post('/api/blocks', { headers, data: { type: 'MODULE', courseId: id, title: 'Модуль' } });
    const { id: moduleId } = (await mod.json()) as { id: string };
    // Published lessons: a learner is never shown a draft one, nor counts it.
    for (let i = 0; i < lessons; i++) {
      const lesson = await request.post('/api/blocks', { headers, data: { courseId: id, moduleId, status: 'published' } });
      expect(lesson.status()).toBe(201);
    }
  }
  return id;
}

/** A curator on /courses with a draft course made over the API, found by its unique title. */
async function curatorWithDraft(page: Page, request: APIRequestContext, tag: string): Promise<string> {
  const title = unique(tag);
  await createCourse(request, await tokenFor(request, CURATOR), {
    title,
    description: 'Инструктаж по технике безопасности для новых сотрудников',
  });
  await signIn(page, CURATOR.email, CURATOR.password, '/courses');
  await search(page).fill(title);
  await expect(cardOf(page, title)).toBeVisible();
  return title;
}

test('a curator creates a course: the form refuses an empty title, then the new draft opens in its editor and is on the list', async ({
  page,
}) => {
  const errors = watchConsole(page);
  const title = unique('Охрана труда');
  await signIn(page, CURATOR.email, CURATOR.password, '/courses');

  await page.getByRole('button', { name: 'Создать курс' }).click();
  await expect(page).toHaveURL(/\/courses\/create$/);
  await expect(page.getByRole('heading', { name: 'Создать новый курс' })).toBeVisible();
  await page.getByRole('button', { name: 'Создать курс' }).click();
  await expect(page.getByText('Введите название курса')).toBeVisible();
  await expectAccessible(page, 'the course form with an error');
  await expect(page).toHaveURL(/\/courses\/create$/);
  await page.getByLabel('Название').fill(title);
  await page.getByLabel('Описание').fill('Инструктаж по технике безопасности для новых сотрудников');
  await page.getByLabel('Цена, ₽').fill('1500');
  await page.getByLabel('Длительность, ч').fill('8');
  await page.getByLabel('Уровень').fill('Средний');
  await page.getByRole('button', { name: 'Создать курс' }).click();
  // The curator lands in the new course's editor, to fill it in.
  await expect(page).toHaveURL(/\/editor\/[0-9a-f]{24}$/);
  const structure = page.getByRole('complementary', { name: 'Структура курса' });
  await expect(structure.getByRole('button', { name: title })).toBeVisible();
  await expect(structure.getByText('Модулей пока нет')).toBeVisible();

  await structure.getByRole('button', { name: '← К курсам' }).click();
  await expect(page).toHaveURL(/\/courses$/);
  const card = cardOf(page, title);
  await expect(card).toBeVisible();
  await expect(card.getByRole('img', { name: 'Статус: Черновик' })).toHaveText('●');
  await expect(card).toContainText(`Обновлён: ${today()}`);
  await expect(card).toContainText('0 уроков');
  await expect(card.getByRole('button', { name: 'Открыть' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a curator finds a course by title or description, case-insensitively, and filters by status', async ({ page, request }) => {
  const errors = watchConsole(page);
  const title = await curatorWithDraft(page, request, 'Охрана труда');
  const card = cardOf(page, title);

  await search(page).fill(title.toUpperCase());
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card).toBeVisible();
  await search(page).fill('безопасности');
  await expect(card).toBeVisible();
  await search(page).fill(`${title} нет такого`);
  await expect(page.getByText('Курсы не найдены')).toBeVisible();
  await expect(page.getByText('Попробуйте изменить параметры поиска или фильтры')).toBeVisible();
  await search(page).fill(title);
  await expect(card).toBeVisible();

  // A draft is not among the published ones.
  const status = page.getByLabel('Фильтр по статусу', { exact: true });
  await status.selectOption({ label: 'Опубликованные' });
  await expect(page.getByText('Курсы не найдены')).toBeVisible();
  await status.selectOption({ label: 'Черновики' });
  await expect(card).toBeVisible();
  await status.selectOption({ label: 'Все статусы' });
  await expect(card).toBeVisible();
  expect(errors).toEqual([]);
});

test('the list view and the search survive a reload', async ({ page, request }) => {
  const errors = watchConsole(page);
  const title = await curatorWithDraft(page, request, 'Охрана труда');

  await page.getByRole('button', { name: 'Списком' }).click();
  await expect(page.getByRole('list', { name: 'Список курсов' })).toHaveAttribute('data-view', 'list');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Списком' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('list', { name: 'Список курсов' })).toHaveAttribute('data-view', 'list');
  expect(await page.evaluate(() => localStorage.getItem('coursesViewMode'))).toBe('list');
  await expect(search(page)).toHaveValue(title);
  await expect(cardOf(page, title)).toBeVisible();
  expect(errors).toEqual([]);
});

test('a curator copies a course, deletes the copy after a change of mind, opens the original and deletes it', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const title = await curatorWithDraft(page, request, 'Охрана труда');

  await cardOf(page, title).getByRole('button', { name: 'Копировать курс' }).click();
  const copy = cardOf(page, `${title} (копия)`);
  await expect(copy).toBeVisible();
  await expect(copy.getByRole('img', { name: 'Статус: Черновик' })).toBeVisible();

  await copy.getByRole('button', { name: 'Удалить курс' }).click();
  const dialog = page.getByRole('dialog', { name: 'Удаление курса' });
  await expect(dialog).toContainText(`Вы уверены, что хотите удалить курс "${title} (копия)"?`);
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(copy).toBeVisible();
  await copy.getByRole('button', { name: 'Удалить курс' }).click();
  await dialog.getByRole('button', { name: 'Удалить' }).click();
  await expect(copy).toHaveCount(0);
  await expect(cardOf(page, title)).toBeVisible();

  // Opening a course takes an author to the editor.
  await cardOf(page, title).getByRole('button', { name: 'Открыть' }).click();
  await expect(page).toHaveURL(/\/editor\/[0-9a-f]{24}$/);
  await page.goBack();

  await cardOf(page, title).getByRole('button', { name: 'Удалить курс' }).click();
  await dialog.getByRole('button', { name: 'Удалить' }).click();
  await expect(page.getByText('Курсы не найдены')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Курсы не найдены')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a candidate sees only published courses, favourites one and finds it under favourites after a reload', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const prefix = unique('Адаптация');
  const curator = await tokenFor(request, CURATOR);
  const publishedId = await createCourse(
    request,
    curator,
    { title: `${prefix} опубликован`, description: 'Первые дни в компании', isPublished: true },
    2,
  );
  await createCourse(request, curator, { title: `${prefix} черновик` });
  await createCourse(request, curator, { title: `${prefix} скрыт`, status: 'hidden' });

  await signIn(page, CANDIDATE.email, CANDIDATE.password);
  await expect(page).toHaveURL(/\/courses$/);
  await search(page).fill(prefix);
  const card = cardOf(page, `${prefix} опубликован`);
  await expect(card).toBeVisible();
  await expect(page.getByRole('button', { name: 'Создать курс' })).toHaveCount(0);
  await expect(page.getByLabel('Фильтр по статусу', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card.getByRole('img', { name: 'Статус: Опубликован' })).toHaveText('✔');
  await expect(card).toContainText('2 урока');
  await expect(card.getByRole('button', { name: 'Копировать курс' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Удалить курс' })).toHaveCount(0);

  // Nothing is a favourite yet.
  await page.getByLabel('Показать курсы', { exact: true }).selectOption({ label: 'Избранные' });
  await expect(page.getByText('Курсы не найдены')).toBeVisible();
  await page.getByLabel('Показать курсы', { exact: true }).selectOption({ label: 'Все курсы' });

  await card.getByRole('button', { name: 'Добавить в избранное' }).click();
  await expect(card.getByRole('button', { name: 'Убрать из избранного' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByLabel('Показать курсы', { exact: true }).selectOption({ label: 'Избранные' });
  await expect(card).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Показать курсы', { exact: true })).toHaveValue('favorites');
  await expect(cardOf(page, `${prefix} опубликован`)).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(cardOf(page, `${prefix} опубликован`).getByRole('button', { name: 'Убрать из избранного' })).toBeVisible();

  // Opening it as a learner marks it started and goes to study mode.
  await cardOf(page, `${prefix} опубликован`).getByRole('button', { name: 'Открыть' }).click();
  await expect(page).toHaveURL(new RegExp(`/student/${publishedId}$`));
  const started = await page.evaluate(async () => {
    const res = await fetch('/api/courses/started/my', {
      headers: { authorization: `Bearer ${localStorage.getItem('authToken')}` },
    });
    return ((await res.json()) as Array<{ id: string }>).map((c) => c.id);
  });
  expect(started).toContain(publishedId);
  expect(errors).toEqual([]);
});

test('a curator pages through the courses found, and the page survives a reload until the search changes', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const prefix = unique('Страницы');
  const curator = await tokenFor(request, CURATOR);
  // One more than a page holds (24 cards).
  for (let i = 0; i < 25; i++) await createCourse(request, curator, { title: `${prefix} №${String(i).padStart(2, '0')}` });

  await signIn(page, CURATOR.email, CURATOR.password, '/courses');
  await search(page).fill(prefix);
  const pager = page.getByRole('navigation', { name: 'Страницы' });
  await expect(pager).toContainText('Страница 1 из 2');
  await expect(page.getByRole('article')).toHaveCount(24);
  // Most recently updated first: the last one made leads the first page, the first one made is alone on the second.
  await expect(page.getByRole('article').first()).toHaveAccessibleName(`${prefix} №24`);

  await pager.getByRole('button', { name: 'Вперёд' }).click();
  await expect(pager).toContainText('Страница 2 из 2');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(cardOf(page, `${prefix} №00`)).toBeVisible();
  await expect(page).toHaveURL(/[?&]page=2/);

  await page.reload();
  await expect(cardOf(page, `${prefix} №00`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Страницы' })).toContainText('Страница 2 из 2');

  // A new search starts from the first page, and a single page needs no pager.
  await search(page).fill(`${prefix} №1`);
  await expect(page.getByRole('article')).toHaveCount(10);
  await expect(page.getByRole('navigation', { name: 'Страницы' })).toHaveCount(0);
  await expect(page).not.toHaveURL(/[?&]page=/);
  expect(errors).toEqual([]);
});
