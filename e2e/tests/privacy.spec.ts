import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectAccessible, signIn, uniqueEmail } from './helpers';

test('an administrator exports a person’s data and then anonymises them, with the act, from the directory', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('subject');
  const fullName = `Субъект Данных ${Date.now().toString(36)}`;
  const registered = await request.post('/api/auth/register', {
    data: { email, password: 'Kursy-Portal-42', fullName, role: 'CANDIDATE' },
  });
  expect(registered.status()).toBe(201);

  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
  await page.getByRole('searchbox', { name: 'Поиск пользователей' }).fill(email);
  const card = page.getByRole('article', { name: fullName });
  await card.getByRole('button', { name: `Персональные данные: ${fullName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Персональные данные: ${fullName}` });
  await expectAccessible(page, 'personal data dialog');

  // Export: filed, then downloaded as JSON; the file holds the person's profile.
  await dialog.getByRole('button', { name: 'Сформировать выгрузку' }).click();
  const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Скачать JSON' }).click()]);
  expect(json.suggestedFilename()).toMatch(/^personal-data-[0-9a-f]{24}\.json$/);
  // What a person reads: Russian names of sections and fields, no store internals.
  const exported = JSON.parse(await readFile((await json.path())!, 'utf8')) as {
    Данные: { Профиль: Array<Record<string, string>> };
  };
  expect(exported['Данные']['Профиль']).toEqual([expect.objectContaining({ Email: email, ФИО: fullName })]);
  const [xlsx] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Скачать XLSX' }).click()]);
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);

  // Anonymisation asks first, saying what cannot be undone; cancelling changes nothing.
  await dialog.getByRole('button', { name: 'Обезличить…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Обезличить данные' });
  await expect(confirm).toContainText(`${fullName} (${email})`);
  await expect(confirm).toContainText('Отменить это нельзя');
  await confirm.getByRole('button', { name: 'Отмена' }).click();
  await expect(confirm).toBeHidden();
  await dialog.getByRole('button', { name: 'Обезличить…' }).click();
  await confirm.getByRole('button', { name: 'Обезличить', exact: true }).click();
  await expect(dialog.getByText(/^Данные обезличены\. Теперь это «Удалённый пользователь №\d+»/)).toBeVisible();
  const [act] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Скачать акт (PDF)' }).click(),
  ]);
  expect((await readFile((await act.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The directory no longer finds them by their email; the requests list keeps both, done.
  await expect(page.getByText('Пользователи не найдены')).toBeVisible();
  await page.getByRole('navigation', { name: 'Основная навигация' }).getByRole('link', { name: 'Запросы ПДн' }).click();
  await expect(page.getByRole('heading', { name: 'Запросы субъектов ПДн', level: 1 })).toBeVisible();
  const rows = page.getByTestId('subject-request').filter({ hasText: 'Удалённый пользователь №' });
  await expect(rows.first()).toBeVisible();
  const anonymised = page.getByRole('article', { name: /^Обезличивание: Удалённый пользователь №/ }).first();
  await expect(anonymised.getByTestId('subject-status')).toHaveText('Выполнен');
  await expect(anonymised).toContainText('основание: решение администратора');
  await expect(anonymised.getByRole('button', { name: 'Скачать акт (PDF)' })).toBeVisible();
  await expectAccessible(page, 'subject requests');
});

test('the data-subject requests screen is the administrator’s alone', async ({ page }) => {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026', '/crm/subject-requests');
  await expect(page.getByRole('heading', { name: 'Доступ запрещён' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Основная навигация' }).getByRole('link', { name: 'Запросы ПДн' }),
  ).toHaveCount(0);
});
