import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Frame, type Page } from '@playwright/test';
import type { CourseProgress, Page as ListPage, ScormAttemptState, ScormAttemptSummary } from '@portal/contracts';
import JSZip from 'jszip';
import { MULTI_SCO_COURSE, multiScoPackage } from '../../packages/system-tests/src/scorm/packages';
import { signIn, uniqueEmail } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const GOLF = path.resolve(__dirname, '../fixtures/scorm/RuntimeBasicCalls_SCORM20043rdEdition.zip');

/**
 * A SCORM 2004 3rd Edition SCO of three pages and a test, as authoring tools' wrappers write one:
 * it takes the API from its own window (where the portal's bridge puts it), bookmarks the page in
 * cmi.location, and reports a score of 80 with «passed» and «completed» and a session of 90 s.
 */
async function threePagePackage(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    'imsmanifest.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="portal.e2e.three-pages" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>Правила гольфа за три страницы</title>
      <item identifier="item_1" identifierref="res_1"><title>Три страницы</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res_1" type="webcontent" adlcp:scormType="sco" href="index.html"><file href="index.html"/></resource>
  </resources>
</manifest>`,
  );
  zip.file(
    'index.html',
    `<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"><title>Три страницы</title></head><body>
<h1 id="title"></h1><p data-testid="learner" id="learner"></p><p data-testid="entry" id="entry"></p>
<button id="next" type="button">Далее</button><button id="test" type="button" hidden>Сдать тест</button>
<script>
  var api = window.API_1484_11;
  api.Initialize('');
  var page = parseInt(api.GetValue('cmi.location'), 10) || 1;
  document.getElementById('learner').textContent = 'Слушатель: ' + api.GetValue('cmi.learner_name');
  document.getElementById('entry').textContent = api.GetValue('cmi.entry');
  if (api.GetValue('cmi.completion_status') === 'unknown') api.SetValue('cmi.completion_status', 'incomplete');
  function show() {
    document.getElementById('title').textContent = 'Страница ' + page + ' из 3';
    document.getElementById('next').hidden = page === 3;
    document.getElementById('test').hidden = page !== 3;
    api.SetValue('cmi.location', String(page));
    api.SetValue('cmi.exit', 'suspend');
    api.SetValue('cmi.session_time', 'PT45S');
  }
  document.getElementById('next').onclick = function () { page += 1; show(); };
  document.getElementById('test').onclick = function () {
    api.SetValue('cmi.score.raw', '80');
    api.SetValue('cmi.score.min', '0');
    api.SetValue('cmi.score.max', '100');
    api.SetValue('cmi.score.scaled', '0.8');
    api.SetValue('cmi.interactions.0.id', 'q-rules');
    api.SetValue('cmi.interactions.0.type', 'choice');
    api.SetValue('cmi.interactions.0.correct_responses.0.pattern', 'b');
    api.SetValue('cmi.interactions.0.learner_response', 'b');
    api.SetValue('cmi.interactions.0.result', 'correct');
    api.SetValue('cmi.success_status', 'passed');
    api.SetValue('cmi.completion_status', 'completed');
    api.SetValue('cmi.exit', 'normal');
    api.Terminate('');
  };
  show();
</script></body></html>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}
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
const progressText = (page: Page) => page.getByRole('navigation', { name: 'Содержание курса' }).getByText(/Прогресс курса:/);

/**
 * The golf SCO's own page as Playwright drives it. The portal frames the player page on the package
 * origin (`…/__portal__/player.html?sco=shared%2Flaunchpage.html`), which frames the SCO.
 */
async function packageFrame(page: Page): Promise<Frame> {
  const isSco = (f: Frame) => f.url().includes('/scorm/') && f.url().includes('/shared/launchpage.html');
  await expect.poll(() => page.frames().some(isSco), { timeout: 20_000 }).toBe(true);
  return page.frames().find(isSco) as Frame;
}

/** The golf SCO's page frame, its content frame, and the frame that holds both. */
const golfFrames = (page: Page) => {
  const sco = scoFrame(page).frameLocator('#sco');
  return { sco, content: sco.frameLocator('#contentFrame') };
};

/** The learner's stored attempt as the player reads it on launch (opening an existing attempt changes nothing). */
async function storedCmi(request: APIRequestContext, token: string, courseId: string, lessonId: string) {
  const answer = await request.post('/api/scorm/attempts', {
    headers: { authorization: `Bearer ${token}` },
    data: { courseId, lessonId },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  const state = (await answer.json()) as ScormAttemptState;
  return ((state.cmi?.cmi ?? state.cmi ?? {}) as Record<string, unknown>) ?? {};
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
  test('a curator uploads a SCORM 2004 package as a «SCORM-пакет» lesson; a learner pages through it, resumes at the bookmark when it opens the lesson again, passes its test, and the one-lesson course is completed', async ({
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
    await panel.getByLabel('Загрузить SCORM-пакет (.zip)').setInputFiles({
      name: 'pravila.zip',
      mimeType: 'application/zip',
      buffer: await threePagePackage(),
    });
    await expect(panel.getByRole('region', { name: 'SCORM-пакет блока' })).toContainText('Правила гольфа за три страницы');
    await expect(panel.getByRole('region', { name: 'SCORM-пакет блока' })).toContainText('SCORM 2004 3rd Edition');
    // One package a lesson: the palette offers no second one.
    await expect(page.getByRole('button', { name: '+ SCORM-пакет' })).toBeDisabled();
    await expect(page.getByRole('region', { name: 'Статус сохранения' }).getByRole('status')).toHaveText(/Сохранено в/, {
      timeout: 15_000,
    });

    // A learner opens the lesson (the same tab, signed in as them): the SCO plays, no «Завершить урок».
    const learner = await registerLearner(request);
    await signIn(page, learner.email, PASSWORD, `/student/${courseId}?lesson=${lessonId}`);
    await expect(page.getByRole('heading', { name: 'Правила гольфа', level: 2 })).toBeVisible();
    await expect(page.getByText('Этот урок засчитывается сам, когда вы пройдёте учебный материал до конца')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Завершить урок' })).toHaveCount(0);
    await expect(progressText(page)).toHaveText('Прогресс курса: 0 из 1 · 0%');

    const sco = scoFrame(page).frameLocator('#sco');
    await expect(sco.getByRole('heading', { name: 'Страница 1 из 3' })).toBeVisible({ timeout: 20_000 });
    await expect(sco.getByTestId('learner')).toContainText('Вера');
    await sco.getByRole('button', { name: 'Далее' }).click();
    await expect(sco.getByRole('heading', { name: 'Страница 2 из 3' })).toBeVisible();
    // Sent when the page is left, without waiting for the 30 s autocommit; then the lesson is opened again.
    await page.goto('/courses');
    await expect
      .poll(async () => (await attemptsOf(request, curator, courseId))[0]?.completionStatus, { timeout: 15_000 })
      .toBe('incomplete');
    await page.goto(`/student/${courseId}?lesson=${lessonId}`);
    await expect(sco.getByRole('heading', { name: 'Страница 2 из 3' })).toBeVisible({ timeout: 20_000 });
    await expect(sco.getByTestId('entry')).toHaveText('resume');

    await sco.getByRole('button', { name: 'Далее' }).click();
    await sco.getByRole('button', { name: 'Сдать тест' }).click();

    // The SCO reported completion: the lesson and the course count it, without a reload.
    await expect(page.getByRole('status').filter({ hasText: 'Пройдено' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('scorm-score')).toHaveText('Баллы: 80 из 100');
    await expect(progressText(page)).toHaveText('Прогресс курса: 1 из 1 · 100%');

    const [attempt] = await attemptsOf(request, curator, courseId);
    expect(attempt).toMatchObject({ lessonId, number: 1, completionStatus: 'completed', successStatus: 'passed' });
    expect(attempt.score).toMatchObject({ raw: 80, min: 0, max: 100, scaled: 0.8 });
    expect(attempt.totalTimeSeconds).toBeGreaterThan(0);
    expect(attempt.completedAt).not.toBeNull();

    const progress = await request.get(`/api/progress/course/${courseId}`, {
      headers: { authorization: `Bearer ${learner.token}` },
    });
    expect(((await progress.json()) as CourseProgress).isCompleted).toBe(true);

    // The course's author reads the attempt among the results, with the answer the package reported.
    await signIn(page, CURATOR.email, CURATOR.password, '/results');
    await page.getByRole('combobox', { name: 'Фильтр по курсу' }).selectOption(courseId);
    const scorm = page.getByRole('region', { name: 'Результаты SCORM-уроков' });
    const row = scorm.getByRole('row').filter({ hasText: `Вера Ким ${tag}` });
    await expect(row).toContainText('Правила гольфа');
    await expect(row).toContainText('пройден · зачтено');
    await expect(row).toContainText('80 из 100');
    await row.getByRole('button', { name: /^Ответы:/ }).click();
    const answers = page.getByRole('dialog', { name: /^Ответы: Вера Ким/ });
    await expect(answers.getByRole('row').filter({ hasText: 'q-rules' })).toContainText('верно');

    // The course's overview in the editor: the lesson's item analysis of the package's questions.
    await page.goto(`/editor/${courseId}`);
    await page
      .getByRole('complementary', { name: 'Структура курса' })
      .getByRole('button', { name: `Гольф для начинающих ${tag}`, exact: true })
      .click();
    await page.getByRole('button', { name: 'Анализ вопросов: Правила гольфа' }).click();
    const analysis = page.getByRole('dialog', { name: 'Анализ вопросов: Правила гольфа' });
    await expect(analysis).toContainText('Попыток: 1');
    await expect(analysis.getByRole('row').filter({ hasText: 'q-rules' })).toContainText('100%');
  });

  test('a SCORM 1.2 package of three SCOs imported as a course in the editor: its sections become modules, each SCO a lesson, and each lesson is tracked on its own', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const curator = await tokenFor(request, CURATOR);
    const created = await request.post('/api/courses', {
      headers: { authorization: `Bearer ${curator}` },
      data: { title: `Охрана труда ${tag}`, isPublished: true },
    });
    expect(created.status()).toBe(201);
    const courseId = ((await created.json()) as { id: string }).id;

    await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}`);
    await page.getByRole('button', { name: 'Импорт SCORM-пакета как курса' }).click();
    const dialog = page.getByRole('dialog', { name: 'Импорт SCORM-пакета как курса' });
    await dialog.getByLabel('SCORM-пакет (.zip)').setInputFiles({
      name: 'ohrana-truda.zip',
      mimeType: 'application/zip',
      buffer: await multiScoPackage(),
    });
    const outline = dialog.getByRole('list', { name: 'Курс построен из пакета' });
    await expect(outline).toContainText('Раздел 1. Общие положения');
    await expect(outline).toContainText('Урок 2.1. Порядок на рабочем месте');
    await dialog.getByRole('button', { name: 'Готово' }).click();
    const structure = page.getByRole('complementary', { name: 'Структура курса' });
    for (const section of MULTI_SCO_COURSE.items) await expect(structure).toContainText(section.title);
    await expect(structure.getByRole('button', { name: 'Урок 1.2. Права работника', exact: true })).toBeVisible();

    // A learner plays two of the three SCOs, each in its own lesson.
    const learner = await registerLearner(request);
    await signIn(page, learner.email, PASSWORD, `/student/${courseId}`);
    const outlineNav = page.getByRole('navigation', { name: 'Содержание курса' });
    const sco = scoFrame(page).frameLocator('#sco');
    for (const [n, title] of [
      [1, 'Урок 1.1. Кто отвечает за безопасность'],
      [2, 'Урок 1.2. Права работника'],
    ] as const) {
      await outlineNav.getByRole('button', { name: new RegExp(title.replace(/\./g, '\\.')) }).click();
      await expect(sco.getByRole('heading', { name: title })).toBeVisible({ timeout: 20_000 });
      await expect(sco.getByText('Урок открыт')).toBeVisible();
      await sco.getByRole('button', { name: 'Завершить' }).click();
      await expect(sco.getByText('Готово')).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Пройдено' })).toBeVisible({ timeout: 20_000 });
      await expect(progressText(page)).toHaveText(`Прогресс курса: ${n} из 3 · ${Math.round((n * 100) / 3)}%`);
    }

    const attempts = await attemptsOf(request, curator, courseId);
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((a) => a.lessonId)).size).toBe(2);
    expect(attempts.map((a) => [a.lessonTitle, a.completionStatus, a.score.raw]).sort()).toEqual([
      ['Урок 1.1. Кто отвечает за безопасность', 'completed', 80],
      ['Урок 1.2. Права работника', 'completed', 90],
    ]);
  });

  test('the golf example (Rustici, SCORM 2004 3rd Edition) plays: its pages and quiz, the bookmark when the lesson is opened again, completion, score and time stored, and the course certificate', async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const curator = await tokenFor(request, CURATOR);
    const { courseId, lessonId } = await arrangeScormLesson(request, curator);
    const learner = await registerLearner(request);
    // The SCO asks «resume from where you left off?» with confirm(): the learner says yes.
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, learner.email, PASSWORD, `/student/${courseId}?lesson=${lessonId}`);
    const golf = golfFrames(page);
    await expect(golf.content.getByRole('heading', { name: 'Play of the game' })).toBeVisible({ timeout: 20_000 });
    await golf.sco.getByRole('button', { name: 'Next ->' }).click();
    await expect(golf.content.getByRole('heading', { name: 'Par' })).toBeVisible();
    await golf.sco.getByRole('button', { name: 'Next ->' }).click();
    await expect(golf.content.getByRole('heading', { name: 'Scoring' })).toBeVisible();

    // Leaving the lesson sends what the SCO set (the bookmark is page 3, index 2); opened again, it resumes there.
    await page.goto('/courses');
    await expect
      .poll(async () => (await storedCmi(request, learner.token, courseId, lessonId)).location, { timeout: 15_000 })
      .toBe('2');
    await page.goto(`/student/${courseId}?lesson=${lessonId}`);
    await expect(golf.content.getByRole('heading', { name: 'Scoring' })).toBeVisible({ timeout: 20_000 });
    await expect(progressText(page)).toHaveText('Прогресс курса: 0 из 1 · 0%');

    // To the last page, the test: every question answered as the SCO's own key says, then submitted.
    for (let n = 3; n <= 15; n++) await golf.sco.getByRole('button', { name: 'Next ->' }).click();
    await expect(golf.sco.getByRole('button', { name: 'Next ->' })).toBeDisabled();
    await expect(golf.content.getByRole('button', { name: 'Submit Answers' })).toBeVisible();
    // The test's frame, once it is there (found before it had loaded, it was missing once in CI).
    const isQuiz = (f: Frame) => f.url().includes('/shared/assessmenttemplate.html');
    await expect.poll(() => page.frames().some(isQuiz)).toBe(true);
    const quiz = page.frames().find(isQuiz) as Frame;
    const key = await quiz.evaluate(() =>
      (
        window as unknown as {
          test: { Questions: { Id: string; Type: string; Answers: string[] | null; CorrectAnswer: unknown }[] };
        }
      ).test.Questions.map((q) => ({
        id: q.Id,
        type: q.Type,
        answer: q.Type === 'choice' ? String(q.Answers?.indexOf(String(q.CorrectAnswer))) : String(q.CorrectAnswer),
      })),
    );
    expect(key.length).toBeGreaterThan(10);
    for (const q of key) {
      const id = (suffix: string) => `[id="question_${q.id}_${suffix}"]`;
      if (q.type === 'choice') await golf.content.locator(id(q.answer)).check();
      else if (q.type === 'true-false') await golf.content.locator(id(q.answer === 'true' ? 'True' : 'False')).check();
      else await golf.content.locator(id('Text')).fill(q.answer);
    }
    await golf.content.getByRole('button', { name: 'Submit Answers' }).click();
    await expect(golf.content.getByRole('heading', { name: 'Score: 100' })).toBeVisible();
    await golf.sco.getByRole('button', { name: 'Exit' }).click();

    // The SCO terminated: the lesson, the course and the certificate count it, without a reload.
    await expect(page.getByRole('status').filter({ hasText: 'Пройдено' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('scorm-score')).toHaveText('Баллы: 100 из 100');
    await expect(progressText(page)).toHaveText('Прогресс курса: 1 из 1 · 100%');
    const [attempt] = await attemptsOf(request, curator, courseId);
    expect(attempt).toMatchObject({ lessonId, number: 1, completionStatus: 'completed', successStatus: 'passed' });
    expect(attempt.score).toMatchObject({ raw: 100, min: 0, max: 100, scaled: 1 });
    expect(attempt.totalTimeSeconds).toBeGreaterThan(0);
    expect(attempt.completedAt).not.toBeNull();

    await page.goto(`/student/${courseId}`);
    const certificate = page.getByRole('button', { name: 'Скачать сертификат' });
    await expect(certificate).toBeVisible({ timeout: 15_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), certificate.click()]);
    expect(download.suggestedFilename()).toMatch(/^certificate-C-\d{4}-[A-Z0-9]{8}\.pdf$/);

    // The learner's own results show the package's score beside their quizzes'.
    await page.goto('/results');
    const own = page
      .getByRole('region', { name: 'Результаты SCORM-уроков' })
      .getByRole('row')
      .filter({ hasText: 'Правила гольфа' });
    await expect(own).toContainText('пройден · зачтено');
    await expect(own).toContainText('100 из 100');
  });

  test('script in the package’s frames cannot read the portal’s storage, cookies or page, nor call the API as the learner', async ({
    page,
    request,
  }) => {
    const { courseId, lessonId } = await arrangeScormLesson(request, await tokenFor(request, CURATOR));
    const learner = await registerLearner(request);
    page.on('dialog', (dialog) => void dialog.dismiss());
    await signIn(page, learner.email, PASSWORD, `/student/${courseId}?lesson=${lessonId}`);
    // The portal's page holds the learner's token; the package's frames must not reach it.
    expect(await page.evaluate(() => window.localStorage.getItem('authToken'))).toBeTruthy();
    const portalOrigin = new URL(page.url()).origin;
    const frame = await packageFrame(page);
    const tried = await frame.evaluate(async () => {
      const attempt = async (what: () => unknown) => {
        try {
          return { ok: true, value: String(await what()) };
        } catch (err) {
          return { ok: false, value: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
        }
      };
      let top: Window = window;
      while (top.parent !== top) top = top.parent;
      return {
        origin: window.location.origin,
        storage: await attempt(() => window.localStorage.getItem('authToken')),
        cookie: await attempt(() => document.cookie),
        portalPage: await attempt(() => top.document.title),
        portalStorage: await attempt(() => top.localStorage.getItem('authToken')),
        api: await attempt(async () => (await fetch('/api/auth/profile')).status),
      };
    });
    // The package origin (SCORM_ORIGIN: this gateway as localhost), not the portal's: nothing of the
    // portal's is in its storage or cookies (the browser may also refuse a cross-site frame storage at all).
    expect(tried.origin).toBe(portalOrigin.replace('127.0.0.1', 'localhost'));
    expect(tried.origin).not.toBe(portalOrigin);
    const nothingOrRefused = (read: { ok: boolean; value: string }, nothing: string) =>
      read.ok ? read.value === nothing : /SecurityError/.test(read.value);
    expect({ storage: tried.storage, readsNothing: nothingOrRefused(tried.storage, 'null') }).toMatchObject({
      readsNothing: true,
    });
    expect({ cookie: tried.cookie, readsNothing: nothingOrRefused(tried.cookie, '') }).toMatchObject({ readsNothing: true });
    expect(tried.portalPage).toMatchObject({ ok: false, value: expect.stringMatching(/SecurityError/) });
    expect(tried.portalStorage).toMatchObject({ ok: false, value: expect.stringMatching(/SecurityError/) });
    // The package origin answers package files only: no API there at all.
    expect(tried.api).toEqual({ ok: true, value: '404' });
    // The portal's API called from the package origin: refused by the browser (no CORS) or by the gateway.
    const cross = await frame.evaluate(async (api) => {
      try {
        return String((await fetch(api, { credentials: 'include' })).status);
      } catch (err) {
        return err instanceof Error ? err.name : String(err);
      }
    }, `${portalOrigin}/api/auth/profile`);
    expect(['TypeError', '401', '403']).toContain(cross);
  });
});
