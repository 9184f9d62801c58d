import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { CONSENT_DOCUMENT } from '@portal/contracts';
import { readCsv } from '@portal/devstack/exports';
import { expectAccessible, signIn, uniqueEmail } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);

type Started = { attempt: { id: string }; questions: Array<{ id: string; options: string[] }> };

/** A published course of one quiz lesson, made over the API by the curator. */
async function quizCourse(request: APIRequestContext, title: string, question: Record<string, unknown>) {
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string };
  };
  const course = await post('/api/courses', { title, isPublished: true });
  const quiz = await post('/api/quizzes', {
    title: `Тест: ${title}`,
    courseId: course.id,
    settings: { maxAttempts: 3, passingScore: 50 },
    questions: [{ id: 'q', order: 1, ...question }],
  });
  const mod = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Модуль' });
  const lesson = await post('/api/blocks', {
    courseId: course.id,
    moduleId: mod.id,
    title: 'Тест',
    status: 'published',
    content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } }],
  });
  return { courseId: course.id, quizId: quiz.id, lessonId: lesson.id };
}

test('/results shows an answer waiting for a curator as «На проверке», filters by it and by course, and its CSV says the same', async ({
  page,
  request,
}) => {
  const essayTitle = `Эвакуация ${tag}`;
  const essay = await quizCourse(request, essayTitle, {
    type: 'long_answer',
    question: 'Опишите порядок эвакуации',
    points: 2,
  });
  const choice = await quizCourse(request, `Отпуск ${tag}`, {
    type: 'single_choice',
    question: 'Сколько дней отпуска?',
    options: ['14', '28'],
    correctAnswers: [1],
  });
  const learnerName = `Ученица ${tag}`;
  const registered = await request.post('/api/auth/register', {
    data: {
      email: uniqueEmail('results'),
      password: PASSWORD,
      fullName: learnerName,
      role: 'CLIENT',
      consentVersion: CONSENT_DOCUMENT.version,
    },
  });
  expect(registered.status()).toBe(201);
  const headers = { authorization: `Bearer ${((await registered.json()) as { token: string }).token}` };
  const take = async (arranged: typeof essay, answer: (q: Started['questions'][number]) => unknown) => {
    const started = await request.post('/api/attempts', { headers, data: arranged });
    expect(started.status(), await started.text()).toBe(201);
    const { attempt, questions } = (await started.json()) as Started;
    const submitted = await request.post(`/api/attempts/${attempt.id}/submit`, {
      headers,
      data: { answers: questions.map((q) => ({ questionId: q.id, answer: answer(q) })) },
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
  };
  await take(essay, () => 'Спокойно выйти по лестнице');
  await take(choice, (q) => q.options.indexOf('14')); // failed

  await signIn(page, CURATOR.email, CURATOR.password, '/results');
  await page.getByRole('searchbox', { name: 'Поиск по имени, курсу или квизу' }).fill(learnerName);
  const summary = page.getByRole('region', { name: 'Сводка' });
  await expect(summary).toContainText('Всего попыток2');
  await expect(summary).toContainText('Не пройдено1');
  await expect(summary).toContainText('На проверке1');

  await page.getByLabel('Фильтр по статусу').selectOption({ label: 'На проверке' });
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(2); // the header and the one waiting
  await expect(rows.nth(1)).toContainText(essayTitle);
  await expect(rows.nth(1)).toContainText('На проверке');
  await page.getByLabel('Фильтр по статусу').selectOption({ label: 'Все' });
  await page.getByLabel('Фильтр по курсу').selectOption({ label: essayTitle });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(essayTitle);
  await expect(summary).toContainText('Всего попыток1');
  await expectAccessible(page, 'результаты с фильтрами');

  // The curator reads the learner's answer as the learner's, not as «Ваш ответ».
  await rows
    .nth(1)
    .getByRole('button', { name: /^Подробнее/ })
    .click();
  const details = page.getByRole('dialog', { name: 'Подробности попытки' });
  await expect(details).toContainText('Ответ учащегося: Спокойно выйти по лестнице');
  await expect(details).not.toContainText('Ваш ответ');
  await details.getByRole('button', { name: 'Закрыть' }).click();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Экспорт CSV' }).click(),
  ]);
  const csv = readCsv(await readFile((await download.path())!));
  const status = csv[0].indexOf('Статус');
  expect(csv.slice(1).map((r) => [r[0], r[1], r[status]])).toEqual([[learnerName, essayTitle, 'На проверке']]);
});
