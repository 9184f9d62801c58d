import { createLogger, createMailer, createRedis, startMailSender } from '@portal/service-kit';
import { ensureMailCatcher } from './mailCatcher';
import { uniquePrefix } from './testing';
import { freePort, portAnswers, waitFor } from './util';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// The catcher `npm start` runs when SMTP_URL is not set: MailDev, for real, on free ports.
jest.setTimeout(30_000);

it('starts MailDev, which takes the services’ mail and shows it on its web page, and stops', async () => {
  const configured = process.env.SMTP_URL;
  delete process.env.SMTP_URL;
  const [smtpPort, webPort] = [await freePort(), await freePort()];
  const catcher = await ensureMailCatcher({ smtpPort, webPort }).finally(() => {
    if (configured !== undefined) process.env.SMTP_URL = configured;
  });
  try {
    expect(catcher.smtpUrl).toBe(`smtp://127.0.0.1:${smtpPort}`);
    expect(catcher.webUrl).toBe(`http://127.0.0.1:${webPort}/`);
    const config = {
      NODE_ENV: 'development' as const,
      SMTP_URL: catcher.smtpUrl,
      MAIL_FROM: 'noreply@portal.local',
      SITE_NAME: 'Учебный портал',
    };
    const logger = createLogger('mail-test', 'silent');
    const [redis, connection] = [createRedis(REDIS_URL, logger, { failFast: true }), createRedis(REDIS_URL, logger)];
    const prefix = uniquePrefix().replace(/_$/, '');
    const mailer = createMailer({ ...config, PUBLIC_URL: undefined }, logger, { connection: redis, prefix });
    const sender = startMailSender(config, logger, { connection, prefix });
    await expect(mailer.send({ to: 'anna@example.test', subject: 'Письмо в MailDev', text: 'Здравствуйте!' })).resolves.toBe(
      true,
    );
    type Listed = Array<{ subject: string; to: Array<{ address: string }> }>;
    const listed = async () => (await (await fetch(`${catcher.webUrl}api/email`)).json()) as Listed;
    await waitFor(async () => (await listed()).length > 0, 'the mail in MailDev', 10_000);
    await sender.close();
    await mailer.close();
    connection.disconnect();
    redis.disconnect();

    const mails = await listed();
    expect(mails).toEqual([
      expect.objectContaining({ subject: 'Письмо в MailDev', to: [expect.objectContaining({ address: 'anna@example.test' })] }),
    ]);
    const page = await fetch(catcher.webUrl!, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<script[^>]+src="[^"]*assets\/index-[^"]+\.js"/);
  } finally {
    await catcher.process?.stop();
  }
  expect(await portAnswers(smtpPort)).toBe(false);
  expect(await portAnswers(webPort)).toBe(false);
});
