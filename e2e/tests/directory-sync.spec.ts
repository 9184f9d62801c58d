import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';

/**
 * The directory sync's screen against the e2e stack's real OpenLDAP (global-setup.ts: 12 people in
 * departments of their own, everyone CLIENT): the configuration without the password, a preview
 * that changes nobody, its people, then the apply, after which the directory's people are users.
 */
test('an administrator previews the directory, sees each person’s outcome, applies it, and the people are users', async ({
  page,
}) => {
  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
  await page.getByRole('button', { name: 'Синхронизация с каталогом' }).click();
  await expect(page).toHaveURL(/\/crm\/directory-sync$/);
  await expect(page.getByRole('heading', { name: 'Синхронизация с каталогом (LDAP)', level: 1 })).toBeVisible();
  const config = page.getByRole('region', { name: 'Настройки' });
  await expect(config).toContainText(/ldap:\/\/127\.0\.0\.1:\d+/);
  await expect(config).toContainText('задан (не показывается)');
  await expect(config).toContainText('ou=people,dc=example,dc=ru');

  await page.getByRole('button', { name: 'Предпросмотр' }).click();
  const latest = page.getByTestId('directory-run').first();
  await expect(latest).toContainText('Предпросмотр');
  await expect(latest).toContainText('Завершён', { timeout: 20_000 });
  await expect(latest).toContainText('прочитано 12 (страниц: 1) · новый: 12');
  await latest.getByRole('button', { name: 'Сотрудники запуска' }).click();
  const people = page.getByTestId('directory-person');
  await expect(people).toHaveCount(12);
  await expect(people.nth(3)).toContainText('Смирнов Алексей Алексеевич');
  await expect(people.nth(3)).toContainText('Каталог: Бухгалтерия');
  await expectAccessible(page, 'directory sync preview');

  // The preview changed nobody: the person is not a user yet.
  await page.getByRole('button', { name: 'Применить предпросмотр' }).click();
  const applied = page.getByTestId('directory-run').first();
  await expect(applied).toContainText('Применение');
  await expect(applied).toContainText('Завершён', { timeout: 20_000 });
  await expect(applied).toContainText('новый: 12');

  await page.goto('/crm/contacts');
  await page.getByRole('searchbox', { name: 'Поиск пользователей' }).fill('p00003@example.ru');
  await expect(page.getByRole('article', { name: 'Смирнов Алексей Алексеевич' }).getByTestId('user-place')).toHaveText(
    'Начальник отдела, Каталог: Бухгалтерия',
  );
});
