import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import JSZip from 'jszip';
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { Page as ListPage, ScormAttemptSummary } from '@portal/contracts';
import { signIn, uniqueEmail } from './helpers';

/**
 * A course exported as SCORM 1.2 plays in «another LMS»: a page of its own, on its own origin, that
 * installs scorm-again's SCORM 1.2 API as window.API and opens the package's launch page in a frame,
 * as Moodle or iSpring Learn would. The package finds the API in its parent, and the API is what the
 * LMS would store: the bookmark, the score and the status.
 */

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const tag = Date.now().toString(36);
/** A real 1×1 PNG, so the test can see the browser decode the copied file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SCORM12 = require.resolve('scorm-again/scorm12/min');

async function curatorToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: CURATOR });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/** Two lessons: a heading, text, an uploaded picture and a video link; then a quiz of two questions. */
async function arrangeCourse(request: APIRequestContext, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const post = async (url: string, data: unknown) => {
    const answer = await request.post(url, { headers, data });
    expect(answer.status(), `${url}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const image = await request.post('/api/upload/file', {
    headers,
    multipart: { file: { name: 'план.png', mimeType: 'image/png', buffer: PNG } },
  });
  expect(image.status(), await image.text()).toBe(201);
  const imageUrl = ((await image.json()) as { url: string }).url;
  const courseId = await post('/api/courses', { title: `Пожарная безопасность ${tag}` });
  const quizId = await post('/api/quizzes', {
    title: 'Проверка знаний',
    courseId,
    settings: { passingScore: 50 },
    questions: [
      { id: 'a', type: 'single_choice', question: 'Куда звонить при пожаре?', options: ['101', '103'], correctAnswers: [0] },
      { id: 'b', type: 'multiple_choice', question: 'Что взять с собой?', options: ['Документы', 'Шкаф'], correctAnswers: [0] },
    ],
  });
  const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Основы' });
  await post('/api/blocks', {
    courseId,
    moduleId,
    title: 'Правила',
    status: 'published',
    content: [
      { type: 'heading', content: { text: 'Как действовать' } },
      { type: 'text', content: { text: 'Сохраняйте спокойствие.' } },
      { type: 'image', content: { src: imageUrl, alt: 'План эвакуации' } },
      { type: 'video', content: { url: 'https://video.example.ru/fire', title: 'Учебный фильм' } },
    ],
  });
  await post('/api/blocks', {
    courseId,
    moduleId,
    title: 'Проверка',
    status: 'published',
    content: [{ type: 'quiz', content: { quizId } }],
  });
  return courseId;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.xml': 'application/xml',
};

/** «Another LMS»: its page with the API at /, the package under /sco/. */
async function serveLms(zip: JSZip): Promise<{ server: Server; url: string }> {
  const api = await readFile(SCORM12);
  const lms = `<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"><title>Другая СДО</title>
<script src="/scorm12.min.js"></script>
<script>window.API = new Scorm12API({ autocommit: false, logLevel: 5 });</script></head>
<body><iframe title="Курс" src="/sco/index.html" style="width:100%;height:90vh"></iframe></body></html>`;
  const server = createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url ?? '/', 'http://lms').pathname);
    const send = (status: number, body: Buffer | string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (url === '/') return send(200, lms, TYPES['.html']);
    if (url === '/scorm12.min.js') return send(200, api, TYPES['.js']);
    const entry = url.startsWith('/sco/') ? zip.file(url.slice('/sco/'.length)) : null;
    if (!entry) return send(404, 'нет такого файла');
    void entry.async('nodebuffer').then((bytes) => send(200, bytes, TYPES[path.extname(url)] ?? 'application/octet-stream'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

test('an exported course plays in another LMS and reports its bookmark, score and passing there', async ({ page, request }) => {
  const token = await curatorToken(request);
  const courseId = await arrangeCourse(request, token);
  const exported = await request.get(`/api/courses/${courseId}/export/scorm`, { headers: { authorization: `Bearer ${token}` } });
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-type']).toBe('application/zip');
  const zip = await JSZip.loadAsync(await exported.body());
  expect(await zip.file('imsmanifest.xml')!.async('string')).toContain('<schemaversion>1.2</schemaversion>');

  const { server, url } = await serveLms(zip);
  try {
    await page.goto(url);
    const sco = page.frameLocator('iframe[title="Курс"]');
    const api = <T>(expression: string) => page.evaluate((e) => (0, eval)(e) as T, expression);

    await expect(sco.getByRole('heading', { name: 'Правила' })).toBeVisible();
    await expect(sco.getByRole('heading', { name: 'Как действовать' })).toBeVisible();
    await expect(sco.getByText('Сохраняйте спокойствие.')).toBeVisible();
    // The uploaded picture travelled in the package and the browser decodes it; the video stays a link.
    await expect
      .poll(() => sco.getByRole('img', { name: 'План эвакуации' }).evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(1);
    await expect(sco.getByRole('link', { name: 'Учебный фильм' })).toHaveAttribute('href', 'https://video.example.ru/fire');
    expect(await api<boolean>('window.API.isInitialized()')).toBe(true);
    expect(await api<string>('window.API.cmi.core.lesson_status')).toBe('incomplete');

    await sco.getByRole('button', { name: 'Далее →' }).click();
    await expect(sco.getByRole('heading', { name: 'Проверка знаний' })).toBeVisible();
    const lessonId = await api<string>('window.API.cmi.core.lesson_location');
    expect(lessonId).toMatch(/^[0-9a-f]{24}$/);

    // One of two right: 50 %, which is the quiz's passing score.
    await sco.getByRole('radio', { name: '101' }).check();
    await sco.getByRole('checkbox', { name: 'Шкаф' }).check();
    await sco.getByRole('button', { name: 'Проверить' }).click();
    await expect(sco.getByRole('status').filter({ hasText: 'Результат' })).toHaveText(
      'Результат: 1 из 2 баллов (50%). Тест пройден',
    );
    expect(await api<string>('window.API.cmi.core.score.raw')).toBe('50');
    expect(await api<string>('window.API.cmi.core.score.max')).toBe('100');
    expect(await api<string>('window.API.cmi.core.lesson_status')).toBe('passed');

    // The learner leaves: the package finishes its session with the LMS.
    await page.evaluate(() => document.querySelector('iframe')!.remove());
    await expect.poll(() => api<boolean>('window.API.isTerminated()')).toBe(true);
    expect(JSON.parse(await api<string>('window.API.cmi.suspend_data'))).toMatchObject({ v: [0, 1] });
  } finally {
    server.close();
  }
});

test('the exported package, imported back as a «SCORM-пакет» lesson, plays in the portal and its completion and score are stored', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const token = await curatorToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const exported = await request.get(`/api/courses/${await arrangeCourse(request, token)}/export/scorm`, { headers });
  expect(exported.status()).toBe(200);

  const post = async (url: string, data: unknown) => {
    const answer = await request.post(url, { headers, data });
    expect(answer.status(), `${url}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const courseId = await post('/api/courses', { title: `Импортированный курс ${tag}`, isPublished: true });
  const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Из другой системы' });
  const lessonId = await post('/api/blocks', { courseId, moduleId, title: 'Пожарная безопасность', status: 'published' });
  const uploaded = await request.post(`/api/scorm/packages?courseId=${courseId}&mode=lesson`, {
    headers,
    multipart: { file: { name: 'пожарная.zip', mimeType: 'application/zip', buffer: await exported.body() } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const pkg = (await uploaded.json()) as { id: string; title: string; version: string; scos: { id: string }[] };
  expect(pkg.version).toBe('1.2');
  const lesson = (await (await request.get(`/api/blocks/${lessonId}`, { headers })).json()) as { version: number };
  const saved = await request.patch(`/api/blocks/${lessonId}`, {
    headers,
    data: {
      version: lesson.version,
      content: [{ type: 'scorm', content: { packageId: pkg.id, scoId: pkg.scos[0].id, title: pkg.title, version: '1.2' } }],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const email = uniqueEmail('export');
  const registered = await request.post('/api/auth/register', {
    data: { email, password: 'Kursy-Portal-42', fullName: `Ирина Лебедева ${tag}`, role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);
  await signIn(page, email, 'Kursy-Portal-42', `/student/${courseId}?lesson=${lessonId}`);
  const sco = page.frameLocator('iframe[title^="Учебный материал"]').frameLocator('#sco');
  await expect(sco.getByRole('heading', { name: 'Как действовать' })).toBeVisible({ timeout: 20_000 });
  await sco.getByRole('button', { name: 'Далее →' }).click();
  await sco.getByRole('radio', { name: '101' }).check();
  await sco.getByRole('checkbox', { name: 'Документы' }).check();
  await sco.getByRole('button', { name: 'Проверить' }).click();
  await expect(sco.getByRole('status').filter({ hasText: 'Результат' })).toHaveText(
    'Результат: 2 из 2 баллов (100%). Тест пройден',
  );

  await expect(page.getByRole('status').filter({ hasText: 'Пройдено' })).toBeVisible({ timeout: 20_000 });
  const attempts = async () => {
    const answer = await request.get(`/api/scorm/attempts?courseId=${courseId}`, { headers });
    expect(answer.status()).toBe(200);
    return ((await answer.json()) as ListPage<ScormAttemptSummary>).data;
  };
  await expect.poll(async () => (await attempts())[0]?.successStatus, { timeout: 20_000 }).toBe('passed');
  const [attempt] = await attempts();
  expect(attempt).toMatchObject({
    lessonId,
    completionStatus: 'completed',
    score: expect.objectContaining({ raw: 100, max: 100 }),
  });
});
