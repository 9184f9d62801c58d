import path from 'node:path';
import { expect, test, type APIRequestContext, type Frame, type Page } from '@playwright/test';
import type { CourseProgress, Page as ListPage, ScormAttemptSummary } from '@portal/contracts';
import { readFile } from 'node:fs/promises';
import { signIn, uniqueEmail } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const GOLF = path.resolve(__dirname, '../fixtures/scorm/RuntimeBasicCalls_SCORM20043rdEdition.zip');
const tag = Date.now().toString(36);

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

async function registerLearner(request: APIRequestContext): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('scorm');
  const answer = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName: `Вера Ким ${tag}`, role: 'CANDIDATE' },
  });
  expect(answer.status()).toBe(201);
  return { email, token: ((await answer.json()) as { token: string }).token };
}

/** A published course of one module and one published lesson with nothing in it yet. */
async function arrangeCourse(request: APIRequestContext, curator: string): Promise<{ courseId: string; lessonId: string }> {
  const headers = { authorization: `Bearer ${curator}` };
  const post = async (url: string, data: unknown) => {
    const answer = await request.post(url, { headers, data });
    expect(answer.status(), `${url}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const courseId = await post('/api/courses', { title: `Гольф для начинающих ${tag}`, isPublished: true });
  const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Основы' });
  const lessonId = await post('/api/blocks', { courseId, moduleId, title: 'Правила гольфа', status: 'published' });
  return { courseId, lessonId };
}

const scoFrame = (page: Page) => page.frameLocator('iframe[title^="Учебный материал"]');
/** The golf SCO shows each page in a frame of its own launch page. */
const scoPage = (page: Page) => scoFrame(page).frameLocator('#contentFrame');
const progressText = (page: Page) => page.getByRole('navigation', { name: 'Содержание курса' }).getByText(/Прогресс курса:/);

/** The package's frame as Playwright drives it (its address is the signed launch under /scorm/). */
async function packageFrame(page: Page): Promise<Frame> {
  await expect
    .poll(() => page.frames().some((f) => f.url().includes('/scorm/') && f.url().includes('launchpage.html')))
    .toBe(true);
  return page.frames().find((f) => f.url().includes('/scorm/') && f.url().includes('launchpage.html')) as Frame;
}

async function attemptsOf(request: APIRequestContext, curator: string, courseId: string): Promise<ScormAttemptSummary[]> {
  const answer = await request.get(`/api/scorm/attempts?courseId=${courseId}`, {
    headers: { authorization: `Bearer ${curator}` },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as ListPage<ScormAttemptSummary>).data;
}

/** The golf package uploaded over the API and put in the lesson as its «SCORM-пакет» block. */
async function arrangeScormLesson(request: APIRequestContext, curator: string): Promise<{ courseId: string; lessonId: string }> {
  const { courseId, lessonId } = await arrangeCourse(request, curator);
  const headers = { authorization: `Bearer ${curator}` };
  const uploaded = await request.post(`/api/scorm/packages?courseId=${courseId}&mode=lesson`, {
    headers,
    multipart: { file: { name: 'golf.zip', mimeType: 'application/zip', buffer: await readFile(GOLF) } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const pkg = (await uploaded.json()) as { id: string; title: string; scos: { id: string }[] };
  const lesson = (await (await request.get(`/api/blocks/${lessonId}`, { headers })).json()) as { version: number };
  const saved = await request.patch(`/api/blocks/${lessonId}`, {
    headers,
    data: {
      version: lesson.version,
      content: [{ type: 'scorm', content: { packageId: pkg.id, scoId: pkg.scos[0].id, title: pkg.title, version: '2004' } }],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return { courseId, lessonId };
}

test.describe('SCORM', () => {
  test('a curator uploads Rustici’s golf package as a «SCORM-пакет» lesson; a learner plays its pages and quiz, resumes at the bookmark after a reload, and the one-lesson course is completed', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const curator = await tokenFor(request, CURATOR);
    const { courseId, lessonId } = await arrangeCourse(request, curator);

    // The curator adds the block and uploads the package in the editor.
    await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}`);
    await page
      .getByRole('complementary', { name: 'Структура курса' })
      .getByRole('button', { name: 'Правила гольфа', exact: true })
      .click();
    await page.getByRole('button', { name: '+ SCORM-пакет' }).click();
    const panel = page.getByRole('region', { name: 'Свойства блока «SCORM-пакет №1»' });
    await panel.getByLabel('Загрузить SCORM-пакет (.zip)').setInputFiles(GOLF);
    await expect(panel.getByRole('region', { name: 'SCORM-пакет блока' })).toContainText('Golf Explained');
    await expect(panel.getByRole('region', { name: 'SCORM-пакет блока' })).toContainText('SCORM 2004 3rd Edition');
    // One package a lesson: the palette offers no second one.
    await expect(page.getByRole('button', { name: '+ SCORM-пакет' })).toBeDisabled();
    await expect(page.getByRole('region', { name: 'Статус сохранения' }).getByRole('status')).toHaveText(/Сохранено в/, {
      timeout: 15_000,
    });

    // A learner opens the lesson: the SCO plays in its frame, and there is no «Завершить урок».
    const learner = await registerLearner(request);
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, learner.email, PASSWORD, `/student/${courseId}?lesson=${lessonId}`);
    await expect(page.getByRole('heading', { name: 'Правила гольфа', level: 2 })).toBeVisible();
    await expect(page.getByText('Этот урок засчитывается сам, когда вы пройдёте учебный материал до конца')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Завершить урок' })).toHaveCount(0);
    await expect(progressText(page)).toHaveText('Прогресс курса: 0 из 1 · 0%');

    await expect(scoPage(page).getByRole('heading', { name: 'Play of the game' })).toBeVisible({ timeout: 20_000 });
    for (const title of ['Par', 'Scoring', 'Other Scoring Systems']) {
      await scoFrame(page).getByRole('button', { name: 'Next ->' }).click();
      await expect(scoPage(page).getByRole('heading', { name: title })).toBeVisible();
    }

    // Left on the fourth page: a reload asks the attempt again and the SCO resumes at its bookmark.
    await expect
      .poll(async () => (await attemptsOf(request, curator, courseId))[0]?.completionStatus, { timeout: 45_000 })
      .toBe('incomplete');
    await page.reload();
    await expect(scoPage(page).getByRole('heading', { name: 'Other Scoring Systems' })).toBeVisible({ timeout: 20_000 });

    // On to the last page, the quiz: two answers given, the rest left blank.
    for (let i = 0; i < 12; i++) await scoFrame(page).getByRole('button', { name: 'Next ->' }).click();
    const quiz = scoPage(page);
    await quiz.getByLabel('USGA and Royal and Ancient').check();
    await quiz.getByLabel('eagle').first().check();
    await quiz.getByRole('button', { name: 'Submit Answers' }).click();
    await scoFrame(page).getByRole('button', { name: 'Exit' }).click();

    // The SCO reported completion: the lesson and the course count it, without a reload.
    await expect(page.getByRole('status').filter({ hasText: 'Пройдено' })).toBeVisible({ timeout: 20_000 });
    await expect(progressText(page)).toHaveText('Прогресс курса: 1 из 1 · 100%');
    await expect(page.getByTestId('scorm-score')).toHaveText(/^Баллы: \d+ из 100$/);

    const [attempt] = await attemptsOf(request, curator, courseId);
    expect(attempt).toMatchObject({ lessonId, number: 1, completionStatus: 'completed' });
    expect(['passed', 'failed']).toContain(attempt.successStatus);
    expect(attempt.score.raw).not.toBeNull();
    expect(attempt.score.max).toBe(100);
    expect(attempt.totalTimeSeconds).toBeGreaterThan(0);
    expect(attempt.completedAt).not.toBeNull();

    const progress = await request.get(`/api/progress/course/${courseId}`, {
      headers: { authorization: `Bearer ${learner.token}` },
    });
    expect(((await progress.json()) as CourseProgress).isCompleted).toBe(true);
  });

  test('script in the package’s frame cannot read the portal’s storage, cookies or page, nor call the API as the learner', async ({
    page,
    request,
  }) => {
    const { courseId, lessonId } = await arrangeScormLesson(request, await tokenFor(request, CURATOR));
    const learner = await registerLearner(request);
    page.on('dialog', (dialog) => void dialog.dismiss());
    await signIn(page, learner.email, PASSWORD, `/student/${courseId}?lesson=${lessonId}`);
    const frame = await packageFrame(page);
    const tried = await frame.evaluate(async () => {
      const attempt = async (what: () => unknown) => {
        try {
          return { ok: true, value: String(await what()) };
        } catch (err) {
          return { ok: false, value: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
        }
      };
      return {
        storage: await attempt(() => window.localStorage.getItem('authToken')),
        cookie: await attempt(() => document.cookie),
        parentPage: await attempt(() => window.parent.document.title),
        api: await attempt(async () => (await fetch('/api/auth/profile')).status),
      };
    });
    expect(tried.storage).toMatchObject({ ok: false, value: expect.stringMatching(/SecurityError/) });
    expect(tried.cookie).toMatchObject({ ok: false, value: expect.stringMatching(/SecurityError/) });
    expect(tried.parentPage).toMatchObject({ ok: false, value: expect.stringMatching(/SecurityError/) });
    // Without the token the API refuses it; a request the browser blocks outright (no CORS for the
    // frame's opaque origin) fails too.
    if (tried.api.ok) expect(['401', '403']).toContain(tried.api.value);
    else expect(tried.api.value).toMatch(/TypeError/);
  });
});
