import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible, signIn, uniqueEmail, watchConsole } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/** A published course with one published lesson holding the given blocks, made over the API. */
async function arrangeLesson(request: APIRequestContext, title: string, content: unknown[]) {
  const token = await tokenFor(request, CURATOR);
  const headers = { authorization: `Bearer ${token}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const courseId = await post('/api/courses', { title: `${title} ${tag}`, description: 'Курс для проверки', isPublished: true });
  const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Модуль' });
  await post('/api/blocks', { courseId, moduleId, title, status: 'published', content });
  return { token, courseId };
}

async function storedBlocks(request: APIRequestContext, token: string, courseId: string) {
  const answer = await request.get(`/api/courses/${courseId}`, { headers: { authorization: `Bearer ${token}` } });
  const course = (await answer.json()) as {
    modules: Array<{ lessons: Array<{ blocks: Array<{ type: string; content: { text?: string; html?: string } }> }> }>;
  };
  return course.modules[0].lessons[0].blocks;
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Структура курса' });
const saveStatus = (page: Page) => page.getByRole('region', { name: 'Статус сохранения' }).getByRole('status');
const textEditor = (page: Page) => page.getByRole('textbox', { name: 'Текст', exact: true });
const tool = (page: Page, name: string) =>
  page.getByRole('toolbar', { name: 'Оформление текста' }).getByRole('button', { name, exact: true });

/** What the clipboard holds when a person copies from Word: classes, inline styles, Office tags. */
const FROM_WORD =
  '<p class="MsoNormal" style="color:#c00;font-family:Calibri"><b><span style="font-size:14pt">Из Word</span></b><o:p></o:p></p>' +
  '<ul style="margin-top:0"><li class="MsoListParagraph" style="mso-list:l0 level1 lfo1">пункт из Word</li></ul>';

async function pasteHtml(editor: Locator, html: string) {
  await editor.evaluate((el, pasted) => {
    const data = new DataTransfer();
    data.setData('text/html', pasted);
    data.setData('text/plain', 'Из Word');
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, html);
}

test('rich text survives a save and is shown in study mode', async ({ page, browser, request }) => {
  // An author's whole edit, a reload and a learner's second browser: 32 s on a fresh 2-core machine.
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  const lesson = 'Отпуск';
  const { token, courseId } = await arrangeLesson(request, lesson, [{ type: 'text', content: { text: 'Старый текст' } }]);
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}`);
  await sidebar(page).getByRole('button', { name: lesson, exact: true }).click();
  await page.getByRole('button', { name: /^Текст №1/ }).click();
  // A block written before rich text opens as its paragraphs.
  const editor = textEditor(page);
  await expect(editor).toHaveText('Старый текст');

  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Правила отпуска');
  await tool(page, 'Заголовок').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Отпуск длится ');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('28 дней');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.press('Enter');
  await tool(page, 'Маркированный список').click();
  // The list exists and holds the caret before anything is typed into it.
  await expect(editor.locator('ul > li')).toHaveCount(1);
  await expect(editor).toBeFocused();
  await page.keyboard.type('заявление за две недели');
  await page.keyboard.press('Enter');
  await page.keyboard.type('согласование с руководителем');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await tool(page, 'Цитата').click();
  await expect(editor.locator('blockquote')).toHaveCount(1);
  await expect(editor).toBeFocused();
  await page.keyboard.type('Трудовой кодекс');
  await page.keyboard.press('Shift+Home');
  await tool(page, 'Ссылка').click();
  // A wrong address is said under the field, and nothing is linked.
  await page.getByLabel('Адрес ссылки').fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Применить' }).click();
  await expect(page.getByText('Адрес ссылки должен начинаться с http://, https:// или mailto:')).toBeVisible();
  await expect(page.getByLabel('Адрес ссылки')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Адрес ссылки').fill('https://example.ru/tk');
  await page.getByRole('button', { name: 'Применить' }).click();
  // The words are a link, and the caret is back in the text (TipTap gives it back a frame later,
  // with the linked words selected: a key pressed before then would land on them).
  await expect(editor.getByRole('link', { name: 'Трудовой кодекс' })).toHaveAttribute('href', 'https://example.ru/tk');
  await expect(editor).toBeFocused();
  await editor.press('ControlOrMeta+End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await pasteHtml(editor, FROM_WORD);
  await expect(editor.locator('strong', { hasText: 'Из Word' })).toBeVisible();
  await expect(saveStatus(page)).toHaveText(/Сохранено в/, { timeout: 15_000 });

  // Stored sanitised, with the plain text beside it.
  const [block] = await storedBlocks(request, token, courseId);
  expect(block.content.html).toContain('<h2>Правила отпуска</h2>');
  expect(block.content.html).toContain('<strong>28 дней</strong>');
  expect(block.content.html).toContain('<a href="https://example.ru/tk">Трудовой кодекс</a>');
  expect(block.content.html).not.toMatch(/style=|class=|Mso|o:p|javascript/);
  expect(block.content.text).toContain('Правила отпуска');
  expect(block.content.text).toContain('• заявление за две недели');

  // After a reload the editor shows the same structure.
  await page.reload();
  await sidebar(page).getByRole('button', { name: lesson, exact: true }).click();
  await page.getByRole('button', { name: /^Текст №1/ }).click();
  await expect(textEditor(page).locator('h2')).toHaveText('Правила отпуска');
  await expect(textEditor(page).locator('li')).toHaveCount(3);

  // A learner sees the same in study mode.
  const email = uniqueEmail('rich');
  const registered = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName: `Вера Лебедева ${tag}`, role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);
  const learner = await (await browser.newContext()).newPage();
  await signIn(learner, email, PASSWORD, `/student/${courseId}`);
  await learner
    .getByRole('navigation', { name: 'Содержание курса' })
    .getByRole('button', { name: new RegExp(lesson) })
    .click();
  await expect(learner.getByRole('heading', { name: 'Правила отпуска' })).toBeVisible();
  await expect(learner.locator('strong', { hasText: '28 дней' })).toBeVisible();
  await expect(learner.getByRole('listitem').filter({ hasText: 'согласование с руководителем' })).toBeVisible();
  await expect(learner.locator('blockquote')).toContainText('Трудовой кодекс');
  const link = learner.getByRole('link', { name: 'Трудовой кодекс' });
  await expect(link).toHaveAttribute('href', 'https://example.ru/tk');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(learner.locator('strong', { hasText: 'Из Word' })).toBeVisible();
  await expect(learner.getByRole('listitem').filter({ hasText: 'пункт из Word' })).toBeVisible();
  await expectAccessible(learner, 'study mode with rich text');
  expect(errors).toEqual([]);
});

test('a new text block shows «Введите текст...» as a placeholder and saves only what the author typed', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const lesson = 'Посадка';
  const { token, courseId } = await arrangeLesson(request, lesson, []);
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}`);
  await sidebar(page).getByRole('button', { name: lesson, exact: true }).click();
  await page.getByRole('button', { name: '+ Текст' }).click();
  await page.getByRole('button', { name: /^Текст №1/ }).click();
  const editor = textEditor(page);
  // The hint is shown over the empty text, and is not its content.
  await expect(editor).toHaveText('');
  await expect(editor).toHaveAttribute('aria-placeholder', 'Введите текст...');
  await expect(page.getByText('Введите текст...', { exact: true })).toBeVisible();
  await expect(saveStatus(page)).toHaveText(/Сохранено в/, { timeout: 15_000 });
  expect((await storedBlocks(request, token, courseId))[0].content.text).toBe('');

  await editor.click();
  await page.keyboard.type('Правильная посадка за столом');
  await expect(page.getByText('Введите текст...', { exact: true })).toBeHidden();
  // Saved as typed: nothing before the author's words.
  await expect
    .poll(async () => (await storedBlocks(request, token, courseId))[0].content, { timeout: 15_000 })
    .toEqual({ text: 'Правильная посадка за столом', html: '<p>Правильная посадка за столом</p>' });
  expect(errors).toEqual([]);
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: true });

  test('a block is dragged by touch after a press and the new order is saved', async ({ page, request }) => {
    const lesson = 'Порядок';
    const { token, courseId } = await arrangeLesson(request, lesson, [
      { type: 'heading', content: { text: 'Заголовок урока' } },
      { type: 'text', content: { text: 'Абзац урока' } },
    ]);
    await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}`);
    await sidebar(page).getByRole('button', { name: lesson, exact: true }).click();
    const blocks = page.getByRole('list', { name: 'Блоки урока' }).getByRole('listitem');
    await expect(blocks).toHaveCount(2);
    const handle = page.getByRole('button', { name: 'Перетащить блок «Текст №2»' });
    await handle.scrollIntoViewIfNeeded();
    const from = await handle.boundingBox();
    const target = await blocks.first().boundingBox();
    if (!from || !target) throw new Error('touch drag: the handle or the first block is not visible');
    const x = from.x + from.width / 2;
    const y = from.y + from.height / 2;
    // A finger on the handle: pressed past dnd-kit's delay, then moved up over the first block and lifted.
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', py: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: py }] });
    await touch('touchStart', y);
    await page.waitForTimeout(400);
    for (let py = y; py >= target.y + 4; py -= 8) {
      await touch('touchMove', py);
      await page.waitForTimeout(16);
    }
    await touch('touchEnd', target.y + 4);
    await expect(blocks.first()).toContainText('Абзац урока');
    await expect(saveStatus(page)).toHaveText(/Сохранено в/, { timeout: 15_000 });
    expect((await storedBlocks(request, token, courseId)).map((b) => b.type)).toEqual(['text', 'heading']);
  });
});
