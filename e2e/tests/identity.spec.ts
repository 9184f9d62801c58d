import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, signIn, signInThroughForm, uniqueEmail, watchConsole } from './helpers';

const registerOnAuth = async (
  page: Page,
  fields: { fullName: string; email: string; password: string; confirm: string; role?: string; consent?: boolean },
) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Нет аккаунта? Зарегистрироваться' }).click();
  await expect(page.getByRole('heading', { name: 'Регистрация' })).toBeVisible();
  await page.getByLabel('Полное имя').fill(fields.fullName);
  await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('Пароль', { exact: true }).fill(fields.password);
  await page.getByLabel('Подтвердите пароль').fill(fields.confirm);
  if (fields.role) await page.getByRole('combobox', { name: 'Роль' }).selectOption(fields.role);
  if (fields.consent ?? true)
    await page.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check();
};

test('a new candidate registers on /auth and lands on /courses, and the session survives a reload', async ({ page }) => {
  const errors = watchConsole(page);
  await registerOnAuth(page, {
    fullName: 'Мария Новикова',
    email: uniqueEmail('maria'),
    password: 'Kursy-Portal-42',
    confirm: 'Kursy-Portal-42',
  });
  await expect(page.getByLabel('Роль').locator('option')).toHaveText(['Клиент', 'Кандидат', 'Куратор']);
  await page.getByRole('button', { name: 'Зарегистрироваться', exact: true }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();
  // Learners get no staff navigation.
  await expect(page.getByRole('navigation', { name: 'Основная навигация' })).toHaveCount(0);
  await page.reload();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
  expect(errors).toEqual([]);
});

test('the application is approved by an ADMIN and the curator’s navigation appears', async ({ page, browser }) => {
  const errors = watchConsole(page);
  const fullName = `Кира Заявкина ${Date.now().toString(36)}`;
  await registerOnAuth(page, {
    fullName,
    email: uniqueEmail('applicant'),
    password: 'Kursy-Portal-42',
    confirm: 'Kursy-Portal-42',
    role: 'CURATOR',
  });
  await expect(page.getByText('Роль «Куратор» назначает администратор')).toBeVisible();
  await page.getByRole('button', { name: 'Зарегистрироваться', exact: true }).click();

  // Registered as a candidate with a pending application: the dashboard says so, no staff navigation.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('application-notice')).toContainText(
    'Заявка на роль «Куратор» ожидает подтверждения администратора',
  );
  await expect(page.getByTestId('dashboard-subtitle')).toContainText('Кандидат');
  await expect(page.getByRole('navigation', { name: 'Основная навигация' })).toHaveCount(0);

  const admin = await (await browser.newContext()).newPage();
  try {
    await signIn(admin, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
    const applications = admin.getByTestId('applications');
    await applications.getByRole('button', { name: `Одобрить заявку ${fullName}` }).click();
    await expect(applications.getByRole('status')).toHaveText(`${fullName}: Заявка одобрена: роль «Куратор» назначена`);
    await expect(applications.getByRole('listitem', { name: `Заявка: ${fullName}` })).toHaveCount(0);
  } finally {
    await admin.context().close();
  }

  await page.reload();
  const nav = page.getByRole('navigation', { name: 'Основная навигация' });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Пользователи' })).toBeVisible();
  await expect(page.getByTestId('dashboard-subtitle')).toContainText('Куратор');
  await expect(page.getByTestId('application-notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('registration errors show under their fields, all at once, with focus on the first and no browser alert', async ({
  page,
}) => {
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await registerOnAuth(page, {
    fullName: 'Пётр',
    email: uniqueEmail('p'),
    password: 'Kursy-Portal-42',
    confirm: 'Kursy-Portal-43',
  });
  const submit = page.getByRole('button', { name: 'Зарегистрироваться', exact: true });
  await submit.click();
  const confirm = page.getByLabel('Подтвердите пароль');
  await expect(confirm).toHaveAccessibleDescription('Пароли не совпадают');
  await expect(confirm).toHaveAttribute('aria-invalid', 'true');
  await expect(confirm).toBeFocused();

  await page.getByLabel('Полное имя').fill('');
  await page.getByLabel('Email').fill('');
  await submit.click();
  const name = page.getByLabel('Полное имя');
  await expect(name).toHaveAccessibleDescription('Пожалуйста, введите ваше имя');
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Пожалуйста, заполните все поля');
  await expect(confirm).toHaveAccessibleDescription('Пароли не совпадают');
  await expect(name).toBeFocused();
  await expectAccessible(page, 'the registration form with its errors');

  // A corrected field loses its message at once.
  await name.fill('Пётр');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  expect(browserDialogs).toEqual([]);
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong password shows the server message in the red box above the form', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Email').fill('admin@portal.local');
  await page.getByLabel('Пароль', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page.getByTestId('auth-error')).toHaveText('Неверный email или пароль');
  await expect(page).toHaveURL(/\/auth$/);
});

test('the preset picker signs the administrator in to /dashboard with the staff navigation', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Выбрать тестовый аккаунт' }).click();
  const picker = page.getByRole('list', { name: 'Тестовые аккаунты' });
  await expect(picker.getByRole('button')).toHaveCount(5);
  await expect(picker).toContainText('Управляет пользователями и организациями');
  await picker.getByRole('button', { name: /Администратор/ }).click();
  await expect(page.getByLabel('Email')).toHaveValue('admin@portal.local');
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Основная навигация' });
  await expect(nav.getByRole('link')).toHaveText([
    'Учебный портал',
    'Главная',
    'Курсы',
    'Результаты',
    // With the count of attempts waiting, when other journeys left some.
    /^Проверка ответов/,
    'Назначения',
    'Программы',
    'Организации',
    'Пользователи',
    'Запросы ПДн',
  ]);
  await expect(nav.getByRole('link', { name: 'Главная' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Организации' }).click();
  await expect(page).toHaveURL(/\/crm\/orgs$/);
});

test('a candidate opening /crm/orgs sees access denied with both roles, and Назад goes back', async ({ page }) => {
  await signInThroughForm(page, 'candidate@portal.local', 'Portal-Kan-2026');
  await expect(page).toHaveURL(/\/courses$/);
  await page.goto('/crm/orgs');
  await expect(page.getByRole('heading', { name: 'Доступ запрещён' })).toBeVisible();
  await expect(page.getByText('У вас недостаточно прав для доступа к этой странице.')).toBeVisible();
  await expect(page.getByText('Ваша роль: Кандидат')).toBeVisible();
  await expect(page.getByText('Требуемые роли: Администратор, Куратор, Менеджер')).toBeVisible();
  await expect(page.locator('[data-mf="mf_crm"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Назад' }).click();
  await expect(page).toHaveURL(/\/courses$/);
});

test('a guest continues without registering', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Продолжить как гость' }).click();
  await expect(page).toHaveURL(/\/courses$/);
});

test('an anonymous visitor of a protected page is sent to /auth, which remembers the page', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);
});

test('signing in returns to the deep link asked for while signed out', async ({ page, request }) => {
  const admin = await request.post('/api/auth/login', { data: { email: 'admin@portal.local', password: 'Portal-Glav-2026' } });
  const headers = { Authorization: `Bearer ${((await admin.json()) as { token: string }).token}` };
  const title = `Возврат после входа ${uniqueEmail('c')}`;
  const created = await request.post('/api/courses', { headers, data: { title, isPublished: true } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/student/${id}`);
  await expect(page).toHaveURL(new RegExp(`/auth\\?next=%2Fstudent%2F${id}$`));
  await page.getByLabel('Email').fill('candidate@portal.local');
  await page.getByLabel('Пароль', { exact: true }).fill('Portal-Kan-2026');
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/student/${id}$`));
  await expect(page.locator('[data-mf="mf_player"]')).toContainText(title);
});

test('a return address leading off the portal is ignored: sign-in goes home', async ({ page }) => {
  await page.goto('/auth?next=%2F%2Fexample.org%2Fsteal');
  await page.getByLabel('Email').fill('client@portal.local');
  await page.getByLabel('Пароль', { exact: true }).fill('Portal-Kli-2026');
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/courses$/);
});

test('a tampered token is dropped and the user is sent to /auth', async ({ page }) => {
  await signInThroughForm(page, 'curator@portal.local', 'Portal-Kur-2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.evaluate(() => {
    const token = localStorage.getItem('authToken')!;
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')));
    const forged = btoa(JSON.stringify({ ...claims, role: 'ADMIN' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    localStorage.setItem('authToken', `${h}.${forged}.${s}`);
  });
  await page.reload();
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});

test('the theme is dark by default and the choice survives a reload', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Включить светлую тему' }).click();
  await expect(page.locator('html')).not.toHaveClass(/(^|\s)dark(\s|$)/);
  expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('false');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Включить тёмную тему' })).toBeVisible();
  await expect(page.locator('html')).not.toHaveClass(/(^|\s)dark(\s|$)/);
});

test('/register offers the roles a person may choose themselves, never «Администратор»', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByLabel(/Роль/).locator('option')).toHaveText(['Клиент', 'Кандидат', 'Куратор']);
  await expect(page.getByLabel(/Пароль администратора/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /данные администратора/ })).toHaveCount(0);
});

test('a learner has no staff navigation but sees their name and can sign out', async ({ page }) => {
  await signInThroughForm(page, 'client@portal.local', 'Portal-Kli-2026');
  await expect(page).toHaveURL(/\/courses$/);
  const account = page.getByRole('navigation', { name: 'Учётная запись' });
  await expect(account).toContainText('Дмитрий Соколов · Клиент');
  await expect(page.getByRole('navigation', { name: 'Основная навигация' })).toHaveCount(0);
  await account.getByRole('button', { name: 'Выйти', exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  await page.goto('/courses');
  await expect(page).toHaveURL(/\/auth\?next=%2Fcourses$/);
});

test('a learner goes from the courses to their dashboard and their results through the header', async ({ page }) => {
  const errors = watchConsole(page);
  await signInThroughForm(page, 'candidate@portal.local', 'Portal-Kan-2026');
  await expect(page).toHaveURL(/\/courses$/);
  const account = page.getByRole('navigation', { name: 'Учётная запись' });
  await expect(account.getByRole('link')).toHaveText([
    'Учебный портал',
    'Главная',
    'Курсы',
    'Мои назначения',
    'Мои программы',
    'Мои результаты',
    'Сертификаты',
  ]);
  await expect(account.getByRole('link', { name: 'Курсы' })).toHaveAttribute('aria-current', 'page');

  await account.getByRole('link', { name: 'Главная' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('[data-mf="mf_dashboard"]')).toBeVisible();
  await expect(account.getByRole('link', { name: 'Главная' })).toHaveAttribute('aria-current', 'page');
  await expect(account.getByRole('link', { name: 'Курсы' })).not.toHaveAttribute('aria-current', 'page');

  await account.getByRole('link', { name: 'Мои результаты' }).click();
  await expect(page).toHaveURL(/\/results$/);
  await expect(page.getByRole('heading', { name: 'Результаты квизов' })).toBeVisible();
  await expect(account.getByRole('link', { name: 'Мои результаты' })).toHaveAttribute('aria-current', 'page');
  expect(errors).toEqual([]);
});

test('the manager reaches their results from the header', async ({ page }) => {
  await signInThroughForm(page, 'manager@portal.local', 'Portal-Men-2026');
  const account = page.getByRole('navigation', { name: 'Учётная запись' });
  await account.getByRole('link', { name: 'Мои результаты' }).click();
  await expect(page).toHaveURL(/\/results$/);
  await expect(page.getByRole('heading', { name: 'Результаты квизов' })).toBeVisible();
});

test('the manager opens the organizations and the users from the header', async ({ page }) => {
  await signInThroughForm(page, 'manager@portal.local', 'Portal-Men-2026');
  const account = page.getByRole('navigation', { name: 'Учётная запись' });
  await account.getByRole('link', { name: 'Организации' }).click();
  await expect(page).toHaveURL(/\/crm\/orgs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Организации' })).toBeVisible();
  await expect(account.getByRole('link', { name: 'Организации' })).toHaveAttribute('aria-current', 'page');
  await account.getByRole('link', { name: 'Пользователи' }).click();
  await expect(page).toHaveURL(/\/crm\/contacts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Пользователи' })).toBeVisible();
});

test('a learner opens their assignments and certificates from the header', async ({ page }) => {
  await signInThroughForm(page, 'client@portal.local', 'Portal-Kli-2026');
  const account = page.getByRole('navigation', { name: 'Учётная запись' });
  await account.getByRole('link', { name: 'Мои назначения' }).click();
  await expect(page).toHaveURL(/\/courses\?filter=assigned$/);
  await expect(account.getByRole('link', { name: 'Мои назначения' })).toHaveAttribute('aria-current', 'page');
  await expect(account.getByRole('link', { name: 'Курсы' })).not.toHaveAttribute('aria-current', 'page');
  await account.getByRole('link', { name: 'Сертификаты' }).click();
  await expect(page).toHaveURL(/\/results\?section=certificates$/);
  await expect(page.getByRole('heading', { name: 'Мои сертификаты' })).toBeFocused();
});
