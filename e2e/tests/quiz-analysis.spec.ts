import { expect, test, type APIRequestContext } from '@playwright/test';
import { CONSENT_DOCUMENT } from '@portal/contracts';
import { expectAccessible, signIn, uniqueEmail, watchConsole } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);

type Started = { attempt: { id: string }; questions: Array<{ id: string; options: string[] }> };

/** A published course whose quiz holds a fair question and a deliberately bad one, made over the API by the curator. */
async function arrange(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string };
  };
  const course = await post('/api/courses', { title: `Курс для анализа ${tag}`, isPublished: true });
  const quiz = await post('/api/quizzes', {
    title: `Анализ ${tag}`,
    courseId: course.id,
    settings: { randomizeAnswers: false, maxAttempts: 3, passingScore: 50 },
    questions: [
      {
        id: 'fair',
        type: 'single_choice',
        question: 'Сколько дней отпуска?',
        options: ['14', '28'],
        correctAnswers: [1],
        order: 1,
      },
      // The key says «Верный», but nearly everyone, the strongest included, picks «Ловушка».
      {
        id: 'bad',
        type: 'single_choice',
        question: 'Плохой вопрос',
        options: ['Верный', 'Ловушка'],
        correctAnswers: [0],
        order: 2,
      },
    ],
  });
  const mod = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Модуль' });
  const lesson = await post('/api/blocks', {
    courseId: course.id,
    moduleId: mod.id,
    title: 'Тест',
    status: 'published',
    content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 2 } }],
  });
  return { courseId: course.id, quizId: quiz.id, lessonId: lesson.id };
}

test('the analysis screen flags a deliberately bad question in plain words', async ({ page, request }) => {
  const errors = watchConsole(page);
  const { courseId, quizId, lessonId } = await arrange(request);

  // Five learners: the first three know the fair answer and fall for the trap; the weakest two do the opposite at the end.
  const choices: Array<[string, string]> = [
    ['28', 'Ловушка'],
    ['28', 'Ловушка'],
    ['28', 'Ловушка'],
    ['14', 'Ловушка'],
    ['14', 'Верный'],
  ];
  for (const [fair, bad] of choices) {
    const registered = await request.post('/api/auth/register', {
      // With the consent's checkbox, as the form sends it: the server refuses attempts without it.
      data: {
        email: uniqueEmail('analysis'),
        password: PASSWORD,
        fullName: `Ученик ${tag}`,
        role: 'CANDIDATE',
        consentVersion: CONSENT_DOCUMENT.version,
      },
    });
    expect(registered.status()).toBe(201);
    const headers = { authorization: `Bearer ${((await registered.json()) as { token: string }).token}` };
    const started = await request.post('/api/attempts', { headers, data: { quizId, courseId, lessonId } });
    expect(started.status(), await started.text()).toBe(201);
    const { attempt, questions } = (await started.json()) as Started;
    const pick = { fair, bad } as Record<string, string>;
    const answers = questions.map((q) => ({ questionId: q.id, answer: q.options.indexOf(pick[q.id]) }));
    const submitted = await request.post(`/api/attempts/${attempt.id}/submit`, { headers, data: { answers } });
    expect(submitted.status(), await submitted.text()).toBe(200);
  }

  await signIn(page, CURATOR.email, CURATOR.password, `/analysis/${quizId}`);
  await expect(page.getByRole('heading', { name: `Анализ вопросов: «Анализ ${tag}»` })).toBeVisible();
  await expect(page.getByText('Посчитано по всем завершённым попыткам: 5.', { exact: false })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Распределение результатов' })).toBeVisible();
  await expectAccessible(page, 'Анализ вопросов');

  const bad = page.getByRole('region', { name: 'Вопрос 2' });
  await expect(bad).toContainText('Плохой вопрос');
  await expect(bad).toContainText('трудность: 20% баллов');
  await expect(bad).toContainText('Верный (верный): 1');
  await expect(bad).toContainText('Ловушка: 4');
  const flags = bad.getByRole('list', { name: 'Замечания' });
  await expect(flags).toContainText('слишком трудный — Почти никто не отвечает верно');
  await expect(flags).toContainText('не различает сильных и слабых — Те, кто хорошо сдал тест в целом');
  await expect(flags).toContainText('неверный вариант выбирают чаще верного — Один из неверных вариантов популярнее правильного');
  // The fair question is neither too hard nor fooled by a wrong option.
  const fair = page.getByRole('region', { name: 'Вопрос 1' });
  await expect(fair).toContainText('трудность: 60% баллов');
  await expect(fair).not.toContainText('неверный вариант выбирают чаще верного');
  expect(errors).toEqual([]);
});

test("the course's author keeps a question bank: adds a tagged question, finds it by tag, changes it", async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const { courseId } = await arrange(request);
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}/bank`);
  await expect(page.getByRole('heading', { name: 'Банк вопросов' })).toBeVisible();
  await expect(page.getByText('В банке пока нет вопросов.')).toBeVisible();

  await page.getByRole('button', { name: 'Добавить вопрос' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый вопрос банка' });
  await dialog.getByLabel('Метки (через запятую)').fill('охрана труда, пожар');
  await dialog.getByLabel('Текст вопроса').fill('Куда звонить при пожаре?');
  await dialog.getByRole('button', { name: 'Сохранить вопрос' }).click();
  await expect(dialog).toHaveCount(0);

  const list = page.getByRole('list', { name: 'Банк вопросов' });
  await expect(list).toContainText('Куда звонить при пожаре?');
  await expect(list).toContainText('метки: охрана труда, пожар');
  await expectAccessible(page, 'Банк вопросов');
  await page.getByLabel('Метка').selectOption('пожар');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  await list.getByRole('button', { name: 'Изменить' }).click();
  const editing = page.getByRole('dialog', { name: 'Вопрос банка' });
  await editing.getByLabel('Текст вопроса').fill('Куда звонить при пожаре? (112 или 101)');
  await editing.getByRole('button', { name: 'Сохранить вопрос' }).click();
  await expect(editing).toHaveCount(0);
  await expect(list).toContainText('Куда звонить при пожаре? (112 или 101)');
  expect(errors).toEqual([]);
});
