import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { signIn, watchConsole } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Curator12345' };

interface Arranged {
  token: string;
  courseId: string;
  lessonTitle: string;
}

/** A course with one module and one lesson holding one text block, made over the API. */
async function arrangeLesson(request: APIRequestContext): Promise<Arranged> {
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const stamp = Date.now().toString(36);
  const course = await request.post('/api/courses', { headers, data: { title: `Курс двух авторов ${stamp}` } });
  const courseId = ((await course.json()) as { id: string }).id;
  const mod = await request.post('/api/blocks', { headers, data: { type: 'MODULE', courseId, title: 'Модуль' } });
  const moduleId = ((await mod.json()) as { id: string }).id;
  const lessonTitle = `Урок ${stamp}`;
  const lesson = await request.post('/api/blocks', {
    headers,
    data: { courseId, moduleId, title: lessonTitle, content: [{ type: 'text', content: { text: 'Исходный текст' } }] },
  });
  expect(lesson.status()).toBe(201);
  return { token, courseId, lessonTitle };
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Структура курса' });
const saveStatus = (page: Page) => page.getByRole('region', { name: 'Статус сохранения' }).getByRole('status');
const textField = (page: Page) => page.getByRole('textbox', { name: 'Текст', exact: true });
/** The same field found without the accessibility tree, which a modal dialog hides the page from. */
const textUnderDialog = (page: Page) =>
  page
    .locator('label')
    .filter({ hasText: /^Текст(?! заголовка)/ })
    .locator('textarea');

/** A curator in a browser of their own, with the lesson's text block open. */
async function authorAt(browser: Browser, arranged: Arranged, lessonTitle = arranged.lessonTitle): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${arranged.courseId}`);
  await sidebar(page).getByRole('button', { name: lessonTitle, exact: true }).click();
  await page.getByRole('button', { name: /^Текст №1/ }).click();
  await expect(textField(page)).toHaveValue('Исходный текст');
  return page;
}

/** The text of each lesson of the course as stored, by title. */
async function storedTexts(request: APIRequestContext, { token, courseId }: Arranged): Promise<Record<string, string[]>> {
  const answer = await request.get(`/api/courses/${courseId}`, { headers: { authorization: `Bearer ${token}` } });
  const course = (await answer.json()) as {
    modules: Array<{ lessons: Array<{ title: string; blocks: Array<{ content: { text?: string } }> }> }>;
  };
  return Object.fromEntries(course.modules[0].lessons.map((l) => [l.title, l.blocks.map((b) => b.content.text ?? '')]));
}

test('two browser contexts edit the same lesson; the second gets the conflict dialog and loses nothing', async ({
  browser,
  request,
}) => {
  const arranged = await arrangeLesson(request);
  const first = await authorAt(browser, arranged);
  const second = await authorAt(browser, arranged);
  const errors = watchConsole(second);

  // The first author's edit is autosaved.
  await textField(first).fill('Текст первого автора');
  await expect(saveStatus(first)).toHaveText(/Сохранено в/, { timeout: 15_000 });

  // The second author, still on the version both opened, edits too: the save is refused.
  await textField(second).fill('Текст второго автора');
  const dialog = second.getByRole('dialog', { name: 'Документ изменён другим пользователем' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText('Ваш текст не потерян');
  await expect(textUnderDialog(second)).toHaveValue('Текст второго автора');
  expect(await storedTexts(request, arranged)).toEqual({ [arranged.lessonTitle]: ['Текст первого автора'] });

  // «Сохранить мою как копию»: the second author's text becomes a lesson of its own, the original shows the first's.
  await dialog.getByRole('button', { name: 'Сохранить мою как копию' }).click();
  await expect(dialog).toBeHidden();
  const copyTitle = `${arranged.lessonTitle} (копия)`;
  await expect(sidebar(second).getByRole('button', { name: copyTitle, exact: true })).toBeVisible();
  await expect
    .poll(() => storedTexts(request, arranged))
    .toEqual({ [arranged.lessonTitle]: ['Текст первого автора'], [copyTitle]: ['Текст второго автора'] });

  // Both texts are where the second author can see them.
  // The original (still the open lesson: a second click shows its blocks' table) holds the first author's text.
  await sidebar(second).getByRole('button', { name: arranged.lessonTitle, exact: true }).click();
  await expect(second.getByRole('main')).toContainText('Текст первого автора');
  await sidebar(second).getByRole('button', { name: copyTitle, exact: true }).click();
  await second.getByRole('button', { name: /^Текст №1/ }).click();
  await expect(textField(second)).toHaveValue('Текст второго автора');

  // And the first author, reloading, finds both.
  await first.reload();
  await expect(sidebar(first).getByRole('button', { name: copyTitle, exact: true })).toBeVisible();
  // The refused save is logged by the browser as a failed request; nothing else went wrong.
  expect(errors.filter((e) => !/412/.test(e))).toEqual([]);
});

test('«Перезаписать» saves the second author’s text over the first’s, based on the version now stored', async ({
  browser,
  request,
}) => {
  const arranged = await arrangeLesson(request);
  const first = await authorAt(browser, arranged);
  const second = await authorAt(browser, arranged);
  await textField(first).fill('Текст первого автора');
  await expect(saveStatus(first)).toHaveText(/Сохранено в/, { timeout: 15_000 });
  await textField(second).fill('Текст второго автора');
  const dialog = second.getByRole('dialog', { name: 'Документ изменён другим пользователем' });
  await dialog.getByRole('button', { name: 'Перезаписать' }).click();
  await expect(saveStatus(second)).toHaveText(/Сохранено в/, { timeout: 15_000 });
  expect(await storedTexts(request, arranged)).toEqual({ [arranged.lessonTitle]: ['Текст второго автора'] });
});
