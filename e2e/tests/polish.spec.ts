import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_MEDIA_ORIGIN } from '../env';
import { signIn, uniqueEmail, watchConsole } from './helpers';

/** What people touch every day: learners and authors. Each journey arranges its course over the API. */

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);
let counter = 0;
const unique = (what: string) => `${what} ${tag}${counter++}`;

interface Account {
  token: string;
  id: string;
  email: string;
}

async function curator(request: APIRequestContext): Promise<Account> {
  const answer = await request.post('/api/auth/login', { data: CURATOR });
  expect(answer.ok()).toBe(true);
  const { token, user } = (await answer.json()) as { token: string; user: { id: string } };
  return { token, id: user.id, email: CURATOR.email };
}

async function learner(request: APIRequestContext): Promise<Account> {
  const email = uniqueEmail('polish');
  const answer = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName: 'Ирина Лебедева', role: 'CANDIDATE' },
  });
  expect(answer.status()).toBe(201);
  const { token, user } = (await answer.json()) as { token: string; user: { id: string } };
  return { token, id: user.id, email };
}

const QUESTIONS = [
  {
    id: 'vacation',
    type: 'single_choice',
    question: 'Сколько дней ежегодного отпуска?',
    options: ['14', '28', '56'],
    correctAnswers: [1],
    order: 0,
  },
  { id: 'probation', type: 'true_false', question: 'Испытательный срок бывает до трёх месяцев', correctAnswer: 'true', order: 1 },
];

interface Lesson {
  title: string;
  status?: 'draft' | 'published' | 'hidden';
  content?: unknown[];
}

/** A course of one module; `quiz` puts a quiz (two questions) at the end of the last lesson. */
async function arrange(
  request: APIRequestContext,
  token: string,
  lessons: Lesson[],
  { published = true, quiz = null as null | Record<string, unknown> } = {},
) {
  const headers = { authorization: `Bearer ${token}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const title = unique('Курс');
  const courseId = await post('/api/courses', { title, isPublished: published });
  const quizTitle = unique('Проверка знаний');
  const quizId = quiz ? await post('/api/quizzes', { title: quizTitle, courseId, questions: QUESTIONS, settings: quiz }) : null;
  const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Первые дни' });
  const lessonIds: string[] = [];
  for (const [i, lesson] of lessons.entries()) {
    const content = [...(lesson.content ?? [])];
    if (quizId && i === lessons.length - 1) content.push({ type: 'quiz', content: { quizId, questionsCount: 2 } });
    lessonIds.push(
      await post('/api/blocks', { courseId, moduleId, title: lesson.title, status: lesson.status ?? 'published', content }),
    );
  }
  return { courseId, title, quizId: quizId ?? '', quizTitle, lessonIds, headers };
}

const outline = (page: Page) => page.getByRole('navigation', { name: 'Содержание курса' });
const studyLesson = (page: Page, title: string) => outline(page).getByRole('button', { name: new RegExp(title) });
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Структура курса' });
const editorLesson = (page: Page, title: string) => sidebar(page).getByRole('button', { name: title, exact: true });
const saveStatus = (page: Page) => page.getByRole('region', { name: 'Статус сохранения' }).getByRole('status');
const pageFits = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth);

test('closing a running quiz asks first, and the attempt resumes with its questions, answers and clock', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const author = await curator(request);
  const course = await arrange(request, author.token, [{ title: 'Итоговый тест' }], {
    quiz: { passingScore: 100, maxAttempts: 2, timeLimit: 5 },
  });
  const me = await learner(request);
  await signIn(page, me.email, PASSWORD, `/student/${course.courseId}`);

  // A learner sees their own state of each lesson, not whether it is published.
  await expect(studyLesson(page, 'Итоговый тест')).toContainText('Не начат');
  await expect(outline(page)).not.toContainText('Опубликован');

  await studyLesson(page, 'Итоговый тест').click();
  const card = page.getByRole('region', { name: course.quizTitle });
  await card.getByRole('button', { name: 'Начать квиз' }).click();
  const player = page.getByRole('dialog', { name: course.quizTitle });
  await player.getByRole('radio', { name: '28' }).check();
  await player.getByRole('button', { name: 'Далее' }).click();
  await expect(player.getByText('Вопрос 2 из 2')).toBeVisible();

  // Escape asks and says what happens; «Отмена» goes on with the quiz.
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Закрыть квиз?' });
  await expect(ask).toContainText('Попытка не будет потеряна');
  await expect(ask).toContainText(/осталось [45]:\d\d/);
  await ask.getByRole('button', { name: 'Отмена' }).click();
  await expect(ask).toHaveCount(0);
  await expect(player.getByText('Вопрос 2 из 2')).toBeVisible();

  // ✕ asks too; closing spends nothing.
  await player.getByRole('button', { name: 'Закрыть', exact: true }).click();
  await ask.getByRole('button', { name: 'Закрыть квиз' }).click();
  await expect(player).toHaveCount(0);
  await expect(card).toContainText(/Попытка 1 не завершена: осталось [45]:\d\d/);
  await expect(card).toContainText('Попыток: 0 из 2');
  const open = await request.get(`/api/attempts/quiz/${course.quizId}`, { headers: { authorization: `Bearer ${me.token}` } });
  expect(await open.json()).toMatchObject({ attemptsUsed: 0, inProgress: { id: expect.any(String) }, canStart: true });

  // Resumed: the same attempt, the answer given, the clock still running.
  await card.getByRole('button', { name: 'Продолжить попытку' }).click();
  await expect(player.getByRole('heading', { name: 'Сколько дней ежегодного отпуска?' })).toBeVisible();
  await expect(player.getByRole('radio', { name: '28' })).toBeChecked();
  await expect(player.getByRole('timer')).toHaveText(/^[45]:\d\d$/);
  await player.getByRole('button', { name: 'Далее' }).click();
  await player.getByRole('radio', { name: 'Верно', exact: true }).check();
  await player.getByRole('button', { name: 'Завершить квиз' }).click();
  await expect(player.getByRole('heading', { name: 'Квиз пройден!' })).toBeVisible();
  // After the result, closing asks nothing.
  await player.getByRole('button', { name: 'Закрыть', exact: true }).first().click();
  await expect(player).toHaveCount(0);

  await expect(card).toContainText('Лучший результат: 100%');
  await expect(card).toContainText('Попыток: 1 из 2');
  await expect(studyLesson(page, 'Итоговый тест')).toContainText('Пройден');
  const results = await request.get('/api/results', { headers: { authorization: `Bearer ${me.token}` } });
  expect(await results.json()).toMatchObject({ total: 1, data: [{ attemptNumber: 1, status: 'passed' }] });
  expect(errors).toEqual([]);
});

test('the lesson editor fits a 1366 px window with a long paragraph, and block previews name files and quizzes', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  const author = await curator(request);
  const paragraph = `${'Сотрудник знакомится с правилами внутреннего трудового распорядка. '.repeat(40)}${'Ж'.repeat(400)}`;
  const uuid = '/api/files/0b7f3c9e-1a2b-4c5d-8e9f-001122334455';
  const course = await arrange(
    request,
    author.token,
    [
      {
        title: `Урок ${'Оченьдлинноеназвание'.repeat(8)}`,
        content: [
          { type: 'text', content: { text: paragraph } },
          { type: 'file', content: { name: 'Памятка.pdf', size: '0.00', bytes: 44, src: `${uuid}.pdf` } },
          { type: 'image', content: { src: `${uuid}.png`, alt: 'Схема' } },
        ],
      },
    ],
    { quiz: { passingScore: 70 } },
  );
  const lessonTitle = `Урок ${'Оченьдлинноеназвание'.repeat(8)}`;

  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${course.courseId}`);
  await editorLesson(page, lessonTitle).click();
  const blocks = page.getByRole('list', { name: 'Блоки урока' }).getByRole('listitem');
  await expect(blocks).toHaveCount(4);
  expect(await pageFits(page)).toBe(true);

  // The cards stay left of the properties panel, also with the text block's properties open.
  await blocks
    .first()
    .getByRole('button', { name: /^Текст №1/ })
    .click();
  await expect(page.getByRole('region', { name: 'Свойства блока «Текст №1»' })).toBeVisible();
  expect(await pageFits(page)).toBe(true);
  const card = await blocks.first().boundingBox();
  const panel = await page.getByRole('complementary', { name: 'Свойства блока' }).boundingBox();
  expect(card!.x + card!.width).toBeLessThanOrEqual(panel!.x);

  // Previews: the file's name and size, an uploaded image without its uuid, the quiz's title and questions.
  await expect(blocks.nth(1)).toContainText(/Памятка\.pdf · 44\sБ/);
  await expect(blocks.nth(2)).toContainText('Загруженный файл (.png)');
  await expect(blocks.nth(3)).toContainText(`${course.quizTitle} · Вопросов: 2`);
  await expect(page.getByRole('list', { name: 'Блоки урока' })).not.toContainText('/api/files/');

  // The block panel (the selected lesson clicked again) fits too, with the same previews.
  await editorLesson(page, lessonTitle).click();
  const panelTable = page.getByRole('region', { name: 'Панель блоков' }).getByRole('table');
  await expect(panelTable).toContainText(`${course.quizTitle} · Вопросов: 2`);
  await expect(panelTable).toContainText(/Памятка\.pdf · 44\sБ/);
  expect(await pageFits(page)).toBe(true);
  expect(errors).toEqual([]);
});

test('price, duration and level are edited in the course overview, autosaved and kept after a reload', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const author = await curator(request);
  const course = await arrange(request, author.token, [{ title: 'Введение' }], { published: false });
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${course.courseId}`);
  await sidebar(page).getByRole('button', { name: course.title }).click();
  const overview = page.getByRole('region', { name: 'Обзор курса' });

  await overview.getByLabel('Цена, ₽').fill('-5');
  await expect(overview.getByRole('alert')).toHaveText('Цена не может быть меньше 0');
  await overview.getByLabel('Цена, ₽').fill('1500');
  await expect(overview.getByRole('alert')).toHaveCount(0);
  await overview.getByLabel('Длительность, ч').fill('12,5');
  await overview.getByLabel('Уровень').fill('Продвинутый');
  await expect(saveStatus(page)).toHaveText(/Сохранено в/, { timeout: 10_000 });

  const stored = await request.get(`/api/courses/${course.courseId}`, { headers: course.headers });
  expect(await stored.json()).toMatchObject({ price: 1500, duration: 12.5, level: 'Продвинутый', title: course.title });

  await page.reload();
  await sidebar(page).getByRole('button', { name: course.title }).click();
  await expect(overview.getByLabel('Цена, ₽')).toHaveValue('1500');
  await expect(overview.getByLabel('Длительность, ч')).toHaveValue('12.5');
  await expect(overview.getByLabel('Уровень')).toHaveValue('Продвинутый');
  expect(errors).toEqual([]);
});

test('an author previews the course as a learner from the editor, and nothing is recorded', async ({ page, request }) => {
  const errors = watchConsole(page);
  const author = await curator(request);
  const course = await arrange(
    request,
    author.token,
    [
      { title: 'Правила офиса', content: [{ type: 'text', content: { text: 'Рабочий день начинается в 9:00.' } }] },
      { title: 'Черновые заметки', status: 'hidden', content: [{ type: 'text', content: { text: 'Не для слушателей' } }] },
      { title: 'Тест по правилам' },
    ],
    { quiz: { passingScore: 100, maxAttempts: 1 } },
  );
  const writes: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (r.method() !== 'GET' && /^\/api\/(progress|attempts)/.test(pathname)) writes.push(`${r.method()} ${pathname}`);
  });

  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${course.courseId}`);
  await sidebar(page).getByRole('button', { name: 'Просмотр как слушатель' }).click();
  await expect(page).toHaveURL(new RegExp(`/student/${course.courseId}$`));
  await expect(page.getByRole('note', { name: 'Просмотр как слушатель' })).toContainText('Ничего не записывается');

  // What a learner sees: no hidden lesson; the author keeps the publication statuses.
  await expect(outline(page).getByRole('button', { name: /Урок|Правила|Тест|Черновые/ })).toHaveCount(2);
  await expect(studyLesson(page, 'Правила офиса')).toContainText('Опубликован');

  await studyLesson(page, 'Правила офиса').click();
  await expect(page.getByText('Рабочий день начинается в 9:00.')).toBeVisible();
  await page.getByRole('button', { name: 'Завершить урок' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Урок пройден' })).toContainText('Отмечен только в этом просмотре');

  await studyLesson(page, 'Тест по правилам').click();
  const card = page.getByRole('region', { name: course.quizTitle });
  await card.getByRole('button', { name: 'Начать квиз (превью)' }).click();
  const player = page.getByRole('dialog', { name: course.quizTitle });
  await expect(player).toContainText('Превью: результат не сохраняется');
  await player.getByRole('radio', { name: '28' }).check();
  await player.getByRole('button', { name: 'Далее' }).click();
  await player.getByRole('radio', { name: 'Верно', exact: true }).check();
  await player.getByRole('button', { name: 'Завершить квиз' }).click();
  await expect(player.getByRole('heading', { name: 'Квиз пройден!' })).toBeVisible();
  await player.getByRole('button', { name: 'Закрыть', exact: true }).first().click();
  await expect(player).toHaveCount(0);

  // Nothing was sent, and nothing is stored for the author.
  expect(writes).toEqual([]);
  const results = await request.get(`/api/results?userId=${author.id}`, { headers: course.headers });
  expect(await results.json()).toMatchObject({ total: 0, data: [] });
  const progress = await request.get(`/api/progress/course/${course.courseId}`, { headers: course.headers });
  expect(progress.status()).toBe(403);

  await page.getByRole('button', { name: 'Вернуться в редактор' }).click();
  await expect(page).toHaveURL(new RegExp(`/editor/${course.courseId}$`));
  await expect(sidebar(page)).toBeVisible();
  expect(errors).toEqual([]);
});

test('a video from an allowed https origin plays, a YouTube link is its player, and a source not allowed is said so', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const author = await curator(request);
  const allowed = `${E2E_MEDIA_ORIGIN}/courses/intro.webm`;
  const foreign = 'https://video.not-listed.example/clip.mp4';
  const course = await arrange(request, author.token, [
    {
      title: 'Видеоурок',
      content: [
        { type: 'video', content: { src: allowed, title: 'Вступление' } },
        { type: 'video', content: { src: 'https://youtu.be/dQw4w9WgXcQ', title: 'Лекция' } },
        { type: 'video', content: { src: foreign, title: 'Чужой сайт' } },
      ],
    },
  ]);
  // Nothing answers on those hosts here: the test does, and counts what the browser asked for.
  const asked: string[] = [];
  await page.route(`${E2E_MEDIA_ORIGIN}/**`, (route) => {
    asked.push(route.request().url());
    return route.fulfill({ contentType: 'video/webm', body: '' });
  });
  await page.route('https://www.youtube-nocookie.com/**', (route) => {
    asked.push(route.request().url());
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>YouTube</title>' });
  });
  await page.route('https://video.not-listed.example/**', (route) => {
    asked.push(route.request().url());
    return route.abort();
  });

  const me = await learner(request);
  await signIn(page, me.email, PASSWORD, `/student/${course.courseId}`);
  await studyLesson(page, 'Видеоурок').click();

  await expect(page.getByLabel('Вступление')).toHaveAttribute('src', allowed);
  await expect(page.locator('iframe[title="Лекция (YouTube)"]')).toHaveAttribute(
    'src',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
  );
  await expect(page.getByRole('alert')).toHaveText(
    'Видео недоступно: источник https://video.not-listed.example не разрешён настройками портала. Сообщите автору курса.',
  );
  await expect(page.locator(`video[src="${foreign}"]`)).toHaveCount(0);
  // The policy let the browser ask for the allowed video and the player, and nothing else.
  await expect.poll(() => asked.some((url) => url === allowed)).toBe(true);
  await expect.poll(() => asked.some((url) => url.startsWith('https://www.youtube-nocookie.com/embed/'))).toBe(true);
  expect(asked.filter((url) => url.startsWith('https://video.not-listed.example'))).toEqual([]);

  // The author is told while editing.
  await page.evaluate(() => localStorage.clear());
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${course.courseId}`);
  await editorLesson(page, 'Видеоурок').click();
  await page.getByRole('button', { name: /^Видео №3/ }).click();
  const props = page.getByRole('region', { name: 'Свойства блока «Видео №3»' });
  await expect(props.getByRole('alert')).toContainText(
    'Источник https://video.not-listed.example не разрешён настройками портала: слушатели не увидят это видео.',
  );
  await page.getByRole('button', { name: /^Видео №2/ }).click();
  await expect(page.getByRole('region', { name: 'Свойства блока «Видео №2»' })).toContainText(
    'Ссылка YouTube: слушатели увидят встроенный плеер YouTube.',
  );
  await page.getByRole('button', { name: /^Видео №1/ }).click();
  await expect(page.getByRole('region', { name: 'Свойства блока «Видео №1»' }).getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});
