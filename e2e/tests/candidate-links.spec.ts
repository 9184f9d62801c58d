import { expect, test, type APIRequestContext } from '@playwright/test';
import { CANDIDATE_LINK_MSG, CONSENT_MSG, PROGRESS_MSG } from '@portal/contracts';
import { expectAccessible, signIn, uniqueEmail } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const tag = Date.now().toString(36);
const courseTitle = `Подбор персонала ${tag}`;
const quizTitle = `Тест для кандидатов ${tag}`;
const candidateName = `Кандидатова Ольга ${tag}`;

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

test('a curator makes a link to a quiz in the UI; a candidate without an account opens it, consents and takes the quiz; staff see the result «по ссылке»; a revoked link says so', async ({
  browser,
  page,
  request,
}) => {
  // Four screens in two browsers (the curator's and the candidate's): 28 s alone on a quiet machine.
  test.setTimeout(60_000);
  // Arranged over the API: a published course whose lesson holds a two-question quiz.
  const curator = { authorization: `Bearer ${await tokenFor(request, CURATOR)}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers: curator, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string };
  };
  const course = await post('/api/courses', { title: courseTitle, description: 'Отбор', isPublished: true });
  const quiz = await post('/api/quizzes', {
    title: quizTitle,
    courseId: course.id,
    questions: [
      {
        id: 'vacation',
        type: 'single_choice',
        question: 'Сколько дней ежегодного отпуска?',
        options: ['14', '28', '56'],
        correctAnswers: [1],
        order: 0,
      },
      { id: 'trial', type: 'true_false', question: 'Испытательный срок бывает до 3 месяцев', correctAnswer: 'true', order: 1 },
    ],
    settings: { passingScore: 50, maxAttempts: 3 },
  });
  const module = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Отбор' });
  await post('/api/blocks', {
    courseId: course.id,
    moduleId: module.id,
    title: 'Входной тест',
    status: 'published',
    content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 2 } }],
  });

  // 1. The curator makes the link from «Результаты» → «Ссылки для кандидатов».
  await signIn(page, CURATOR.email, CURATOR.password, '/results');
  await page.getByRole('button', { name: CANDIDATE_LINK_MSG.screenTitle }).click();
  await expect(page).toHaveURL(/\/candidate-links$/);
  const form = page.getByRole('form', { name: 'Новая ссылка для кандидатов' });
  await form.getByLabel('Курс').selectOption({ label: courseTitle });
  await form.getByLabel('Урок с тестом').selectOption({ label: 'Отбор: Входной тест' });
  await form.getByLabel('Число прохождений').fill('3');
  await form.getByLabel('Ограничение времени, мин').fill('10');
  await expect(form.getByLabel('Показывать кандидату результат')).not.toBeChecked();
  await form.getByRole('button', { name: 'Создать ссылку' }).click();
  const address = page.getByRole('textbox', { name: 'Адрес ссылки' });
  await expect(address).toHaveValue(/\/t\/[A-Za-z0-9_-]{43}$/);
  // The address is on PUBLIC_URL; the e2e stack answers on ports of its own, so the path is opened here.
  const url = new URL(await address.inputValue()).pathname;
  const row = page.getByRole('table', { name: 'Ссылки для кандидатов' }).getByRole('row', { name: new RegExp(quizTitle) });
  await expect(row).toContainText('Действует');
  await expect(row).toContainText('0 из 3');
  await expectAccessible(page, 'the candidate links screen');

  // 2. A candidate in a fresh browser, without an account, opens the link.
  const candidateContext = await browser.newContext();
  const candidate = await candidateContext.newPage();
  await candidate.goto(url);
  await expect(candidate.getByRole('heading', { level: 1, name: quizTitle })).toBeVisible();
  const consent = candidate.getByRole('checkbox', { name: CONSENT_MSG.checkbox });
  await expect(consent).not.toBeChecked();
  await candidate.getByLabel('Фамилия, имя и отчество').fill(candidateName);
  await candidate.getByLabel('Email').fill(uniqueEmail('candidate'));
  await candidate.getByRole('button', { name: 'Начать тест' }).click();
  await expect(candidate.getByRole('alert').filter({ hasText: CONSENT_MSG.required })).toBeVisible();
  await expectAccessible(candidate, 'the candidate’s page');
  await consent.check();
  await candidate.getByRole('button', { name: 'Начать тест' }).click();

  const player = candidate.getByRole('dialog', { name: quizTitle });
  await expect(player).toBeVisible();
  await player.getByRole('radio', { name: '28' }).check();
  // A reload goes back to the same attempt, not to the form (which would spend another use).
  await candidate.reload();
  await expect(player).toBeVisible();
  await expect(candidate.getByRole('button', { name: 'Начать тест' })).toHaveCount(0);
  await player.getByRole('radio', { name: '28' }).check();
  await player.getByRole('button', { name: 'Далее' }).click();
  await player.getByRole('radio', { name: 'Верно', exact: true }).check();
  await player.getByRole('button', { name: 'Завершить квиз' }).click();
  // The link hides the result: the candidate is told the answers were sent, and nothing of the score.
  await expect(player.getByRole('status')).toContainText('Результат сообщит организация');
  await expect(player).not.toContainText('Квиз пройден');
  await expect(player).not.toContainText('2 из 2');
  await player.getByRole('button', { name: 'Завершить' }).click();
  await expect(candidate.getByRole('heading', { name: CANDIDATE_LINK_MSG.submittedTitle })).toBeVisible();

  // 3. The curator sees the candidate's real result in «Результаты», marked «по ссылке».
  await page.goto('/results');
  await page.getByRole('searchbox', { name: PROGRESS_MSG.resultsSearch }).fill(candidateName);
  const result = page.getByRole('row', { name: new RegExp(candidateName) });
  await expect(result).toContainText(CANDIDATE_LINK_MSG.viaLink);
  await expect(result).toContainText('2/2');

  // 4. Revoked, the link says so to the next person who opens it.
  await page.goto('/candidate-links');
  await page.getByRole('button', { name: `Отозвать ссылку на тест «${quizTitle}»` }).click();
  await page.getByRole('dialog', { name: 'Отозвать ссылку?' }).getByRole('button', { name: 'Отозвать' }).click();
  await expect(row).toContainText('Отозвана');
  const late = await browser.newContext();
  const latePage = await late.newPage();
  await latePage.goto(url);
  await expect(latePage.getByRole('heading', { name: 'Ссылка не работает' })).toBeVisible();
  await expect(latePage.getByText(CANDIDATE_LINK_MSG.revoked)).toBeVisible();
  await late.close();
  await candidateContext.close();
});
