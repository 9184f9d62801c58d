import { expect, test } from '@playwright/test';
import { expectAccessible, signInThroughForm, uniqueEmail } from './helpers';

const CHECKBOX = 'Я даю согласие на обработку персональных данных';
const PASSWORD = 'Kursy-Portal-42';

test('registration asks for consent with its own unticked checkbox, the text to read, and an inline message', async ({
  page,
}) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Нет аккаунта? Зарегистрироваться' }).click();
  await page.getByLabel('Полное имя').fill('Согласна Анна');
  await page.getByLabel('Email').fill(uniqueEmail('consent-reg'));
  await page.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Подтвердите пароль').fill(PASSWORD);
  const checkbox = page.getByRole('checkbox', { name: CHECKBOX });
  await expect(checkbox).not.toBeChecked();

  // Not ticked: nothing is sent, the message is under the checkbox.
  await page.getByRole('button', { name: 'Зарегистрироваться', exact: true }).click();
  await expect(checkbox).toHaveAccessibleDescription('Подтвердите согласие на обработку персональных данных');
  await expect(page).toHaveURL(/\/auth$/);

  // The text can be read before agreeing.
  await page.getByRole('button', { name: 'Прочитать текст согласия' }).click();
  const text = page.getByRole('dialog', { name: 'Согласие на обработку персональных данных' });
  await expect(text).toContainText('Цель обработки — организация обучения');
  await expectAccessible(page, 'consent text');
  await text.getByRole('button', { name: 'Закрыть', exact: true }).last().click();
  await expect(text).toBeHidden();

  await checkbox.check();
  await expect(checkbox).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Зарегистрироваться', exact: true }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();
  // The consent was recorded with the account: nothing asks again, and the account menu shows it.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: /Согласна Анна/ }).click();
  await page.getByRole('button', { name: 'Согласие на обработку данных' }).click();
  const mine = page.getByRole('dialog', { name: 'Согласие на обработку данных' });
  await expect(mine).toContainText(/Дано \d+ [а-я]+ \d{4} г\. \(редакция от/);
});

test('the first sign-in of an account without consent asks for it, and nothing else can be done until given', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('consent-first');
  const registered = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, fullName: 'Прежний Пётр', role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);

  await signInThroughForm(page, email, PASSWORD);
  const asking = page.getByRole('dialog', { name: 'Согласие на обработку персональных данных' });
  await expect(asking).toBeVisible();
  await expect(asking).toContainText('Чтобы продолжить работу на портале');
  await expectAccessible(page, 'consent asked at sign-in');
  // It cannot be dismissed: Escape leaves it open, and «Принять» waits for the checkbox.
  await page.keyboard.press('Escape');
  await expect(asking).toBeVisible();
  const accept = asking.getByRole('button', { name: 'Принять' });
  await expect(accept).toBeDisabled();
  await expect(asking.getByRole('checkbox', { name: CHECKBOX })).not.toBeChecked();

  await asking.getByRole('checkbox', { name: CHECKBOX }).check();
  await accept.click();
  await expect(asking).toBeHidden();
  // Given once, it is not asked again after a reload.
  await page.reload();
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a person withdraws their consent from the account menu after a confirmation, and the portal asks again', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('consent-withdraw');
  const registered = await request.post('/api/auth/register', {
    data: {
      email,
      password: PASSWORD,
      fullName: 'Отзывающая Ольга',
      role: 'CANDIDATE',
      consentVersion: await currentVersion(request),
    },
  });
  expect(registered.status()).toBe(201);
  await signInThroughForm(page, email, PASSWORD);
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();

  await page.getByRole('button', { name: /Отзывающая Ольга/ }).click();
  await page.getByRole('button', { name: 'Согласие на обработку данных' }).click();
  const mine = page.getByRole('dialog', { name: 'Согласие на обработку данных' });
  await expect(mine).toContainText('Дано');
  await mine.getByRole('button', { name: 'Отозвать согласие' }).click();
  const confirm = page.getByRole('dialog', { name: 'Отозвать согласие' });
  await expect(confirm).toContainText('обезличит ваши данные');
  // Cancelling changes nothing.
  await confirm.getByRole('button', { name: 'Отмена' }).click();
  await expect(confirm).toBeHidden();
  await mine.getByRole('button', { name: 'Отозвать согласие' }).click();
  await page.getByRole('dialog', { name: 'Отозвать согласие' }).getByRole('button', { name: 'Отозвать' }).click();
  await expect(mine).toContainText('Согласие отозвано. Администратор обезличит ваши данные в течение 30 дней');
  await mine.getByRole('button', { name: 'Закрыть' }).click();

  // Without consent in force, the portal asks for it again.
  await expect(page.getByRole('dialog', { name: 'Согласие на обработку персональных данных' })).toBeVisible();
  const state = await request.get('/api/consent', {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('authToken'))}` },
  });
  expect(((await state.json()) as { required: boolean }).required).toBe(true);
});

async function currentVersion(request: import('@playwright/test').APIRequestContext): Promise<string> {
  return ((await (await request.get('/api/consent/document')).json()) as { version: string }).version;
}
