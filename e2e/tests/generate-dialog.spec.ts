import path from 'node:path';
import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { GENERATION_MSG, GENERATION_STAGE_LABELS } from '@portal/contracts';
import { recordProgressBars, signIn, startOwnPortal, takeProgressSeen, uniqueEmail, watchConsole } from './helpers';

/**
 * The «Создать с ИИ» dialog of the course list, against the real stack (no provider is configured
 * there, so the built-in template builds). The full journey into the editor and regeneration is
 * generate.spec.ts; this file is about the dialog itself. Generations run as the admin or a curator
 * made for the test, so the shared curator's rate limit is left to the other journeys.
 */

/** Screenshots for a person to look at, beside the other test output. */
const SCREENSHOTS = path.resolve(__dirname, '../../.data/screenshots');
const ADMIN = { email: 'admin@portal.local', password: 'Portal-Glav-2026' };
const STAGE_LABELS = Object.values(GENERATION_STAGE_LABELS);

let counter = 0;
const unique = (tag: string) => `${tag} ${Date.now().toString(36)}${counter++}`;

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

interface StoredCourse {
  id: string;
  title: string;
  status: string;
  modules: Array<{ title: string; lessons: Array<{ blocks: Array<{ type: string; content: { quizId?: string } }> }> }>;
}
interface Summary {
  id: string;
  title: string;
}

/** Every course the account can see whose title starts with `prefix`. */
async function coursesTitled(request: APIRequestContext, token: string, prefix: string): Promise<Summary[]> {
  const answer = await request.get(`/api/courses?search=${encodeURIComponent(prefix)}`, { headers: auth(token) });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as Summary[]).filter((c) => c.title.startsWith(prefix));
}

/** A curator of its own, so a test may spend its whole generation limit. */
async function freshCurator(request: APIRequestContext): Promise<{ email: string; password: string }> {
  const account = { email: uniqueEmail('builder'), password: 'Builder12345' };
  const registered = await request.post('/api/auth/register', { data: { ...account, fullName: 'Автор Генераций' } });
  expect(registered.status()).toBe(201);
  const { user } = (await registered.json()) as { user: { id: string; version: number } };
  const admin = await tokenFor(request, ADMIN);
  const promoted = await request.patch(`/api/users/${user.id}`, {
    headers: auth(admin),
    data: { fullName: 'Автор Генераций', email: account.email, role: 'CURATOR', version: user.version },
  });
  expect(promoted.ok()).toBe(true);
  return account;
}

const builder = (page: Page) => page.getByRole('dialog', { name: 'Создать курс с ИИ' });
const goalFields = (page: Page) => builder(page).getByRole('group', { name: 'Цели обучения' }).getByRole('textbox');
const currentStep = (page: Page) =>
  builder(page).getByRole('list', { name: 'Шаги создания курса' }).locator('[aria-current="step"]');

/** Opens the course list (of the shared portal, or of the one at `portal`) and the dialog. */
async function openBuilder(page: Page, portal = '') {
  await page.goto(`${portal}/courses`);
  await page.getByRole('button', { name: 'Создать с ИИ' }).click();
  await expect(builder(page)).toBeVisible();
  await expect(builder(page).getByLabel('Тема курса')).toBeFocused();
}

async function fillForm(page: Page, topic: string, goals: string[]) {
  const dialog = builder(page);
  await dialog.getByLabel('Тема курса').fill(topic);
  await dialog.getByLabel('Аудитория').fill('Менеджеры по продажам, первый год работы');
  for (const [i, goal] of goals.entries()) {
    if ((await goalFields(page).count()) <= i) await dialog.getByRole('button', { name: 'Добавить цель' }).click();
    await goalFields(page).nth(i).fill(goal);
  }
}

/**
 * Holds the first poll of each job until released: the query waits for it and asks nothing more, so
 * the dialog stays on «running» and a person has time to press a button. Other calls pass.
 */
async function holdFirstPolls(page: Page): Promise<{ held: () => number; release: () => Promise<void> }> {
  const waiting: Route[] = [];
  const seen = new Set<string>();
  await page.route(/\/api\/generations\/[0-9a-f-]{36}$/, async (route) => {
    const id = route.request().url().split('/').pop() ?? '';
    if (route.request().method() === 'GET' && !seen.has(id)) {
      seen.add(id);
      waiting.push(route);
    } else await route.continue();
  });
  return {
    held: () => waiting.length,
    release: async () => {
      await Promise.all(waiting.splice(0).map((r) => r.continue().catch(() => undefined)));
    },
  };
}

test('the form names what is missing beside each field, tells who will build the course, and sends nothing until it is right', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const generateCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/courses/generate')) generateCalls.push(r.method());
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await openBuilder(page);
  const dialog = builder(page);

  // Said before anything starts: no provider here, so the template builds.
  await expect(dialog.getByRole('note')).toHaveText(GENERATION_MSG.templateAhead);
  await expect(currentStep(page)).toContainText('1. Опишите тему');
  await expect(dialog.getByLabel('Уровень')).toHaveValue('Начальный');
  await expect(dialog.getByLabel('Добавить квизы')).toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Удалить цель 1' })).toBeDisabled();

  await dialog.getByLabel('Модулей').fill('13');
  await dialog.getByLabel('Уроков в модуле').fill('0');
  await dialog.getByRole('button', { name: 'Сгенерировать курс' }).click();
  await expect(dialog.getByText(GENERATION_MSG.topicRequired)).toBeVisible();
  await expect(dialog.getByText(GENERATION_MSG.audienceRequired)).toBeVisible();
  await expect(dialog.getByText(GENERATION_MSG.goalsRequired)).toBeVisible();
  await expect(dialog.getByText(GENERATION_MSG.modulesRange)).toBeVisible();
  await expect(dialog.getByText(GENERATION_MSG.lessonsRange)).toBeVisible();
  await expect(dialog.getByLabel('Тема курса')).toBeFocused();
  await expect(dialog.getByLabel('Тема курса')).toHaveAttribute('aria-invalid', 'true');

  // A fixed field loses its message; goals go up to ten, and each can be removed.
  await dialog.getByLabel('Тема курса').fill('Переговоры');
  await expect(dialog.getByText(GENERATION_MSG.topicRequired)).toBeHidden();
  for (let i = 1; i < 10; i++) await dialog.getByRole('button', { name: 'Добавить цель' }).click();
  await expect(goalFields(page)).toHaveCount(10);
  await expect(goalFields(page).nth(9)).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Добавить цель' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Удалить цель 10' }).click();
  await expect(goalFields(page)).toHaveCount(9);
  await expect(dialog.getByRole('button', { name: 'Добавить цель' })).toBeEnabled();

  expect(generateCalls).toEqual([]);
  // Escape closes it, and the focus goes back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(builder(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Создать с ИИ' })).toBeFocused();
  expect(await coursesTitled(request, await tokenFor(request, ADMIN), 'Переговоры')).toEqual([]);
  expect(errors).toEqual([]);
});

test('an author generates a draft: the progress with its stages, the summary counted from the saved course, the template said plainly, then the editor', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await recordProgressBars(page);
  const topic = unique('Работа с возражениями');
  const goals = [unique('Слушать клиента'), unique('Уточнять возражение'), unique('Предлагать решение')];
  await signIn(page, ADMIN.email, ADMIN.password);
  await openBuilder(page);
  await fillForm(page, topic, goals);
  await builder(page).getByRole('button', { name: 'Сгенерировать курс' }).click();

  // The summary, shown before the editor opens by itself.
  const summary = builder(page).getByText(/^Черновик готов: /);
  await expect(summary).toBeVisible({ timeout: 15_000 });
  const summaryText = await summary.textContent();
  await expect(currentStep(page)).toContainText('3. Настройте контент');
  await expect(builder(page).getByRole('note')).toHaveText(GENERATION_MSG.templateNotice);
  await expect(builder(page).getByRole('button', { name: 'Открыть редактор' })).toBeFocused();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'builder-done-dark.png') });

  await expect(page).toHaveURL(/\/editor\/[^/?#]+$/, { timeout: 10_000 });
  const courseId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

  // The progress bar was shown with its name, a stage label and the stage list, rising within 0..100.
  const shown = (await takeProgressSeen(page)).filter((s) => s.name === 'Ход генерации');
  expect(shown.length).toBeGreaterThan(0);
  for (const s of shown) {
    expect(s.value).toBeGreaterThanOrEqual(0);
    expect(s.value).toBeLessThanOrEqual(100);
    expect(STAGE_LABELS.some((label) => s.text.includes(label))).toBe(true);
    expect(s.text).toContain('2. ИИ создаст структуру');
  }
  const values = shown.map((s) => s.value);
  expect(values).toEqual([...values].sort((a, b) => a - b));

  // What the summary said is what was saved: the introduction, one module per goal, the closing assessment.
  const token = await tokenFor(request, ADMIN);
  const answer = await request.get(`/api/courses/${courseId}`, { headers: auth(token) });
  expect(answer.ok()).toBe(true);
  const course = (await answer.json()) as StoredCourse;
  expect(course.title).toBe(topic);
  expect(course.status).toBe('draft');
  expect(course.modules.map((m) => m.title)).toEqual(['Введение', ...goals, 'Итоговая аттестация']);
  const lessons = course.modules.flatMap((m) => m.lessons);
  const quizLessons = lessons.filter((l) => l.blocks.length > 0 && l.blocks.every((b) => b.type === 'quiz'));
  const quizzes = new Set(lessons.flatMap((l) => l.blocks.filter((b) => b.type === 'quiz').map((b) => b.content.quizId)));
  expect(quizzes.size).toBeGreaterThan(0);
  const forms = (n: number, one: string, few: string, many: string) => {
    const rule = new Intl.PluralRules('ru-RU').select(n);
    return `${n} ${rule === 'one' ? one : rule === 'few' ? few : many}`;
  };
  expect(summaryText).toBe(
    `Черновик готов: ${forms(5, 'модуль', 'модуля', 'модулей')}, ${forms(lessons.length - quizLessons.length, 'урок', 'урока', 'уроков')}, ${forms(quizzes.size, 'квиз', 'квиза', 'квизов')}`,
  );

  // The course list shows the new draft without a reload of the data by hand.
  await page.goto('/courses');
  await expect(page.getByRole('article', { name: topic, exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('«Отменить» that arrives after the server has finished says so, keeps the draft and opens nothing by itself', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  const topic = unique('Поздняя отмена');
  await signIn(page, ADMIN.email, ADMIN.password);
  const polls = await holdFirstPolls(page);
  await openBuilder(page);
  await fillForm(page, topic, ['Понять, что отмена опоздала']);
  await builder(page).getByRole('button', { name: 'Сгенерировать курс' }).click();

  // While the polls are held the dialog shows the job as the server answered it: running.
  const bar = builder(page).getByRole('progressbar', { name: 'Ход генерации' });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuemin', '0');
  await expect(bar).toHaveAttribute('aria-valuemax', '100');
  await expect(builder(page).getByText(GENERATION_STAGE_LABELS.structure).first()).toBeVisible();
  await expect(currentStep(page)).toContainText('2. ИИ создаст структуру');
  await expect(builder(page).getByRole('button', { name: 'Отменить' })).toBeFocused();
  await expect.poll(polls.held).toBeGreaterThan(0);

  // The template finished long ago: the server answers «already finished», and the dialog says what there is.
  const token = await tokenFor(request, ADMIN);
  await expect.poll(async () => (await coursesTitled(request, token, topic)).length).toBe(1);
  await builder(page).getByRole('button', { name: 'Отменить' }).click();
  await expect(builder(page).getByText(`${GENERATION_MSG.alreadyFinished}: черновик сохранён.`)).toBeVisible();
  await expect(builder(page).getByText(/^Черновик готов: 3 модуля, \d+ урок/)).toBeVisible();
  await expect(builder(page).getByRole('button', { name: 'Открыть редактор' })).toBeFocused();
  await page.waitForTimeout(2500);
  await expect(page).toHaveURL(/\/courses$/);

  await builder(page).getByRole('button', { name: 'К списку курсов' }).click();
  await expect(builder(page)).toBeHidden();
  await expect(page.getByRole('article', { name: topic, exact: true })).toBeVisible();
  await polls.release();
  // The browser logs the refused DELETE itself; nothing else went wrong.
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
});

// The content service restarted is the journey's own (startOwnPortal): the shared one serves the others.
test('a content service restarted during a job still knows it: the held poll reaches the restarted service and the author gets the draft, saved once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const topic = unique('Генерация при перезапуске');
  const own = await startOwnPortal({ content: {} });
  try {
    await signIn(page, ADMIN.email, ADMIN.password, `${own.url}/dashboard`);
    const polls = await holdFirstPolls(page);
    await openBuilder(page, own.url);
    await fillForm(page, topic, ['Дождаться перезапуска']);
    await builder(page).getByRole('button', { name: 'Сгенерировать курс' }).click();
    await expect(builder(page).getByRole('progressbar', { name: 'Ход генерации' })).toBeVisible();
    await expect.poll(polls.held).toBeGreaterThan(0);

    // Jobs are in the store and the queue, not in the process: the restarted service answers the held poll.
    await own.stop('content');
    await own.start('content');
    await polls.release();
    await expect(builder(page).getByText(/^Черновик готов: /)).toBeVisible({ timeout: 30_000 });
    await expect(builder(page).getByRole('alert')).toHaveCount(0);
    const token = await tokenFor(request, ADMIN);
    expect((await coursesTitled(request, token, topic)).map((c) => c.title)).toEqual([topic]);
  } finally {
    await own.close();
  }
});

test('the per-user limit is shown in the red box with the server’s words, the form is kept and no course is made', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const curator = await freshCurator(request);
  const token = await tokenFor(request, curator);
  const prefix = unique('Лимит');
  // The stack's default: ten generations an hour per person, the template included.
  for (let i = 0; i < 10; i++) {
    const started = await request.post('/api/courses/generate', {
      headers: auth(token),
      data: { topic: `${prefix} ${i}`, audience: 'Все', goals: ['Цель'] },
    });
    expect(started.status()).toBe(202);
  }
  await expect.poll(async () => (await coursesTitled(request, token, prefix)).length, { timeout: 20_000 }).toBe(10);

  await signIn(page, curator.email, curator.password);
  await openBuilder(page);
  await fillForm(page, `${prefix} лишний`, ['Упереться в лимит']);
  await builder(page).getByRole('button', { name: 'Сгенерировать курс' }).click();
  await expect(builder(page).getByRole('alert')).toHaveText(/^Слишком много генераций\. Попробуйте снова через \d+ мин\.$/);
  await expect(builder(page).getByLabel('Тема курса')).toHaveValue(`${prefix} лишний`);
  await expect(builder(page).getByRole('button', { name: 'Сгенерировать курс' })).toBeEnabled();
  await expect(currentStep(page)).toContainText('1. Опишите тему');
  expect(await coursesTitled(request, token, prefix)).toHaveLength(10);
});

test('the dialog takes the colours of the light and the dark theme', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const polls = await holdFirstPolls(page);
  const surfaces = { light: 'rgb(255, 255, 255)', dark: 'rgb(23, 26, 35)' };
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => localStorage.setItem('darkMode', String(dark)), theme === 'dark');
    await openBuilder(page);
    await expect(builder(page)).toHaveCSS('background-color', surfaces[theme]);
    await fillForm(page, 'Переговоры с клиентами', ['Готовить повестку встречи', 'Отвечать на возражения']);
    await builder(page).getByLabel('Аудитория').fill('');
    await builder(page).getByRole('button', { name: 'Сгенерировать курс' }).click();
    await expect(builder(page).getByText(GENERATION_MSG.audienceRequired)).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, `builder-form-${theme}.png`) });

    await builder(page).getByLabel('Аудитория').fill('Менеджеры по продажам');
    await builder(page).getByRole('button', { name: 'Сгенерировать курс' }).click();
    await expect(builder(page).getByRole('progressbar', { name: 'Ход генерации' })).toBeVisible();
    await expect(builder(page)).toHaveCSS('background-color', surfaces[theme]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `builder-progress-${theme}.png`) });
    // Closing while it «runs» asks nothing (the server has already finished here, so the draft stays).
    await page.keyboard.press('Escape');
    await expect(builder(page)).toBeHidden();
  }
  await polls.release();
});
