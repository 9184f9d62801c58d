import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { acceptConsent, expectAccessible, signIn, uniqueEmail, watchConsole } from './helpers';

/**
 * Course versions (docs/decisions/093): once a learner has begun a published course, the curator
 * edits a draft while the learner keeps reading the published version; a publish with a summary
 * moves the learner on without losing their completion; the history compares two versions and
 * restores an old one as the draft, which learners do not see until it is published again.
 */

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';

// Two people in two browser contexts and four axe checks: 43–78 s measured on the 2-core host, so well over the default 30 s.
test.describe.configure({ timeout: 150_000 });

const OLD_TEXT = 'Отпуск согласуют с руководителем за две недели.';
const NEW_TEXT = 'Отпуск согласуют с руководителем за месяц и отмечают в календаре отдела.';
const LESSON = 'Правила отпуска';
const OTHER_LESSON = 'Итоги';
const SUMMARY = 'Срок согласования отпуска: месяц вместо двух недель';

interface Arranged {
  courseId: string;
  courseTitle: string;
  lessonId: string;
  learner: { email: string; token: string };
  curatorToken: string;
}

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/** A published course of two lessons made by the curator over the API, and a candidate who has not begun it. */
async function arrange(request: APIRequestContext): Promise<Arranged> {
  const headers = { authorization: `Bearer ${await tokenFor(request, CURATOR)}` };
  const post = async (path: string, data: unknown, as = headers): Promise<string> => {
    const answer = await request.post(path, { headers: as, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const courseTitle = `Отпуска и отгулы ${Date.now().toString(36)}`;
  const courseId = await post('/api/courses', { title: courseTitle, description: 'Как оформить отпуск', isPublished: true });
  const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Отпуск', status: 'published' });
  const lessonId = await post('/api/blocks', {
    courseId,
    moduleId,
    title: LESSON,
    status: 'published',
    content: [{ type: 'text', content: { text: OLD_TEXT } }],
  });
  await post('/api/blocks', {
    courseId,
    moduleId,
    title: OTHER_LESSON,
    status: 'published',
    content: [{ type: 'text', content: { text: 'Вопросы задавайте отделу кадров.' } }],
  });

  const email = uniqueEmail('versions');
  const registered = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName: `Вера Ученица ${Date.now().toString(36)}`, role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);
  const learnerToken = ((await registered.json()) as { token: string }).token;
  await acceptConsent(request, learnerToken);
  return {
    courseId,
    courseTitle,
    lessonId,
    learner: { email, token: learnerToken },
    curatorToken: headers.authorization.slice('Bearer '.length),
  };
}

/**
 * The learner completes the lesson over the progress API: the course's first learner activity, so
 * version 1 is taken, just after the answer; the curator's draft says so once it is.
 */
async function completeLesson(request: APIRequestContext, { courseId, lessonId, learner, curatorToken }: Arranged) {
  const answer = await request.post(`/api/progress/lesson/${lessonId}/complete`, {
    headers: { authorization: `Bearer ${learner.token}` },
    data: { courseId },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  await expect
    .poll(async () => {
      const draft = await request.get(`/api/courses/${courseId}/draft`, { headers: { authorization: `Bearer ${curatorToken}` } });
      return ((await draft.json()) as { publishedVersion: number | null }).publishedVersion;
    })
    .toBe(1);
}

// The editor.
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Структура курса' });
const lessonItem = (page: Page, title: string) =>
  sidebar(page)
    .getByRole('list', { name: /^Уроки модуля/ })
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: title, exact: true }) });
const saveStatus = (page: Page) => page.getByRole('region', { name: 'Статус сохранения' }).getByRole('status');
const textField = (page: Page) => page.getByRole('textbox', { name: 'Текст', exact: true });
const versionsBar = (page: Page) => page.getByRole('region', { name: 'Версии курса' });

/** Opens the lesson's first text block in the editor. */
async function openTextBlock(page: Page, lesson: string) {
  await sidebar(page).getByRole('button', { name: lesson, exact: true }).click();
  await page.getByRole('button', { name: /^Текст №1/ }).click();
}

// The study page.
const contents = (page: Page) => page.getByRole('navigation', { name: 'Содержание курса' });
const studyLesson = (page: Page, title: string) => contents(page).getByRole('button', { name: new RegExp(title) });
const progressText = (page: Page) => contents(page).getByText(/Прогресс курса:/);

/** The learner's study page with the lesson open: its text, the tick and the course's progress. */
async function expectLearnerSees(page: Page, text: string) {
  await studyLesson(page, LESSON).click();
  await expect(page.getByRole('heading', { name: LESSON, level: 2 })).toBeVisible();
  await expect(page.getByText(text, { exact: true })).toBeVisible();
  await expect(page.getByText(text === OLD_TEXT ? NEW_TEXT : OLD_TEXT)).toHaveCount(0);
  // The completion is kept: the lesson is ticked and counted.
  await expect(page.getByRole('status').filter({ hasText: 'Урок пройден' })).toBeVisible();
  await expect(studyLesson(page, LESSON)).toContainText('✓');
  await expect(studyLesson(page, OTHER_LESSON)).not.toContainText('✓');
  await expect(progressText(page)).toHaveText('Прогресс курса: 1 из 2 · 50%');
  await expect(page.getByRole('button', { name: 'Завершить урок' })).toHaveCount(0);
}

test('a curator edits a course a learner has begun, publishes it, compares the versions and restores the first as the draft', async ({
  browser,
  page,
  request,
}) => {
  const arranged = await arrange(request);
  const curatorErrors = watchConsole(page);

  const learner = await (await browser.newContext()).newPage();
  const learnerErrors = watchConsole(learner);

  await test.step('before anyone begins the course, the editor says edits reach learners at once', async () => {
    await signIn(page, CURATOR.email, CURATOR.password, `/editor/${arranged.courseId}`);
    await expect(sidebar(page)).toBeVisible();
    await expect(
      page.getByRole('note').filter({ hasText: 'Курс ещё никто не начал: правки сразу видны ученикам' }),
    ).toBeVisible();
    await expect(versionsBar(page)).toHaveCount(0);
  });

  await test.step('the curator edits the lesson once a learner has begun: the draft differs from version 1', async () => {
    await completeLesson(request, arranged);
    await page.reload();
    await expect(sidebar(page)).toBeVisible();
    const bar = versionsBar(page);
    await expect(bar).toContainText('Черновик · опубликована версия 1');
    await expect(bar).toContainText('Черновик совпадает с опубликованной версией 1');
    await expect(bar.getByRole('button', { name: 'Опубликовать изменения' })).toHaveCount(0);
    await expect(page.getByRole('note').filter({ hasText: 'Курс ещё никто не начал' })).toHaveCount(0);

    await openTextBlock(page, LESSON);
    await expect(textField(page)).toHaveText(OLD_TEXT);
    await textField(page).fill(NEW_TEXT);
    await expect(saveStatus(page)).toHaveText(/Сохранено в/, { timeout: 15_000 });

    // The bar reads the draft again shortly after the save.
    await expect(bar.getByRole('button', { name: 'Опубликовать изменения' })).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Отменить изменения' })).toBeVisible();
    await expect(bar).toContainText('Изменено уроков: 1, добавлено: 0, удалено: 0');
    await expect(lessonItem(page, LESSON)).toContainText('изменён');
    await expect(lessonItem(page, OTHER_LESSON)).not.toContainText('изменён');
    await expectAccessible(page, 'the course editor with the versions bar');
  });

  await test.step('the learner, in a browser of their own, still reads version 1', async () => {
    await signIn(learner, arranged.learner.email, PASSWORD, `/student/${arranged.courseId}`);
    await expect(learner.getByRole('heading', { name: arranged.courseTitle })).toBeVisible();
    await expectLearnerSees(learner, OLD_TEXT);
  });

  await test.step('the curator publishes the changes with a summary', async () => {
    await versionsBar(page).getByRole('button', { name: 'Опубликовать изменения' }).click();
    const dialog = page.getByRole('dialog', { name: 'Опубликовать изменения' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Изменено уроков: 1, добавлено: 0, удалено: 0');
    // The changed lesson may be marked for a retake; it is not, so the learner's completion stands.
    const retake = dialog.getByRole('checkbox', { name: `Урок «${LESSON}» требует повторного прохождения` });
    await expect(retake).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: new RegExp(`Урок «${OTHER_LESSON}»`) })).toHaveCount(0);

    // The summary is required.
    await dialog.getByRole('button', { name: 'Опубликовать', exact: true }).click();
    await expect(dialog).toBeVisible();
    const summary = dialog.getByLabel(/Что изменилось/);
    await expect(summary).toHaveAttribute('aria-invalid', 'true');
    await summary.fill(SUMMARY);
    await expectAccessible(page, 'the publish dialog');
    await dialog.getByRole('button', { name: 'Опубликовать', exact: true }).click();
    await expect(dialog).toBeHidden();

    const bar = versionsBar(page);
    await expect(bar).toContainText('Черновик · опубликована версия 2');
    await expect(bar).toContainText('Черновик совпадает с опубликованной версией 2');
    await expect(bar.getByRole('button', { name: 'Опубликовать изменения' })).toHaveCount(0);
    await expect(lessonItem(page, LESSON)).not.toContainText('изменён');
  });

  await test.step('the learner reloads: the new text, and the lesson is still completed', async () => {
    await learner.reload();
    await expect(learner.getByRole('heading', { name: arranged.courseTitle })).toBeVisible();
    await expectLearnerSees(learner, NEW_TEXT);
  });

  await test.step('the curator compares version 1 and 2 in the history', async () => {
    await versionsBar(page).getByRole('button', { name: 'История версий' }).click();
    const history = page.getByRole('dialog', { name: 'История версий' });
    const versions = history.getByRole('list', { name: 'Версии' }).getByRole('listitem');
    await expect(versions).toHaveCount(2);
    const second = versions.filter({ has: page.getByRole('heading', { name: 'Версия 2' }) });
    const first = versions.filter({ has: page.getByRole('heading', { name: 'Версия 1' }) });
    await expect(second).toContainText('текущая');
    await expect(second).toContainText(SUMMARY);
    await expect(second).toContainText('Уроков добавлено: 0, удалено: 0, изменено: 1');
    await expect(first).not.toContainText('текущая');
    // Newest first.
    await expect(versions.first().getByRole('heading')).toHaveText('Версия 2');
    await expectAccessible(page, 'the version history');

    await history.getByRole('button', { name: 'Сравнить' }).click();
    await expect(history.getByLabel('С версии')).toHaveValue('1');
    await expect(history.getByLabel('По версию')).toHaveValue('2');
    const lessons = history.getByRole('region', { name: 'Уроки' });
    await expect(lessons.getByRole('heading', { name: 'Изменены' })).toBeVisible();
    await expect(lessons.getByRole('heading', { name: 'Добавлены' })).toHaveCount(0);
    await expect(lessons.getByRole('heading', { name: 'Удалены' })).toHaveCount(0);
    await expect(lessons.getByRole('list', { name: 'Уроки: изменены' }).getByRole('listitem')).toHaveText([
      `${LESSON} · блоков изменено: 1 (Текст)`,
    ]);
    await expectAccessible(page, 'the comparison of two versions');

    // Back to the list, to restore version 1.
    await history.getByRole('button', { name: '← К списку версий' }).click();
    await expect(history.getByRole('list', { name: 'Версии' })).toBeVisible();
  });

  await test.step('the curator restores version 1 as the draft: the old text, and changes to publish', async () => {
    const history = page.getByRole('dialog', { name: 'История версий' });
    await history.getByRole('button', { name: 'Восстановить версию 1 как черновик' }).click();
    const confirm = page.getByRole('dialog', { name: 'Восстановить версию 1' });
    await expect(confirm).toContainText('Ученики увидят её только после публикации');
    await confirm.getByRole('button', { name: 'Восстановить', exact: true }).click();
    await expect(history).toBeHidden();

    const bar = versionsBar(page);
    await expect(bar).toContainText('Черновик · опубликована версия 2');
    await expect(bar.getByRole('button', { name: 'Опубликовать изменения' })).toBeVisible();
    await expect(bar).toContainText('Изменено уроков: 1, добавлено: 0, удалено: 0');
    await expect(lessonItem(page, LESSON)).toContainText('изменён');
    await openTextBlock(page, LESSON);
    await expect(textField(page)).toHaveText(OLD_TEXT);
  });

  await test.step('the learner still reads version 2', async () => {
    await learner.reload();
    await expect(learner.getByRole('heading', { name: arranged.courseTitle })).toBeVisible();
    await expectLearnerSees(learner, NEW_TEXT);
  });

  expect(curatorErrors).toEqual([]);
  expect(learnerErrors).toEqual([]);
  await learner.context().close();
});
