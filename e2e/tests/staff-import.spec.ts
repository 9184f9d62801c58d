import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';

const HEADER = 'ФИО;Email;Подразделение;Должность;Роль';

test('an administrator previews a staff file, imports it with a progress bar, gets the links, and a second upload changes nothing', async ({
  page,
}) => {
  const t = `${Date.now().toString(36)}`;
  const file = {
    name: 'штат.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `\uFEFF${[
        HEADER,
        `Складова Нина Петровна;nina.${t}@example.test;Склад;Кладовщик;Клиент`,
        `Учётов Павел Ильич;pavel.${t}@example.test;Бухгалтерия;Бухгалтер;Кандидат`,
        `Без Почты;нет-почты;Склад;Грузчик;Клиент`,
      ].join('\r\n')}`,
    ),
  };

  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026', '/crm/contacts');
  await page.getByRole('button', { name: 'Импорт сотрудников' }).click();
  await expect(page.getByRole('heading', { name: 'Импорт сотрудников', level: 1 })).toBeVisible();
  await page.getByLabel('Файл с сотрудниками').setInputFiles(file);

  // The preview: each row's outcome, the error with its reason; nothing written yet.
  await expect(page.getByTestId('import-counts')).toHaveText('Новых: 2 · изменений: 0 · без изменений: 0 · с ошибками: 1');
  const rows = page.getByTestId('import-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Новый');
  await expect(rows.nth(2)).toContainText('Ошибка');
  await expect(rows.nth(2)).toContainText('Некорректный email');
  await expectAccessible(page, 'staff import preview');

  await page.getByRole('button', { name: 'Импортировать (2)' }).click();
  await expect(page.getByTestId('import-result')).toHaveText('Новых: 2 · изменений: 0 · без изменений: 0 · с ошибками: 1');
  await expect(page.getByRole('progressbar', { name: 'Импорт сотрудников' })).toHaveAttribute('aria-valuenow', '100');
  // No mail server in the journeys: the one-time links are listed for the administrator.
  const links = page.getByRole('list', { name: 'Ссылки для установки пароля' }).getByRole('listitem');
  await expect(links).toHaveCount(2);
  await expect(links.first()).toContainText(/\/auth\/reset\?token=/);

  // The same file again: nothing to do.
  await page.getByLabel('Файл с сотрудниками').setInputFiles(file);
  await expect(page.getByTestId('import-counts')).toHaveText('Новых: 0 · изменений: 0 · без изменений: 2 · с ошибками: 1');
  await expect(page.getByRole('button', { name: 'Нечего импортировать' })).toBeDisabled();

  // The directory has them, with department and position.
  await page.goto('/crm/contacts');
  await page.getByRole('searchbox', { name: 'Поиск пользователей' }).fill(`nina.${t}`);
  await expect(page.getByRole('article', { name: 'Складова Нина Петровна' }).getByTestId('user-place')).toHaveText(
    'Кладовщик, Склад',
  );
});

test('a curator may not import an administrator: the row is refused in the preview', async ({ page }) => {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026', '/crm/staff-import');
  await page.getByLabel('Файл с сотрудниками').setInputFiles({
    name: 'admins.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${HEADER}\r\nГлавный Админ Иванович;boss.${Date.now().toString(36)}@example.test;Дирекция;Директор;Администратор`,
    ),
  });
  await expect(page.getByTestId('import-row')).toContainText('Куратор не может назначить роль «Администратор»');
  await expect(page.getByRole('button', { name: 'Нечего импортировать' })).toBeDisabled();
});
