import { expect, test } from '@playwright/test';
import { CONSENT_DOCUMENT, MSG } from '@portal/contracts';
import { startSmtpCatcher } from '@portal/devstack/smtp';
import { signInThroughForm, startOwnPortal, uniqueEmail } from './helpers';

// The journeys' stack sends no mail (the staff import lists its links instead): this journey asks
// through a portal of its own (startOwnPortal) whose auth service has a test SMTP server, so the
// shared stack stays as it is and the journey runs beside the others.
test('«Забыли пароль?» mails a one-time link, which sets a new password to sign in with', async ({ page, request }) => {
  const email = uniqueEmail('forgot');
  const registered = await request.post('/api/auth/register', {
    data: {
      email,
      password: 'Kursy-Portal-42',
      fullName: 'Забывчивая Ольга',
      role: 'CLIENT',
      consentVersion: CONSENT_DOCUMENT.version,
    },
  });
  expect(registered.status()).toBe(201);

  const smtp = await startSmtpCatcher();
  const own = await startOwnPortal({ auth: { SMTP_URL: smtp.url } });
  try {
    await page.goto(`${own.url}/auth`);
    await page.getByRole('button', { name: 'Забыли пароль?' }).click();
    await expect(page.getByRole('heading', { name: 'Восстановление пароля' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await expect(page.getByRole('status')).toHaveText(MSG.resetRequested);

    const [mail] = await smtp.mailsTo(email, 1, 15_000);
    expect(mail.subject).toBe('Ссылка для смены пароля на портале обучения');
    const link = /https?:\/\/\S+\/auth\/reset\?token=\S+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    await page.goto(link!);
    await page.getByLabel('Новый пароль').fill('Svezhii-Parol-5');
    await page.getByLabel('Повторите пароль').fill('Svezhii-Parol-5');
    await page.getByRole('button', { name: 'Сохранить пароль' }).click();
    await expect(page.getByRole('status')).toHaveText(MSG.passwordReset);

    await signInThroughForm(page, email, 'Svezhii-Parol-5');
    await expect(page).toHaveURL(/\/courses$/);
    const withOld = await request.post('/api/auth/login', { data: { email, password: 'Kursy-Portal-42' } });
    expect(withOld.status()).toBe(401);
  } finally {
    await own.close();
    await smtp.close();
  }
});
