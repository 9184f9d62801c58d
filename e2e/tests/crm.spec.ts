import { completeInn } from '@portal/contracts';
import { expect, test, type APIRequestContext, type Dialog, type Page } from '@playwright/test';
import { expectAccessible, signIn, uniqueEmail, watchConsole } from './helpers';

const today = new Intl.DateTimeFormat('ru-RU', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'Europe/Moscow',
}).format(new Date());
const uniqueInn = () => completeInn(`77${Date.now().toString().slice(-7)}`);

/** Records (and dismisses) every browser alert or confirm from now on: deletions must use the portal's dialog. */
function watchBrowserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog: Dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return seen;
}

// A refused request (409, 403) is logged by Chromium itself; that is the expected answer, not a fault.
const realErrors = (errors: string[]) => errors.filter((e) => !/Failed to load resource/.test(e));

/** An organization made over the API by the curator (for journeys that are not about creating it). */
async function arrangeOrganization(request: APIRequestContext, contacts: Array<Record<string, string>> = []) {
  const login = await request.post('/api/auth/login', { data: { email: 'curator@portal.local', password: 'Portal-Kur-2026' } });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const name = `ООО Маршрут ${Date.now().toString(36)}`;
  const inn = uniqueInn();
  const org = await request.post('/api/organizations', { headers, data: { name, inn, site: 'marshrut.example' } });
  expect(org.status()).toBe(201);
  const { id } = (await org.json()) as { id: string };
  for (const contact of contacts)
    expect((await request.post('/api/contacts', { headers, data: { ...contact, orgId: id } })).status()).toBe(201);
  return { id, name, inn };
}

/** Signs the curator in and opens the organization list filtered to one tax number. */
async function findByInn(page: Page, inn: string) {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026', '/crm/orgs');
  await page.getByRole('searchbox', { name: 'Поиск организаций' }).fill(inn);
  await expect(page.getByTestId('org-card')).toHaveCount(1);
}

test('a curator creates an organization from the list: the required fields first, and a taken inn is refused', async ({
  page,
}) => {
  const errors = watchConsole(page);
  const name = `ООО Маршрут ${Date.now().toString(36)}`;
  const inn = uniqueInn();
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026');
  await page.getByRole('navigation', { name: 'Основная навигация' }).getByRole('link', { name: 'Организации' }).click();
  await expect(page).toHaveURL(/\/crm\/orgs$/);
  await expect(page.getByRole('heading', { name: 'Организации', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Добавить организацию' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Новая организация' });
  await expect(createDialog).toBeVisible();
  const browserDialogs = watchBrowserDialogs(page);
  // The required fields say so under themselves, and the first one has the focus.
  await createDialog.getByRole('button', { name: 'Создать' }).click();
  await expect(createDialog.getByLabel('Название')).toHaveAccessibleDescription('Заполните обязательные поля');
  await expect(createDialog.getByLabel('ИНН')).toHaveAccessibleDescription('Заполните обязательные поля');
  await expect(createDialog.getByLabel('Название')).toBeFocused();
  await expectAccessible(page, 'the new-organization dialog with its errors');
  await createDialog.getByLabel('Название').fill(name);
  await createDialog.getByLabel('ИНН').fill(inn);
  await createDialog.getByLabel('Сайт').fill('marshrut.example');
  await expect(createDialog.getByLabel('Статус')).toHaveValue('ACTIVE');
  await createDialog.getByRole('button', { name: 'Создать' }).click();
  await expect(createDialog).toBeHidden();
  await expect(page.getByRole('article', { name })).toBeVisible();
  await expectAccessible(page, 'the organizations');

  // The same tax number again is refused with the server's reason.
  await page.getByRole('button', { name: 'Добавить организацию' }).click();
  await createDialog.getByLabel('Название').fill(`${name} (копия)`);
  await createDialog.getByLabel('ИНН').fill(inn);
  await createDialog.getByRole('button', { name: 'Создать' }).click();
  await expect(page.getByTestId('toast')).toHaveText(/Ошибка: Организация с таким ИНН уже существует/);
  expect(browserDialogs).toEqual([]);
  await createDialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(createDialog).toBeHidden();
  expect(realErrors(errors)).toEqual([]);
});

test('a curator finds an organization by inn, opens it, adds two contacts and deletes one', async ({ page, request }) => {
  const errors = watchConsole(page);
  const { name, inn } = await arrangeOrganization(request);
  await findByInn(page, inn);
  const card = page.getByRole('article', { name });
  await expect(card.getByTestId('org-status')).toHaveText('Активна');
  await expect(card).toContainText(inn);
  await expect(card).toContainText('0 контактов');
  await expect(card).toContainText(today);
  await expect(card.getByRole('link', { name: 'marshrut.example' })).toHaveAttribute('href', 'https://marshrut.example');

  await card.getByRole('link', { name: 'Подробнее' }).click();
  await expect(page).toHaveURL(/\/crm\/orgs\/[0-9a-f]{24}$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const contacts = [
    { fullName: 'Анна Кузнецова', email: 'anna@marshrut.example', phone: '+7 (495) 111-22-33', role: 'Директор' },
    { fullName: 'Борис Орлов', email: 'boris@marshrut.example', phone: '+7 900 000-00-01', role: 'Бухгалтер' },
  ];
  for (const c of contacts) {
    await page.getByRole('button', { name: 'Добавить контакт' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новый контакт' });
    await dialog.getByLabel('ФИО').fill(c.fullName);
    await dialog.getByLabel('Email').fill(c.email);
    await dialog.getByLabel('Телефон').fill(c.phone);
    await dialog.getByLabel('Должность').fill(c.role);
    await dialog.getByRole('button', { name: 'Добавить' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('listitem', { name: c.fullName })).toBeVisible();
  }
  await expect(page.getByTestId('contact')).toHaveCount(2);
  const anna = page.getByRole('listitem', { name: 'Анна Кузнецова' });
  await expect(anna.getByRole('link', { name: 'anna@marshrut.example' })).toHaveAttribute('href', 'mailto:anna@marshrut.example');
  await expect(anna.getByRole('link', { name: '+7 (495) 111-22-33' })).toHaveAttribute('href', 'tel:+74951112233');
  await expect(anna).toContainText('Директор');
  await expect(anna).toContainText(`Добавлен ${today}`);

  // Delete one contact, after the portal's confirmation (never the browser's own).
  const browserDialogs = watchBrowserDialogs(page);
  const deleteAnna = anna.getByRole('button', { name: 'Удалить контакт Анна Кузнецова' });
  await deleteAnna.click();
  const confirm = page.getByRole('dialog', { name: 'Удаление контакта' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'an organization with its delete question');
  await expect(confirm).toContainText('Вы уверены, что хотите удалить контакт "Анна Кузнецова"?');
  // The safe choice is focused; cancelling keeps the contact, and focus goes back to the button.
  await expect(confirm.getByRole('button', { name: 'Отмена' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Отмена' }).click();
  await expect(confirm).toBeHidden();
  await expect(deleteAnna).toBeFocused();
  await expect(page.getByTestId('contact')).toHaveCount(2);
  await deleteAnna.click();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('contact')).toHaveCount(2);
  await deleteAnna.click();
  await confirm.getByRole('button', { name: 'Удалить' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('contact')).toHaveCount(1);
  expect(browserDialogs).toEqual([]);
  await expect(page.getByRole('listitem', { name: 'Борис Орлов' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('contact')).toHaveCount(1);
  expect(realErrors(errors)).toEqual([]);
});

test('a curator makes an organization inactive, sees it on the list, and deletes it for good, even while a search is answered', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const { id, name, inn } = await arrangeOrganization(request, [
    { fullName: 'Борис Орлов', email: 'boris@marshrut.example', phone: '+7 900 000-00-01', role: 'Бухгалтер' },
  ]);
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026', `/crm/orgs/${id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Редактировать' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Редактирование организации' });
  await expect(editDialog.getByLabel('Название')).toHaveValue(name);
  await editDialog.getByLabel('Статус').selectOption({ label: 'Неактивна' });
  await editDialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(editDialog).toBeHidden();
  await expect(page.getByTestId('org-status')).toHaveText('Неактивна');

  // Back in the list the card shows the change; then the organization goes.
  await page.getByRole('link', { name: '← Все организации' }).click();
  await page.getByRole('searchbox', { name: 'Поиск организаций' }).fill(inn);
  const card = page.getByRole('article', { name });
  await expect(card.getByTestId('org-status')).toHaveText('Неактивна');
  await expect(card).toContainText('1 контакт');

  // The curator searches by the name instead and deletes from the card still on screen while that
  // search is answered; a busy server reads the list before the delete and answers after it. The
  // list must end as the server holds it after the delete, not with that earlier answer.
  let deleteAnswered!: () => void;
  const afterDelete = new Promise<void>((resolve) => (deleteAnswered = resolve));
  let searchRead!: () => void;
  const searchReadBeforeDelete = new Promise<void>((resolve) => (searchRead = resolve));
  await page.route(
    (url) => url.pathname === '/api/organizations' && url.searchParams.get('search') === name,
    async (route) => {
      const response = await route.fetch();
      searchRead();
      await afterDelete;
      await route.fulfill({ response }).catch(() => undefined); // the page may have given up on it
    },
    { times: 1 },
  );
  page.on('response', (response) => {
    if (response.request().method() === 'DELETE' && new URL(response.url()).pathname === `/api/organizations/${id}`)
      deleteAnswered();
  });
  await page.getByRole('searchbox', { name: 'Поиск организаций' }).fill(name);
  await searchReadBeforeDelete;
  const browserDialogs = watchBrowserDialogs(page);
  await card.getByRole('button', { name: `Удалить организацию ${name}` }).click();
  const confirmOrg = page.getByRole('dialog', { name: 'Удаление организации' });
  await expect(confirmOrg).toContainText(`Вы уверены, что хотите удалить организацию "${name}"?`);
  await confirmOrg.getByRole('button', { name: 'Удалить' }).click();
  await expect(page.getByText('Организации не найдены')).toBeVisible();
  await expect(page.getByTestId('org-card')).toHaveCount(0);
  expect(browserDialogs).toEqual([]);

  // Gone for good, not just from the page.
  await page.goto('/crm/orgs');
  await page.getByRole('searchbox', { name: 'Поиск организаций' }).fill(inn);
  await expect(page.getByText('Организации не найдены')).toBeVisible();
  expect(realErrors(errors)).toEqual([]);
});

test('an organization that does not exist shows the load error in red', async ({ page }) => {
  await signIn(page, 'manager@portal.local', 'Portal-Men-2026', '/crm/orgs/000000000000000000000000');
  const error = page.getByRole('alert');
  await expect(error).toContainText('Ошибка загрузки организации');
  await expect(error).toContainText('Организация не найдена');
  await expect(error).toHaveCSS('color', /rgb\(255, 138, 128\)|rgb\(198, 40, 40\)/);
});

test('the directory searches by name, email or role label and filters by role', async ({ page }) => {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026');
  await page.getByRole('navigation', { name: 'Основная навигация' }).getByRole('link', { name: 'Пользователи' }).click();
  await expect(page).toHaveURL(/\/crm\/contacts$/);
  const search = page.getByRole('searchbox', { name: 'Поиск пользователей' });
  const counter = page.getByTestId('directory-count');
  await expect(counter).toHaveText(/^Все зарегистрированные пользователи: \d+$/);

  // The counter counts what the filters select, and says so.
  await search.fill('manager@portal');
  await expect(page.getByTestId('user-card')).toHaveCount(1);
  await expect(counter).toHaveText('Найден 1 пользователь по запросу «manager@portal»');
  await expect(page.getByTestId('user-role')).toHaveText('Менеджер');

  await search.fill('кандидат');
  await expect(page.getByRole('article').filter({ hasText: 'candidate@portal.local' })).toBeVisible();
  await expect(page.getByTestId('user-role').first()).toHaveText('Кандидат');

  await search.fill('');
  await page.getByRole('combobox', { name: 'Фильтр по роли' }).selectOption({ label: 'Администратор' });
  await expect(page.getByRole('article').filter({ hasText: 'admin@portal.local' })).toBeVisible();
  await expectAccessible(page, 'the user directory');
  for (const role of await page.getByTestId('user-role').allTextContents()) expect(role).toBe('Администратор');
  await expect(counter).toHaveText(/^Найден[о]? \d+ пользовател\S* с ролью «Администратор»$/);
  // A curator may not edit an administrator: no edit button on those cards.
  await expect(page.getByRole('button', { name: /^Редактировать пользователя/ })).toHaveCount(0);

  await search.fill('нет-такого-пользователя');
  await expect(page.getByText('Пользователи не найдены')).toBeVisible();
  await expect(counter).toHaveText('Найдено 0 пользователей с ролью «Администратор» по запросу «нет-такого-пользователя»');
});

/** A person registered over the API (as a candidate), made `role` by the administrator over the API. */
async function arrangePerson(request: APIRequestContext, tag: string, role: 'CANDIDATE' | 'CURATOR') {
  const email = uniqueEmail(tag);
  const fullName = `Сотрудник ${Date.now().toString(36)}`;
  const registered = await request.post('/api/auth/register', {
    data: { email, password: 'Kursy-Portal-42', fullName, role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);
  if (role !== 'CANDIDATE') {
    const { user } = (await registered.json()) as { user: { id: string; version: number } };
    const admin = await request.post('/api/auth/login', { data: { email: 'admin@portal.local', password: 'Portal-Glav-2026' } });
    const { token } = (await admin.json()) as { token: string };
    const changed = await request.patch(`/api/users/${user.id}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { fullName, email, role, version: user.version },
    });
    expect(changed.status()).toBe(200);
  }
  return { email, fullName, password: 'Kursy-Portal-42' };
}

/** The administrator, in the directory, gives the person the role labelled `label`. */
async function changeRoleInDirectory(adminPage: Page, person: { email: string; fullName: string }, label: string) {
  await adminPage.getByRole('searchbox', { name: 'Поиск пользователей' }).fill(person.email);
  const card = adminPage.getByRole('article', { name: person.fullName });
  await card.getByRole('button', { name: `Редактировать пользователя ${person.fullName}` }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Редактирование пользователя' });
  await expect(dialog.getByLabel('Email')).toHaveValue(person.email);
  await dialog.getByLabel('Роль').selectOption({ label });
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('user-role')).toHaveText(label);
}

test('a candidate made a curator in the directory is signed out, and signed in again has the new rights', async ({
  browser,
  request,
}) => {
  const person = await arrangePerson(request, 'promoted', 'CANDIDATE');
  const userPage = await (await browser.newContext()).newPage();
  const adminPage = await (await browser.newContext()).newPage();
  try {
    // The candidate is turned away from the CRM.
    await signIn(userPage, person.email, person.password, '/crm/orgs');
    await expect(userPage.getByRole('heading', { name: 'Доступ запрещён' })).toBeVisible();
    await expectAccessible(userPage, 'access denied');

    await signIn(adminPage, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
    await changeRoleInDirectory(adminPage, person, 'Куратор');

    // A role change ends the person's sessions: the page asks them to sign in, and comes back.
    await userPage.reload();
    await expect(userPage).toHaveURL(/\/auth\?next=/);
    await userPage.getByLabel('Email').fill(person.email);
    await userPage.getByLabel('Пароль', { exact: true }).fill(person.password);
    await userPage.getByRole('button', { name: 'Войти', exact: true }).click();
    await expect(userPage.getByRole('heading', { name: 'Организации', level: 1 })).toBeVisible();
    await expect(userPage.getByText('Ошибка загрузки организаций')).toHaveCount(0);
  } finally {
    await userPage.context().close();
    await adminPage.context().close();
  }
});

test('a curator made a client in the directory is signed out at the very next action of the page already open', async ({
  browser,
  request,
}) => {
  const person = await arrangePerson(request, 'demoted', 'CURATOR');
  const userPage = await (await browser.newContext()).newPage();
  const adminPage = await (await browser.newContext()).newPage();
  try {
    await signIn(userPage, person.email, person.password, '/crm/orgs');
    await expect(userPage.getByRole('heading', { name: 'Организации', level: 1 })).toBeVisible();

    await signIn(adminPage, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
    await changeRoleInDirectory(adminPage, person, 'Клиент');

    await userPage.getByRole('button', { name: 'Добавить организацию' }).click();
    const create = userPage.getByRole('dialog', { name: 'Новая организация' });
    await create.getByLabel('Название').fill('Не должна появиться');
    await create.getByLabel('ИНН').fill(uniqueInn());
    userPage.on('dialog', (dialog) => void dialog.dismiss());
    await create.getByRole('button', { name: 'Создать' }).click();
    await expect(userPage).toHaveURL(/\/auth\?next=/);
    const admin = await request.post('/api/auth/login', { data: { email: 'admin@portal.local', password: 'Portal-Glav-2026' } });
    const { token } = (await admin.json()) as { token: string };
    const found = await request.get('/api/organizations?search=' + encodeURIComponent('Не должна появиться'), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await found.json()) as { total: number }).total).toBe(0);
  } finally {
    await userPage.context().close();
    await adminPage.context().close();
  }
});
