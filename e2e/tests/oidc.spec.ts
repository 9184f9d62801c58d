import { expect, test, type Page } from '@playwright/test';
import { E2E_OIDC_PORT } from '../env';

/**
 * The corporate sign-in through a real OpenID provider (oidc-provider, started by the global setup
 * with the account below) and its own login page: the first sign-in makes the person and the portal
 * asks for the consent; a second sign-in, after signing out (at the provider too), finds the same person.
 */
const PROVIDER = `http://127.0.0.1:${E2E_OIDC_PORT}`;
const CONSENT = 'Согласие на обработку персональных данных';

/** From /auth to the provider's login page and back; the person lands where a password sign-in would. */
async function signInAtProvider(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Войти через корпоративный аккаунт' }).click();
  await expect(page).toHaveURL(new RegExp(`^${PROVIDER}/`));
  await page.locator('input[name="login"]').fill('sokolova');
  await page.locator('input[name="password"]').fill('любой пароль');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page).toHaveURL(/\/courses$/);
}

const profileOf = (page: Page) =>
  page.evaluate(async () => {
    const answer = await fetch('/api/auth/profile', {
      headers: { authorization: `Bearer ${localStorage.getItem('authToken')}` },
    });
    return ((await answer.json()) as { user: { id: string; email: string; role: string; department: string; fullName: string } })
      .user;
  });

test('a person signs in through the company’s provider: made at the first sign-in and asked for the consent, found again the next time', async ({
  page,
}) => {
  await signInAtProvider(page);
  const asking = page.getByRole('dialog', { name: CONSENT });
  await expect(asking).toBeVisible();
  await asking.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check();
  await asking.getByRole('button', { name: 'Принять' }).click();
  await expect(asking).toBeHidden();
  const first = await profileOf(page);
  expect(first).toMatchObject({
    email: 'sokolova@corp.example.ru',
    fullName: 'Соколова Анна Игоревна',
    department: 'Отдел продаж',
    role: 'CLIENT',
  });
  await expect(page.getByRole('navigation', { name: 'Учётная запись' })).toContainText('Соколова');

  // Signing out ends the session at the provider too (its own page asks), and comes back to /auth.
  await page.getByRole('navigation', { name: 'Учётная запись' }).getByRole('button', { name: 'Выйти', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${PROVIDER}/session/end`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

  // The second time: the provider's login page again, the same person, and no consent asked again.
  await signInAtProvider(page);
  expect((await profileOf(page)).id).toBe(first.id);
  await expect(page.getByRole('navigation', { name: 'Учётная запись' })).toContainText('Соколова');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a refused answer of the provider comes back to /auth with a Russian message', async ({ page }) => {
  await page.goto('/api/auth/oidc/callback?code=forged&state=never-issued');
  await expect(page).toHaveURL(/\/auth\?ssoError=state$/);
  await expect(page.getByTestId('auth-error')).toHaveText('Попытка входа устарела или уже использована. Начните вход заново');
  // The password form is still there for those who use one (LOCAL_LOGIN=all).
  await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
});
