import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { signIn, watchConsole } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };

// Each journey opens the editor in two browser contexts. The first of a fresh machine's run took 31 s
// of the default 30 on the 2-core host (twice, with the retry); like the other two-person journeys, 90 s.
test.describe.configure({ timeout: 90_000 });

interface Arranged {
  token: string;
  courseId: string;
  lessonTitle: string;
}

/** The curator's new course with one module, made over the API: what each journey's lesson goes into. */
async function arrangeModule(request: APIRequestContext, courseTitle: string) {
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const stamp = Date.now().toString(36);
  const course = await request.post('/api/courses', { headers, data: { title: `${courseTitle} ${stamp}` } });
  const courseId = ((await course.json()) as { id: string }).id;
  const mod = await request.post('/api/blocks', { headers, data: { type: 'MODULE', courseId, title: 'Модуль' } });
  const moduleId = ((await mod.json()) as { id: string }).id;
  return { token, headers, stamp, courseId, moduleId };
}

/** A course with one module and one lesson holding one text block, made over the API. */
async function arrangeLesson(request: APIRequestContext): Promise<Arranged> {
  const { token, headers, stamp, courseId, moduleId } = await arrangeModule(request, 'Курс двух авторов');
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
/** The same field (the rich text editor) found without the accessibility tree, which a modal dialog hides the page from. */
const textUnderDialog = (page: Page) => page.locator('[data-testid="rich-text"]');

/** A curator in a browser of their own, with the lesson's text block open. */
async function authorAt(browser: Browser, arranged: Arranged, lessonTitle = arranged.lessonTitle): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${arranged.courseId}`);
  await sidebar(page).getByRole('button', { name: lessonTitle, exact: true }).click();
  await page.getByRole('button', { name: /^Текст №1/ }).click();
  await expect(textField(page)).toHaveText('Исходный текст');
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
  await expect(textUnderDialog(second)).toHaveText('Текст второго автора');
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
  await expect(textField(second)).toHaveText('Текст второго автора');

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

interface ArrangedQuiz extends Arranged {
  quizId: string;
  quizTitle: string;
}

/** A course whose one lesson holds a quiz block, the quiz with one question, made over the API. */
async function arrangeQuiz(request: APIRequestContext): Promise<ArrangedQuiz> {
  const { token, headers, stamp, courseId, moduleId } = await arrangeModule(request, 'Курс с квизом');
  const quizTitle = `Квиз ${stamp}`;
  const quiz = await request.post('/api/quizzes', {
    headers,
    data: {
      title: quizTitle,
      courseId,
      questions: [
        { id: 'q1', type: 'single_choice', question: 'Сколько будет 2 + 2?', options: ['4', '5'], correctAnswers: [0] },
      ],
    },
  });
  expect(quiz.status()).toBe(201);
  const quizId = ((await quiz.json()) as { id: string }).id;
  const lessonTitle = `Урок с квизом ${stamp}`;
  const lesson = await request.post('/api/blocks', {
    headers,
    data: { courseId, moduleId, title: lessonTitle, content: [{ type: 'quiz', content: { quizId, questionsCount: 1 } }] },
  });
  expect(lesson.status()).toBe(201);
  return { token, courseId, lessonTitle, quizId, quizTitle };
}

const quizCard = (page: Page) => page.getByRole('region', { name: 'Квиз блока' });
const quizEditor = (page: Page) => page.getByRole('dialog', { name: 'Редактор квиза' });

/** The lesson's quiz block selected, its quiz card showing `title`. */
async function openQuizBlock(page: Page, arranged: ArrangedQuiz, title: string) {
  await sidebar(page).getByRole('button', { name: arranged.lessonTitle, exact: true }).click();
  await page.getByRole('button', { name: /^Квиз №1/ }).click();
  await expect(quizCard(page)).toContainText(title);
}

/** A curator in a browser of their own, with the quiz editor open on the quiz as stored now. */
async function quizAuthorAt(browser: Browser, arranged: ArrangedQuiz): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${arranged.courseId}`);
  await openQuizBlock(page, arranged, arranged.quizTitle);
  await page.getByRole('button', { name: 'Редактировать квиз' }).click();
  await expect(quizEditor(page).getByLabel('Название квиза')).toHaveValue(arranged.quizTitle);
  return page;
}

const storedQuizTitle = async (request: APIRequestContext, { token, quizId }: ArrangedQuiz) => {
  const answer = await request.get(`/api/quizzes/${quizId}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { title: string }).title;
};

test('two browser contexts edit the same quiz; the second keeps its edit through the conflict and «Перезаписать» stores it', async ({
  browser,
  request,
}) => {
  const arranged = await arrangeQuiz(request);
  const first = await quizAuthorAt(browser, arranged);
  const second = await quizAuthorAt(browser, arranged);
  const errors = watchConsole(second);

  // The first author renames the quiz and saves it.
  await quizEditor(first).getByLabel('Название квиза').fill('Квиз первого автора');
  await quizEditor(first).getByRole('button', { name: 'Сохранить квиз' }).click();
  await expect(quizEditor(first)).toBeHidden();
  await expect(quizCard(first)).toContainText('Квиз первого автора');

  // The second, still on the version both opened, saves too: refused, and their title stays on screen.
  await quizEditor(second).getByLabel('Название квиза').fill('Квиз второго автора');
  await quizEditor(second).getByRole('button', { name: 'Сохранить квиз' }).click();
  const dialog = second.getByRole('dialog', { name: 'Документ изменён другим пользователем' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Ваш текст не потерян');
  await expect(dialog.getByRole('button')).toHaveText(['Загрузить их версию', 'Перезаписать', 'Сохранить мою как копию']);
  // The quiz editor under the conflict dialog is hidden from the accessibility tree: found by its label.
  await expect(
    second
      .locator('label')
      .filter({ hasText: /^Название квиза/ })
      .locator('input'),
  ).toHaveValue('Квиз второго автора');
  expect(await storedQuizTitle(request, arranged)).toBe('Квиз первого автора');

  // «Перезаписать»: the second author's quiz is stored over the first's, and the editor closes as after a save.
  await dialog.getByRole('button', { name: 'Перезаписать' }).click();
  await expect(dialog).toBeHidden();
  await expect(quizEditor(second)).toBeHidden();
  await expect(quizCard(second)).toContainText('Квиз второго автора');
  expect(await storedQuizTitle(request, arranged)).toBe('Квиз второго автора');

  // A reload shows it, in the card and in the quiz editor.
  await second.reload();
  await openQuizBlock(second, arranged, 'Квиз второго автора');
  await second.getByRole('button', { name: 'Редактировать квиз' }).click();
  await expect(quizEditor(second).getByLabel('Название квиза')).toHaveValue('Квиз второго автора');
  // The refused save is logged by the browser as a failed request; nothing else went wrong.
  expect(errors.filter((e) => !/412/.test(e))).toEqual([]);
});

/** A curator in a browser of their own, with the course overview («Обзор курса») open. */
async function overviewAt(browser: Browser, arranged: Arranged, title: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${arranged.courseId}`);
  await sidebar(page).getByRole('button', { name: title, exact: true }).click();
  await expect(page.getByRole('region', { name: 'Обзор курса' }).getByLabel('Название курса')).toHaveValue(title);
  return page;
}

test('the course overview meets another author’s save with the conflict dialog; «Загрузить их версию» shows the stored fields', async ({
  browser,
  request,
}) => {
  const arranged = await arrangeLesson(request);
  const headers = { authorization: `Bearer ${arranged.token}` };
  const title = ((await (await request.get(`/api/courses/${arranged.courseId}`, { headers })).json()) as { title: string }).title;
  const first = await overviewAt(browser, arranged, title);
  const second = await overviewAt(browser, arranged, title);

  await first.getByRole('region', { name: 'Обзор курса' }).getByLabel('Описание курса').fill('Описание первого автора');
  await expect(saveStatus(first)).toHaveText(/Сохранено в/, { timeout: 15_000 });

  await second.getByRole('region', { name: 'Обзор курса' }).getByLabel('Уровень').fill('Продвинутый');
  const dialog = second.getByRole('dialog', { name: 'Документ изменён другим пользователем' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(
    second
      .locator('label')
      .filter({ hasText: /^Уровень/ })
      .locator('input'),
  ).toHaveValue('Продвинутый');

  await dialog.getByRole('button', { name: 'Загрузить их версию' }).click();
  await expect(dialog).toBeHidden();
  const overview = second.getByRole('region', { name: 'Обзор курса' });
  await expect(overview.getByLabel('Описание курса')).toHaveValue('Описание первого автора');
  await expect(overview.getByLabel('Уровень')).not.toHaveValue('Продвинутый');
  const stored = await request.get(`/api/courses/${arranged.courseId}`, { headers });
  expect(await stored.json()).toMatchObject({ description: 'Описание первого автора' });
  expect((await stored.json()) as { level: string }).not.toMatchObject({ level: 'Продвинутый' });
});
