import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { AuthResponse } from '@portal/contracts';
import { signIn, uniqueEmail } from './helpers';

const PASSWORD = 'Kursy-Portal-42';

/** A fresh client of its own, so ending its sessions touches no other journey. */
async function arrangePerson(request: APIRequestContext, tag: string) {
  const email = uniqueEmail(tag);
  // Unique, so the directory shows this person's card alone.
  const fullName = `Сеансов Проверяющий ${email.split('.')[1]}`;
  const made = await request.post('/api/auth/register', { data: { email, password: PASSWORD, fullName, role: 'CLIENT' } });
  expect(made.status()).toBe(201);
  return { email, fullName, ...((await made.json()) as AuthResponse) };
}

const account = (page: Page) => page.getByRole('navigation', { name: 'Учётная запись' });
const coursesAnswer = (request: APIRequestContext, token: string) =>
  request.get('/api/courses', { headers: { authorization: `Bearer ${token}` } });

test('logout in one tab ends the session in another, which lands on /auth', async ({ page, request }) => {
  const person = await arrangePerson(request, 'tabs');
  await signIn(page, person.email, PASSWORD, '/courses');
  await expect(account(page)).toContainText(person.fullName);
  const token = await page.evaluate(() => localStorage.getItem('authToken'));

  const other = await page.context().newPage();
  await other.goto('/results');
  await expect(account(other)).toContainText(person.fullName);

  await account(page).getByRole('button', { name: 'Выйти', exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // The other tab follows at once, and comes back to its page after signing in.
  await expect(other).toHaveURL(/\/auth\?next=%2Fresults$/);
  // And the session is over on the server, not only in the browser.
  expect((await coursesAnswer(request, token!)).status()).toBe(401);
});

test('«Выйти на всех устройствах» ends the session of another browser at its next request', async ({ browser, request }) => {
  const person = await arrangePerson(request, 'everywhere');
  const laptop = await (await browser.newContext()).newPage();
  const phone = await (await browser.newContext()).newPage();
  try {
    await signIn(laptop, person.email, PASSWORD, '/courses');
    await signIn(phone, person.email, PASSWORD, '/courses');
    await expect(account(laptop)).toContainText(person.fullName);

    await account(phone)
      .getByRole('button', { name: /Сеансов Проверяющий/ })
      .click();
    await account(phone).getByRole('button', { name: 'Выйти на всех устройствах' }).click();
    const ask = phone.getByRole('dialog', { name: 'Выйти на всех устройствах' });
    await ask.getByRole('button', { name: 'Выйти везде' }).click();
    await expect(phone).toHaveURL(/\/auth$/);

    // The laptop has its own token; the server refuses it on the next request, and the page follows.
    await account(laptop).getByRole('link', { name: 'Мои результаты' }).click();
    await expect(laptop).toHaveURL(/\/auth\?next=%2Fresults$/);
  } finally {
    await laptop.context().close();
    await phone.context().close();
  }
});

test('«Сменить пароль» names a wrong current password under its field, then changes it', async ({ page, request }) => {
  const person = await arrangePerson(request, 'change');
  await signIn(page, person.email, PASSWORD, '/courses');
  await account(page)
    .getByRole('button', { name: /Сеансов Проверяющий/ })
    .click();
  await account(page).getByRole('button', { name: 'Сменить пароль' }).click();
  const dialog = page.getByRole('dialog', { name: 'Смена пароля' });

  await dialog.getByLabel('Текущий пароль').fill('не-тот-пароль');
  await dialog.getByLabel('Новый пароль', { exact: true }).fill('Novyi-Parol-77');
  await dialog.getByLabel('Повторите новый пароль').fill('Novyi-Parol-77');
  await dialog.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Текущий пароль указан неверно');
  await expect(dialog.getByLabel('Текущий пароль')).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByLabel('Текущий пароль').fill(PASSWORD);
  await dialog.getByLabel('Новый пароль', { exact: true }).fill('qwerty123');
  await dialog.getByLabel('Повторите новый пароль').fill('qwerty123');
  await dialog.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(dialog.getByRole('alert')).toContainText('слишком распространён');

  await dialog.getByLabel('Новый пароль', { exact: true }).fill('Novyi-Parol-77');
  await dialog.getByLabel('Повторите новый пароль').fill('Novyi-Parol-77');
  await dialog.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Пароль изменён. Остальные сеансы завершены');
  await dialog.getByRole('button', { name: 'Готово' }).click();

  // This tab stays signed in; the new password is the one that works.
  await page.reload();
  await expect(account(page)).toContainText(person.fullName);
  const withOld = await request.post('/api/auth/login', { data: { email: person.email, password: PASSWORD } });
  expect(withOld.status()).toBe(401);
  const withNew = await request.post('/api/auth/login', { data: { email: person.email, password: 'Novyi-Parol-77' } });
  expect(withNew.status()).toBe(200);
});

test('an administrator’s reset link lets the person set a new password once', async ({ page, browser, request }) => {
  const person = await arrangePerson(request, 'reset');
  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
  await page.getByRole('searchbox', { name: 'Поиск пользователей' }).fill(person.email);
  const card = page.getByRole('article', { name: person.fullName });
  await card.getByRole('button', { name: `Редактировать пользователя ${person.fullName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Редактирование пользователя' });
  await dialog.getByRole('button', { name: 'Создать ссылку для смены пароля' }).click();
  const link = dialog.getByLabel(`Ссылка для ${person.fullName}`);
  await expect(link).toHaveValue(/\/auth\/reset\?token=/);
  const url = await link.inputValue();

  const visitor = await (await browser.newContext()).newPage();
  try {
    await visitor.goto(url);
    await visitor.getByLabel('Новый пароль').fill('Svezhii-Parol-5');
    await visitor.getByLabel('Повторите пароль').fill('Svezhii-Parol-5');
    await visitor.getByRole('button', { name: 'Сохранить пароль' }).click();
    await expect(visitor.getByRole('status')).toHaveText('Пароль установлен. Войдите с новым паролем');
    expect((await coursesAnswer(request, person.token)).status()).toBe(401);

    // Used once: a second visit is refused in words.
    await visitor.goto(url);
    await visitor.getByLabel('Новый пароль').fill('Eshche-Odin-Parol-6');
    await visitor.getByLabel('Повторите пароль').fill('Eshche-Odin-Parol-6');
    await visitor.getByRole('button', { name: 'Сохранить пароль' }).click();
    await expect(visitor.getByRole('alert')).toHaveText(
      'Ссылка для смены пароля недействительна: она устарела или уже использована',
    );
  } finally {
    await visitor.context().close();
  }
  const signedIn = await request.post('/api/auth/login', { data: { email: person.email, password: 'Svezhii-Parol-5' } });
  expect(signedIn.status()).toBe(200);
});
