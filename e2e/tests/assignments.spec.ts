import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ASSIGNMENT_EXPORT_HEADER, CONSENT_DOCUMENT } from '@portal/contracts';
import { readXlsx } from '@portal/devstack/exports';
import { ALONE, expectAccessible, moveProgressClock, signIn, uniqueEmail } from './helpers';

const ADMIN = { email: 'admin@portal.local', password: 'Portal-Glav-2026' };
const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PASSWORD = 'Kursy-Portal-42';
const tag = Date.now().toString(36);
const department = `Склад ${tag}`;
const courseTitle = `Охрана труда ${tag}`;

async function tokenFor(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: account });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/** A day `days` from today on the Moscow calendar (the portal counts days there), as the date field takes it. */
const dayFromToday = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + days * 86_400_000));

// ALONE: the journey moves the progress service's clock past the due day, which no journey beside it may see.
test.afterEach(() => moveProgressClock('reset'));

test(
  'a curator assigns a course to a department; a learner there is notified, sees the days left, completes it, downloads the certificate, /verify confirms it; past the due day the report and its XLSX show the other as overdue',
  ALONE,
  async ({ browser, page, request }) => {
    // Two people's whole journey, and the progress service's clock moved past the due day: it took 29 s of
    // the default 30 on a host with half its CPU stolen.
    test.setTimeout(90_000);
    // Arranged over the API: a published course of one lesson, and a learner the administrator puts in the department.
    const curator = { authorization: `Bearer ${await tokenFor(request, CURATOR)}` };
    const post = async (path: string, data: unknown) => {
      const answer = await request.post(path, { headers: curator, data });
      expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
      return (await answer.json()) as { id: string };
    };
    const course = await post('/api/courses', { title: courseTitle, description: 'Инструктаж', isPublished: true, duration: 4 });
    const module = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Инструктаж' });
    await post('/api/blocks', {
      courseId: course.id,
      moduleId: module.id,
      title: 'Правила безопасности',
      status: 'published',
      content: [{ type: 'text', content: { text: 'Каска обязательна на складе.' } }],
    });
    const admin = { authorization: `Bearer ${await tokenFor(request, ADMIN)}` };
    /** A learner the administrator puts in the department. */
    const worker = async (fullName: string) => {
      const email = uniqueEmail('worker');
      const registered = await request.post('/api/auth/register', {
        data: { email, password: PASSWORD, fullName, role: 'CANDIDATE' },
      });
      expect(registered.status()).toBe(201);
      const { id, version } = ((await registered.json()) as { user: { id: string; version: number } }).user;
      const moved = await request.patch(`/api/users/${id}`, {
        headers: admin,
        data: { fullName, email, role: 'CANDIDATE', department, version },
      });
      expect(moved.status()).toBe(200);
      return email;
    };
    const email = await worker('Петрова Мария Ивановна');
    await worker('Сидоров Пётр Петрович');

    // 1. The curator assigns the course to the department with a due date a week ahead.
    await signIn(page, CURATOR.email, CURATOR.password, '/assignments');
    const form = page.getByRole('form', { name: 'Назначить курс' });
    await form.getByLabel('Курс').selectOption({ label: courseTitle });
    await form.getByLabel('Кому').selectOption({ label: 'Подразделение' });
    // A select's label text holds its options too, so the field is found by its role and name.
    await form.getByRole('combobox', { name: 'Подразделение', exact: true }).selectOption(department);
    await form.getByLabel('Срок').fill(dayFromToday(7));
    await form.getByRole('button', { name: 'Назначить' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Курс «${courseTitle}» назначен` })).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Назначения' }).getByRole('row', { name: new RegExp(courseTitle) }),
    ).toContainText(`Подразделение «${department}»`);

    // 2. The learner is told in the bell (the notification is written by the reminders worker: waited for over the API),
    //    sees the assignment on the dashboard with the days left, studies it and downloads the certificate.
    const learner = { authorization: `Bearer ${await tokenFor(request, { email, password: PASSWORD })}` };
    await expect
      .poll(
        async () => ((await (await request.get('/api/notifications', { headers: learner })).json()) as { unread: number }).unread,
      )
      .toBe(1);
    const learnerContext = await browser.newContext({ acceptDownloads: true });
    const learnerPage = await learnerContext.newPage();
    await signIn(learnerPage, email, PASSWORD, '/dashboard');
    await expect(learnerPage.getByRole('heading', { level: 1 })).toContainText('Мария!');
    await learnerPage.getByRole('button', { name: 'Уведомления: 1 непрочитанное' }).click();
    const bell = learnerPage.getByRole('dialog', { name: 'Уведомления' });
    const notification = bell.getByTestId('notification').filter({ hasText: `Вам назначен курс «${courseTitle}»` });
    await expect(notification).toContainText(`Пройдите его до ${dayFromToday(7).split('-').reverse().join('.')} включительно.`);
    await expectAccessible(learnerPage, 'уведомления');
    await bell.getByRole('button', { name: 'Отметить все прочитанными' }).click();
    await expect(learnerPage.getByRole('button', { name: 'Уведомления', exact: true })).toBeVisible();
    await bell.getByRole('button', { name: 'Закрыть' }).click();
    const item = learnerPage.getByTestId('assignment-item').filter({ hasText: courseTitle });
    await expect(item).toContainText('Осталось 7 дней');
    await expect(item).toHaveAttribute('data-status', 'not_started');
    await item.getByRole('link', { name: courseTitle }).click();

    await expect(learnerPage.getByTestId('study-assignment')).toContainText('не начат');
    await learnerPage
      .getByRole('navigation', { name: 'Содержание курса' })
      .getByRole('button', { name: /Правила безопасности/ })
      .click();
    await learnerPage.getByRole('button', { name: 'Завершить урок' }).click();
    await expect(learnerPage.getByTestId('study-assignment')).toContainText('завершён');
    // Said once: not «завершён · Завершён».
    await expect(learnerPage.getByTestId('study-assignment')).not.toContainText('Завершён');
    const [download] = await Promise.all([
      learnerPage.waitForEvent('download'),
      learnerPage.getByRole('button', { name: 'Скачать сертификат' }).click(),
    ]);
    const number = /certificate-(C-\d{4}-[A-Z0-9]{8})\.pdf/.exec(download.suggestedFilename())?.[1];
    expect(number).toBeTruthy();
    expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

    // 3. Anyone checks the number on the public page.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/verify/${number}`);
    const valid = visitor.getByTestId('certificate-valid');
    await expect(valid).toContainText('Сертификат действителен');
    await expect(valid).toContainText('Петрова Мария Ивановна');
    await expect(valid).toContainText(courseTitle);
    await expect(valid).toContainText('4 часа');
    await visitor.goto('/verify/C-2020-ZZZZZZZZ');
    await expect(visitor.getByTestId('certificate-invalid')).toContainText('не найден');
    // A malformed number is not found either, with the format as a hint.
    await visitor.goto('/verify/12345');
    await expect(visitor.getByTestId('certificate-invalid')).toContainText('Сертификат с таким номером не найден');
    await expect(visitor.getByTestId('certificate-invalid')).toContainText('Номер сертификата имеет вид C-ГГГГ-XXXXXXXX');
    await Promise.all([learnerContext.close(), visitorContext.close()]);

    // 4. The curator's report: one of two completed, the other not started; the XLSX downloads.
    await page.getByRole('link', { name: courseTitle }).click();
    const report = page.getByTestId('assignment-report');
    await expect(report).toContainText('Назначено2');
    await expect(report).toContainText('Завершили1');
    await expect(report).toContainText('Выполнено50%');
    await expect(page.getByRole('row', { name: /Сидоров Пётр Петрович/ })).toContainText('не начат');
    await expect(page.getByRole('row', { name: /Петрова Мария Ивановна/ })).toContainText(number!);
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Экспорт XLSX' }).click()]);
    expect(xlsx.suggestedFilename()).toBe('assignment_report.xlsx');
    const sheet = await readXlsx(await readFile((await xlsx.path())!));
    expect(sheet.rows[0]).toEqual([...ASSIGNMENT_EXPORT_HEADER]);
    expect(
      sheet.rows
        .slice(1)
        .map((r) => `${String(r[0])}: ${String(r[3])}`)
        .sort(),
    ).toEqual(['Петрова Мария Ивановна: завершён', 'Сидоров Пётр Петрович: не начат']);

    // 5. The clock passes the due day (a week and a day later, 09:00 in Moscow): Пётр is overdue in the report and in its XLSX.
    await moveProgressClock(new Date(`${dayFromToday(8)}T09:00:00+03:00`));
    await page.reload();
    await expect(report).toContainText('Просрочили1');
    await expect(report).toContainText('Завершили1');
    await expect(page.getByRole('row', { name: /Сидоров Пётр Петрович/ })).toContainText('просрочен');
    const [late] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Экспорт XLSX' }).click()]);
    const lateSheet = await readXlsx(await readFile((await late.path())!));
    expect(
      lateSheet.rows
        .slice(1)
        .map((r) => `${String(r[0])}: ${String(r[3])}`)
        .sort(),
    ).toEqual(['Петрова Мария Ивановна: завершён', 'Сидоров Пётр Петрович: просрочен']);
  },
);

test('a curator assigns a course to one named person found by name; that person sees it in the bell and under «Мои назначения» in the header', async ({
  browser,
  page,
  request,
}) => {
  // Two people's sign-ins, the directory search and the reminders worker's mail: past 30 s on a 2-core machine running the walk beside it.
  test.setTimeout(90_000);
  // A person with no department, as client@portal.local is: before, only «Все обучающиеся» reached them.
  const title = `Пожарная безопасность ${tag}`;
  const curator = { authorization: `Bearer ${await tokenFor(request, CURATOR)}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { headers: curator, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string };
  };
  const course = await post('/api/courses', { title, description: 'Инструктаж', isPublished: true, duration: 1 });
  const module = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Огнетушители' });
  await post('/api/blocks', {
    courseId: course.id,
    moduleId: module.id,
    title: 'Виды огнетушителей',
    status: 'published',
    content: [{ type: 'text', content: { text: 'Порошковый, углекислотный, водный.' } }],
  });
  const email = uniqueEmail('named');
  const fullName = `Одинцова Ксения ${tag}`;
  // With the consent, as the form sends it: a person is assigned only once they have given it.
  const registered = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName, role: 'CLIENT', consentVersion: CONSENT_DOCUMENT.version },
  });
  expect(registered.status()).toBe(201);

  await signIn(page, CURATOR.email, CURATOR.password, '/assignments');
  const form = page.getByRole('form', { name: 'Назначить курс' });
  await form.getByLabel('Курс').selectOption({ label: title });
  await form.getByLabel('Кому').selectOption({ label: 'Выбранные сотрудники' });
  await form.getByRole('searchbox', { name: 'Найти сотрудника' }).fill(`Одинцова Ксения ${tag}`);
  await form.getByRole('button', { name: `Выбрать: ${fullName}` }).click();
  await expect(form.getByRole('list', { name: 'Выбранные сотрудники' })).toHaveText(new RegExp(fullName));
  await expect(form.getByRole('button', { name: `${fullName}: выбран` })).toBeDisabled();
  await expectAccessible(page, 'выбор сотрудников для назначения');
  await form.getByLabel('Срок').fill(dayFromToday(14));
  await form.getByRole('button', { name: 'Назначить' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Курс «${title}» назначен` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Назначения' }).getByRole('row', { name: new RegExp(title) })).toContainText(
    'Выбранные сотрудники: 1',
  );

  // The notification is written by the reminders worker: waited for over the API.
  const learner = { authorization: `Bearer ${await tokenFor(request, { email, password: PASSWORD })}` };
  await expect
    .poll(
      async () => ((await (await request.get('/api/notifications', { headers: learner })).json()) as { unread: number }).unread,
    )
    .toBe(1);
  const learnerContext = await browser.newContext();
  const learnerPage = await learnerContext.newPage();
  try {
    await signIn(learnerPage, email, PASSWORD, '/dashboard');
    await learnerPage.getByRole('button', { name: 'Уведомления: 1 непрочитанное' }).click();
    const bell = learnerPage.getByRole('dialog', { name: 'Уведомления' });
    await expect(bell.getByTestId('notification').filter({ hasText: `Вам назначен курс «${title}»` })).toBeVisible();
    await bell.getByRole('button', { name: 'Закрыть' }).click();
    await learnerPage.getByRole('navigation', { name: 'Учётная запись' }).getByRole('link', { name: 'Мои назначения' }).click();
    await expect(learnerPage).toHaveURL(/\/courses\?filter=assigned$/);
    await expect(learnerPage.getByRole('list', { name: 'Мои назначения' }).getByTestId('assigned-course')).toContainText(title);
  } finally {
    await learnerContext.close();
  }
});
