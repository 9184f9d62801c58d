import { expect, test, type APIRequestContext } from '@playwright/test';
import { runExamStorm } from '../../bench/src/examstorm';
import type { ExamStormResult } from '../../bench/src/examStormTypes';
import { ALONE, signIn, uniqueEmail, watchConsole } from './helpers';

/*
 * Exam day (docs/decisions/094, 095): while a storm of learners starts, answers and submits one quiz
 * through the same gateway, a learner takes another quiz in the browser. Their answers are kept on
 * the server as they go, so the attempt continues on another device with them, and it is graded as
 * answered. The storm itself loses no answer and meets no refusal.
 */

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);
const quizTitle = `Аттестация по охране труда ${tag}`;

async function arrange(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const curator = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers: curator, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string };
  };
  const course = await post('/api/courses', { title: `Охрана труда ${tag}`, description: 'Аттестация', isPublished: true });
  const quiz = await post('/api/quizzes', {
    title: quizTitle,
    courseId: course.id,
    questions: [
      {
        id: 'fire',
        type: 'single_choice',
        question: 'Куда звонить при пожаре?',
        options: ['101', '103'],
        correctAnswers: [0],
        order: 0,
      },
      { id: 'lift', type: 'true_false', question: 'При пожаре пользуются лифтом', correctAnswer: 'false', order: 1 },
    ],
    settings: { passingScore: 100, maxAttempts: 3, timeLimit: 20 },
  });
  const module = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Аттестация' });
  await post('/api/blocks', {
    courseId: course.id,
    moduleId: module.id,
    title: 'Итоговый тест',
    status: 'published',
    content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 2 } }],
  });
  const email = uniqueEmail('exam');
  const registered = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName: `Экзаменуемый ${tag}`, role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);
  return { courseId: course.id, email };
}

test(
  'a learner takes a quiz during an exam storm: answers kept on the server follow them to another device; the storm loses nothing',
  ALONE,
  async ({ browser, page, request, baseURL }) => {
    // The storm's arrangement (40 learners registered and assigned), then its starts over 6 s, its
    // answers saved until the 14th, its submits over 6 s: as dense as a longer storm, over fewer
    // seconds of the stack kept to itself. The learner's part begins with the storm's arrangement.
    test.setTimeout(240_000);
    const { courseId, email } = await arrange(request);
    let storm: ExamStormResult | undefined;
    const storming = runExamStorm({
      gatewayUrl: baseURL!,
      learners: 40,
      seed: 94,
      startSpreadSeconds: 6,
      attemptSeconds: 14,
      submitSpreadSeconds: 6,
      // A load around the learner, not a measurement: no wait for the arrangement's background work.
      settle: false,
      log: () => undefined,
    }).then((result) => (storm = result));

    // On the first device: the quiz started, the first question answered, and the answer kept by the server.
    const errors = watchConsole(page);
    await signIn(page, email, PASSWORD, `/student/${courseId}`);
    await page
      .getByRole('navigation', { name: 'Содержание курса' })
      .getByRole('button', { name: /Итоговый тест/ })
      .click();
    await page.getByRole('region', { name: quizTitle }).getByRole('button', { name: 'Начать квиз' }).click();
    const first = page.getByRole('dialog', { name: quizTitle });
    await first.getByRole('radio', { name: '101' }).check();
    await expect(first.getByText('Ответы сохранены')).toBeVisible({ timeout: 20_000 });

    // On another device (a browser of its own, nothing in its storage): the same attempt, with that answer.
    const other = await browser.newContext();
    const second = await other.newPage();
    await signIn(second, email, PASSWORD, `/student/${courseId}`);
    await second
      .getByRole('navigation', { name: 'Содержание курса' })
      .getByRole('button', { name: /Итоговый тест/ })
      .click();
    await second.getByRole('region', { name: quizTitle }).getByRole('button', { name: 'Продолжить попытку' }).click();
    const player = second.getByRole('dialog', { name: quizTitle });
    await expect(player.getByRole('radio', { name: '101' })).toBeChecked({ timeout: 15_000 });
    await player.getByRole('button', { name: 'Далее' }).click();
    await player.getByRole('radio', { name: 'Неверно' }).check();
    await player.getByRole('button', { name: 'Завершить квиз' }).click();
    await expect(player.getByRole('heading', { name: 'Квиз пройден!' })).toBeVisible({ timeout: 20_000 });
    await expect(player.getByText('Ваш результат: 2 из 2 (100%)')).toBeVisible();
    await other.close();

    await storming;
    expect({ errors: storm!.errors, lost: storm!.lost.answers, notGraded: storm!.notGraded }).toEqual({
      errors: {},
      lost: 0,
      notGraded: 0,
    });
    expect(storm!.save?.count ?? 0).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  },
);
