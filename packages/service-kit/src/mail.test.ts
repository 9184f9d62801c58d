import { startSmtpCatcher } from '@portal/devstack/smtp';
import { freePort } from '@portal/devstack/util';
import { createLogger } from './logger';
import { createMailer, portalLink } from './mail';

const config = { NODE_ENV: 'test' as const, MAIL_FROM: 'Портал обучения <noreply@portal.local>', PUBLIC_URL: undefined };
const message = { to: 'anna@example.test', subject: 'Проверка', text: 'Текст письма' };

const quietLogger = () => {
  const logger = createLogger('mail-test', 'silent');
  return {
    logger,
    info: jest.spyOn(logger, 'info'),
    warn: jest.spyOn(logger, 'warn'),
    error: jest.spyOn(logger, 'error'),
  };
};

describe('the mailer', () => {
  it('is off without SMTP_URL, says so once, and sends nothing', async () => {
    const { logger, info } = quietLogger();
    const mailer = createMailer({ ...config, SMTP_URL: undefined }, logger);
    expect(mailer.enabled).toBe(false);
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith('mail is off: SMTP_URL is not set');
    await expect(mailer.send(message)).resolves.toBe(false);
  });

  it('tries a bounded number of times with growing waits, logging each failure, then gives up', async () => {
    const { logger, warn, error } = quietLogger();
    const mailer = createMailer({ ...config, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }, logger, {
      attempts: 3,
      firstRetryMs: 20,
    });
    await expect(mailer.send(message)).resolves.toBe(false);
    expect(warn.mock.calls.map(([fields]) => (fields as { retryInMs: number }).retryInMs)).toEqual([20, 80]);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ to: message.to, attempts: 3 }), 'mail not sent: giving up');
    mailer.close();
  });

  it('delivers on a retry once the server is back', async () => {
    const { logger, warn } = quietLogger();
    const port = await freePort();
    const mailer = createMailer({ ...config, SMTP_URL: `smtp://127.0.0.1:${port}` }, logger, { attempts: 3, firstRetryMs: 300 });
    const failedOnce = new Promise<void>((resolve) => warn.mockImplementationOnce(() => resolve()));
    const sent = mailer.send(message);
    let smtp: Awaited<ReturnType<typeof startSmtpCatcher>> | undefined;
    try {
      await failedOnce;
      smtp = await startSmtpCatcher(port);
      await expect(sent).resolves.toBe(true);
      expect(smtp.mails).toEqual([expect.objectContaining({ to: [message.to], subject: 'Проверка', from: config.MAIL_FROM })]);
    } finally {
      mailer.close();
      await smtp?.close();
    }
  });

  it('drops its waiting retries when closed', async () => {
    const { logger, warn } = quietLogger();
    const mailer = createMailer({ ...config, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }, logger, {
      firstRetryMs: 60_000,
    });
    const failedOnce = new Promise<void>((resolve) => warn.mockImplementationOnce(() => resolve()));
    const sent = mailer.send(message);
    await failedOnce;
    mailer.close();
    await expect(sent).resolves.toBe(false);
  });

  it('refuses to start in production without PUBLIC_URL, as its links would lead nowhere', () => {
    expect(() =>
      createMailer({ ...config, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.test:25' }, quietLogger().logger),
    ).toThrow(/PUBLIC_URL/);
  });

  it('makes absolute links on PUBLIC_URL', () => {
    expect(portalLink({ PUBLIC_URL: 'https://learn.example.ru' }, '/auth/reset?token=a%2Bb')).toBe(
      'https://learn.example.ru/auth/reset?token=a%2Bb',
    );
    expect(portalLink({ PUBLIC_URL: undefined }, '/auth/reset')).toBe('http://127.0.0.1:8080/auth/reset');
  });
});
