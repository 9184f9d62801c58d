import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { CONSENT_DOCUMENT, PROGRAM_EXPORT_HEADER, PROGRAM_MSG } from '@portal/contracts';
import { readXlsx } from '@portal/devstack/exports';
import { ALONE, expectAccessible, moveProgressClock, pressUntilAnnounced, signIn, uniqueEmail } from './helpers';

const ADMIN = { email: 'admin@portal.local', password: 'Portal-Glav-2026' };
const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);
const department = `Цех программ ${tag}`;
const programTitle = `Адаптация монтажника ${tag}`;
const learnerName = `Кузнецова Ольга ${tag}`;
/** The three stages' courses, one each: a text course, a course with a quiz (the locked stage's), another text course. */
const COURSE = {
  intro: `Знакомство с цехом ${tag}`,
  safety: `Охрана труда в цехе ${tag}`,
  tools: `Инструменты цеха ${tag}`,
} as const;

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/** A day `days` from today on the Moscow calendar (the portal counts days there). */
const dayFromToday = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + days * 86_400_000));

interface Arranged {
  courseIds: Record<keyof typeof COURSE, string>;
  learnerEmail: string;
}

/**
 * Over the API, as the journey is not about them: three published courses (the safety one has a text
 * lesson and a quiz lesson), and a learner the administrator puts in the department.
 */
async function arrange(request: APIRequestContext): Promise<Arranged> {
  const curator = { authorization: `Bearer ${await tokenFor(request, CURATOR)}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers: curator, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const textCourse = async (title: string, lesson: string) => {
    const courseId = await post('/api/courses', { title, description: 'Курс программы', isPublished: true });
    const moduleId = await post('/api/blocks', { type: 'MODULE', courseId, title: 'Модуль 1' });
    await post('/api/blocks', {
      courseId,
      moduleId,
      title: lesson,
      status: 'published',
      content: [{ type: 'text', content: { text: `${lesson}: прочитайте до конца.` } }],
    });
    return { courseId, moduleId };
  };
  const [intro, safety, tools] = await Promise.all([
    textCourse(COURSE.intro, 'Правила цеха'),
    textCourse(COURSE.safety, 'Введение'),
    textCourse(COURSE.tools, 'Ручной инструмент'),
  ]);
  const quizId = await post('/api/quizzes', {
    title: `Тест по охране труда ${tag}`,
    courseId: safety.courseId,
    questions: [{ id: 'helmet', type: 'true_false', question: 'Каска в цехе обязательна', correctAnswer: 'true', order: 0 }],
    settings: { passingScore: 50, maxAttempts: 3 },
  });
  await post('/api/blocks', {
    courseId: safety.courseId,
    moduleId: safety.moduleId,
    title: 'Итоговый тест',
    status: 'published',
    content: [{ type: 'quiz', content: { quizId, questionsCount: 1 } }],
  });

  const admin = { authorization: `Bearer ${await tokenFor(request, ADMIN)}` };
  const learnerEmail = uniqueEmail('program');
  // With the consent, as the form sends it: a person is enrolled only once they have given it.
  const registered = await request.post('/api/auth/register', {
    data: {
      email: learnerEmail,
      password: PASSWORD,
      fullName: learnerName,
      role: 'CLIENT',
      consentVersion: CONSENT_DOCUMENT.version,
    },
  });
  expect(registered.status()).toBe(201);
  const { id, version } = ((await registered.json()) as { user: { id: string; version: number } }).user;
  const moved = await request.patch(`/api/users/${id}`, {
    headers: admin,
    data: { fullName: learnerName, email: learnerEmail, role: 'CLIENT', department, version },
  });
  expect(moved.status()).toBe(200);
  return { courseIds: { intro: intro.courseId, safety: safety.courseId, tools: tools.courseId }, learnerEmail };
}

/** The editor's stage cards (groups «Этап N: <title>»; the fieldsets inside them are groups too, named otherwise). */
const stageCards = (page: Page) => page.getByRole('group', { name: /^Этап \d+: / });

/** The courses of the stage cards in the order a person sees them (while dragging, the cards move by transforms). */
const seenCourses = (cards: Locator) =>
  cards.evaluateAll(
    (els, titles) =>
      els
        .map((e) => ({ text: e.textContent ?? '', top: e.getBoundingClientRect().top }))
        .sort((a, b) => a.top - b.top)
        .map((e) => titles.find((t) => e.text.includes(t)) ?? '?'),
    Object.values(COURSE),
  );

/**
 * Drags a stage card by its handle like a person: presses, passes dnd-kit's 5 px threshold, then moves
 * the pointer up a few pixels at a time until the cards stand in the wanted order, and drops there.
 */
async function dragStageUpUntil(page: Page, handle: Locator, wanted: string[]) {
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  if (!box) throw new Error('drag: handle not visible');
  const x = box.x + box.width / 2;
  let y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  y -= 12;
  await page.mouse.move(x, y, { steps: 4 });
  const cards = stageCards(page);
  const matches = async () => JSON.stringify(await seenCourses(cards)) === JSON.stringify(wanted);
  for (let i = 0; i < 150 && !(await matches()); i++) {
    y -= 8;
    await page.mouse.move(x, y, { steps: 2 });
  }
  expect(await seenCourses(cards)).toEqual(wanted);
  await page.mouse.up();
}

// ALONE: the journey moves the progress service's clock past a stage's due day, which no journey beside it may see.
test.afterEach(() => moveProgressClock('reset'));

test(
  'a curator builds a three-stage program by drag and drop and assigns it to a department; its learner meets the locked stage, completes the first, sees the second open; past the due day the report and its XLSX show the delay',
  ALONE,
  async ({ browser, page, request }) => {
    // Two people's journeys, a drag by mouse and by keyboard, a study page and the clock moved: well past 30 s on 2 cores.
    test.setTimeout(120_000);
    const { courseIds, learnerEmail } = await arrange(request);

    // 1. The curator makes a program, gives it three stages and a course in each, in the wrong order at first.
    await signIn(page, CURATOR.email, CURATOR.password, '/programs');
    await page.getByRole('button', { name: 'Создать программу' }).click();
    await expect(page).toHaveURL(/\/programs\/[0-9a-f]{24}$/);
    const form = page.getByRole('form', { name: 'Программа' });
    await form.getByRole('textbox', { name: 'Название', exact: true }).fill(programTitle);
    await form.getByRole('button', { name: '+ Добавить этап' }).click();
    await form.getByRole('button', { name: '+ Добавить этап' }).click();
    const cards = stageCards(page);
    await expect(cards).toHaveCount(3);
    const firstDraft: Array<[string, string]> = [
      ['Инструменты', COURSE.tools],
      ['Знакомство', COURSE.intro],
      ['Охрана труда', COURSE.safety],
    ];
    for (const [i, [stage, course]] of firstDraft.entries()) {
      const card = cards.nth(i);
      await card.getByLabel('Название этапа').fill(stage);
      await expect(card).toHaveAccessibleName(`Этап ${i + 1}: ${stage}`);
      await card.getByRole('combobox', { name: `Курс для этапа «${stage}»` }).selectOption({ label: course });
      await card.getByRole('button', { name: 'Добавить курс' }).click();
      await expect(card.getByRole('listitem', { name: `Курс 1: ${course}` })).toBeVisible();
    }
    // The save state is a status beside «Сохранить» (dnd-kit's live regions are statuses too).
    const saveState = form.getByRole('status').filter({ hasText: /изменения/ });
    await expect(saveState).toHaveText('Есть несохранённые изменения');

    // By mouse: «Знакомство» goes to the top.
    await dragStageUpUntil(page, form.getByRole('button', { name: 'Переместить этап «Знакомство»' }), [
      COURSE.intro,
      COURSE.tools,
      COURSE.safety,
    ]);
    await expect(cards.nth(0)).toHaveAccessibleName('Этап 1: Знакомство');
    await expect(cards.nth(1)).toHaveAccessibleName('Этап 2: Инструменты');

    // By keyboard: «Охрана труда» one place up (space takes it, an arrow moves it, space drops it).
    await form.getByRole('button', { name: 'Переместить этап «Охрана труда»' }).focus();
    await page.keyboard.press('Space');
    await expect(
      page.locator('[id^="DndLiveRegion"]', { hasText: /Взят элемент «Охрана труда»|«Охрана труда» над/ }),
    ).toHaveCount(1);
    await pressUntilAnnounced(page, 'ArrowUp', /«Охрана труда» над «Инструменты»/, { presses: 10, waitMs: 300 });
    await page.keyboard.press('Space');
    await expect(page.locator('[id^="DndLiveRegion"]', { hasText: '«Охрана труда» перемещён' })).toHaveCount(1);
    const order = ['Этап 1: Знакомство', 'Этап 2: Охрана труда', 'Этап 3: Инструменты'];
    for (const [i, name] of order.entries()) await expect(cards.nth(i)).toHaveAccessibleName(name);
    // The stage now first obeys the first stage's rule: its deadline counts from the assignment.
    await expect(cards.nth(0)).toContainText('от назначения программы');

    // Stage 2 is closed until stage 1 is complete; saved, and still so after a reload.
    await cards.nth(1).getByRole('checkbox', { name: 'Закрыт до завершения предыдущего этапа' }).check();
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await expect(saveState).toHaveText('Все изменения сохранены');
    await page.reload();
    for (const [i, name] of order.entries()) await expect(cards.nth(i)).toHaveAccessibleName(name);
    await expect(cards.nth(1).getByRole('checkbox', { name: 'Закрыт до завершения предыдущего этапа' })).toBeChecked();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(programTitle);
    await expectAccessible(page, 'the program editor');

    // Assigned to the department: the report opens.
    await page.getByRole('button', { name: 'Назначить', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Назначить программу «${programTitle}»` });
    await dialog.getByRole('combobox', { name: 'Подразделение', exact: true }).selectOption(department);
    await expectAccessible(page, 'the program assignment dialog');
    await dialog.getByRole('button', { name: 'Назначить', exact: true }).click();
    await expect(page).toHaveURL(/\/program-assignments\/[0-9a-f]{24}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(programTitle);
    await expect(page.getByText(`Подразделение «${department}»`)).toBeVisible();
    await expect(page.getByTestId('program-report')).toContainText('Назначено');
    const reportUrl = page.url();

    // 2. The learner sees stage 2 closed, and the server refuses its quiz.
    const learnerContext = await browser.newContext({ acceptDownloads: true });
    const learner = await learnerContext.newPage();
    try {
      await signIn(learner, learnerEmail, PASSWORD, '/my-programs');
      await learner.getByRole('list', { name: 'Программы' }).getByRole('link', { name: programTitle }).click();
      await expect(learner).toHaveURL(/\/my-programs\/[0-9a-f]{24}$/);
      const programUrl = learner.url();
      const stages = learner.getByRole('list', { name: 'Этапы программы' });
      await expect(stages.getByRole('listitem', { name: 'Этап 1: Знакомство, в процессе' })).toBeVisible();
      const locked = stages.getByRole('listitem', { name: 'Этап 2: Охрана труда, закрыт до завершения этапа «Знакомство»' });
      await expect(locked).toContainText('закрыт до завершения этапа «Знакомство»');
      await expect(locked.getByRole('link', { name: `Открыть курс «${COURSE.safety}»` })).toHaveCount(0);
      await expectAccessible(learner, 'the learner’s program');

      // The course is still reachable by its address: its quiz does not start, and the reason names the stage.
      await learner.goto(`/student/${courseIds.safety}`);
      await learner
        .getByRole('navigation', { name: 'Содержание курса' })
        .getByRole('button', { name: /Итоговый тест/ })
        .click();
      await learner.getByRole('button', { name: 'Начать квиз' }).click();
      await expect(
        learner.getByRole('alert').filter({ hasText: PROGRAM_MSG.locked(programTitle, 'Охрана труда', 'Знакомство') }),
      ).toBeVisible();

      // 3. The learner completes stage 1 in study mode; stage 2 opens.
      await learner.goto(`/student/${courseIds.intro}`);
      await learner
        .getByRole('navigation', { name: 'Содержание курса' })
        .getByRole('button', { name: /Правила цеха/ })
        .click();
      // The page marks the lesson at once (and rolls back on a refusal): the server's answer is waited for.
      const [completed] = await Promise.all([
        learner.waitForResponse((r) => r.request().method() === 'POST' && /\/complete$/.test(new URL(r.url()).pathname)),
        learner.getByRole('button', { name: 'Завершить урок' }).click(),
      ]);
      expect(completed.status()).toBeLessThan(300);
      await expect(learner.getByRole('status').filter({ hasText: 'Урок пройден' })).toBeVisible();
      await expect
        .poll(async () => {
          await learner.goto(programUrl);
          return (await stages.getByRole('listitem').first().getAttribute('aria-label')) ?? '';
        })
        .toBe('Этап 1: Знакомство, пройден');
      const opened = stages.getByRole('listitem', { name: 'Этап 2: Охрана труда, в процессе' });
      await expect(opened).toBeVisible();
      await expect(opened.getByRole('link', { name: `Открыть курс «${COURSE.safety}»` })).toBeVisible();
    } finally {
      await learnerContext.close();
    }

    // 4. Past stage 2's due day (14 days after stage 1 was completed; 15 days on, 09:00 in Moscow) the report shows the delay.
    await moveProgressClock(new Date(`${dayFromToday(15)}T09:00:00+03:00`));
    await page.goto(reportUrl);
    const figures = page.getByTestId('program-report');
    await expect(figures).toContainText('Назначено1');
    await expect(figures).toContainText('С просрочкой1');
    await expect(
      page
        .getByRole('table', { name: 'Этапы программы' })
        .getByRole('row', { name: /Охрана труда/ })
        .getByRole('cell'),
    ).toHaveText(['2. Охрана труда', '1', '0', '1']);
    const person = page.getByRole('table', { name: 'Люди программы' }).getByRole('row', { name: new RegExp(learnerName) });
    await expect(person).toContainText('есть просрочка');
    await expect(person).toContainText('Охрана труда');
    await expect(person).toContainText('просрочен');
    await expect(person).toContainText('1 из 3');
    await expectAccessible(page, 'the program report');

    // 5. The XLSX of the report: its header and the learner's row.
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Экспорт XLSX' }).click()]);
    expect(xlsx.suggestedFilename()).toBe('program_report.xlsx');
    const sheet = await readXlsx(await readFile((await xlsx.path())!));
    expect(sheet.rows[0]).toEqual([...PROGRAM_EXPORT_HEADER]);
    expect(sheet.rows).toHaveLength(2);
    const [fullName, email, dept, status, stage, stageStatus, , stagesCompleted] = sheet.rows[1];
    expect({ fullName, email, dept, status, stage, stageStatus, stagesCompleted }).toEqual({
      fullName: learnerName,
      email: learnerEmail,
      dept: department,
      status: 'есть просрочка',
      stage: 'Охрана труда',
      stageStatus: 'просрочен',
      stagesCompleted: 1,
    });
  },
);
