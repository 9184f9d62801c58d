import { expect, test } from '@playwright/test';
import { CONSENT_DOCUMENT } from '@portal/contracts';
import { expectAccessible, signIn, uniqueEmail } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);

test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

test('on a phone, a lesson opened from the outline comes into view with focus, and a matching question’s dropdowns fit the width', async ({
  page,
  request,
}) => {
  // A course whose outline is longer than a phone's screen: eight lessons, the last one a matching quiz.
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string };
  };
  const course = await post('/api/courses', { title: `Курс для телефона ${tag}`, isPublished: true });
  const quiz = await post('/api/quizzes', {
    title: `Соответствия ${tag}`,
    courseId: course.id,
    settings: { maxAttempts: 3, passingScore: 50 },
    questions: [
      {
        id: 'm',
        type: 'matching',
        question: 'Сопоставьте срок и событие',
        order: 1,
        pairs: [
          { left: 'Ежегодный оплачиваемый отпуск', right: '28 календарных дней' },
          { left: 'Испытательный срок', right: 'Не более трёх месяцев' },
        ],
      },
    ],
  });
  for (const m of [1, 2]) {
    const mod = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: `Модуль ${m}` });
    for (const l of [1, 2, 3, 4]) {
      const last = m === 2 && l === 4;
      await post('/api/blocks', {
        courseId: course.id,
        moduleId: mod.id,
        title: last ? 'Итоговое сопоставление' : `Урок ${m}.${l}`,
        status: 'published',
        content: last
          ? [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } }]
          : [{ type: 'text', content: { text: 'Текст урока.' } }],
      });
    }
  }
  const email = uniqueEmail('phone');
  const registered = await request.post('/api/auth/register', {
    data: {
      email,
      password: PASSWORD,
      fullName: `Телефонов Пётр ${tag}`,
      role: 'CLIENT',
      consentVersion: CONSENT_DOCUMENT.version,
    },
  });
  expect(registered.status()).toBe(201);

  await signIn(page, email, PASSWORD, `/student/${course.id}`);
  const outline = page.getByRole('navigation', { name: 'Содержание курса' });
  await outline.getByRole('button', { name: /Итоговое сопоставление/ }).tap();
  const heading = page.getByRole('heading', { name: 'Итоговое сопоставление', level: 2 });
  await expect(heading).toBeInViewport();
  await expect(heading).toBeFocused();

  await page
    .getByRole('region', { name: `Соответствия ${tag}` })
    .getByRole('button', { name: 'Начать квиз' })
    .tap();
  const player = page.getByRole('dialog', { name: `Соответствия ${tag}` });
  const dropdowns = player.getByRole('combobox');
  await expect(dropdowns).toHaveCount(2);
  for (const name of ['Ежегодный оплачиваемый отпуск', 'Испытательный срок']) {
    const dropdown = player.getByRole('combobox', { name });
    const box = (await dropdown.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // Wide enough for «— выберите —» and the answers, not a sliver beside its item.
    expect(box.width).toBeGreaterThan(250);
  }
  await expectAccessible(page, 'вопрос на соответствие на телефоне');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
});
