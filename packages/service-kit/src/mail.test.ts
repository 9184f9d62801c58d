import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Queue } from 'bullmq';
import { startSmtpCatcher, type SmtpCatcher } from '@portal/devstack/smtp';
import { uniquePrefix } from '@portal/devstack/testing';
import { freePort, ROOT, waitFor } from '@portal/devstack/util';
import { createLogger } from './logger';
import { MAIL_QUEUE, createMailer, portalLink, startMailSender } from './mail';
import { createRedis } from './redis';

jest.setTimeout(60_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const config = {
  NODE_ENV: 'test' as const,
  SITE_NAME: 'Учебный портал',
  MAIL_FROM: 'noreply@portal.local',
  PUBLIC_URL: undefined,
};
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

/** A process of a service as far as mail goes (fixtures/mail-process.ts), with the events it printed. */
function mailProcess(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(__dirname, 'fixtures/mail-process.ts')],
    { cwd: ROOT, env: { ...process.env, REDIS_URL, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const events: Array<Record<string, unknown>> = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines.filter((l) => l.startsWith('{'))) events.push(JSON.parse(line) as Record<string, unknown>);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    events,
    saw: (key: string) => waitFor(async () => events.some((e) => key in e), `the mail process: ${key}`, 30_000),
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('the mailer', () => {
  it('is off without SMTP_URL, says so once, and sends nothing', async () => {
    const { logger, info } = quietLogger();
    const redis = createRedis(REDIS_URL, logger, { failFast: true });
    const mailer = createMailer({ ...config, SMTP_URL: undefined }, logger, { connection: redis });
    expect(mailer.enabled).toBe(false);
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith('mail is off: SMTP_URL is not set');
    await expect(mailer.send(message)).resolves.toBe(false);
    redis.disconnect();
  });

  it('refuses to start in production without PUBLIC_URL, as its links would lead nowhere', () => {
    const { logger } = quietLogger();
    const redis = createRedis(REDIS_URL, logger, { failFast: true });
    expect(() =>
      createMailer({ ...config, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.test:25' }, logger, { connection: redis }),
    ).toThrow(/PUBLIC_URL/);
    redis.disconnect();
  });

  it('makes absolute links on PUBLIC_URL', () => {
    expect(portalLink({ PUBLIC_URL: 'https://learn.example.ru' }, '/auth/reset?token=a%2Bb')).toBe(
      'https://learn.example.ru/auth/reset?token=a%2Bb',
    );
    expect(portalLink({ PUBLIC_URL: undefined }, '/auth/reset')).toBe('http://127.0.0.1:8080/auth/reset');
  });
});

describe('the mail queue', () => {
  let smtp: SmtpCatcher | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it('a mail queued by a process that is killed while the SMTP server is down is sent by another process, once', async () => {
    const prefix = uniquePrefix().replace(/_$/, '');
    const port = await freePort();
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    const queued = { key: 'assigned|a1|u1|', ...message, subject: 'Вам назначен курс' };
    // The first process queues the mail, fails to deliver it (nothing listens on the port) and is killed
    // while the queue waits to try again (4 s: killed while the mail waits, not while a try holds it).
    const first = mailProcess({
      QUEUE_PREFIX: prefix,
      SMTP_URL: smtpUrl,
      QUEUE_MESSAGE: JSON.stringify(queued),
      FIRST_RETRY_MS: '4000',
    });
    await first.saw('failed');
    expect(first.events).toContainEqual({ queued: true });
    await first.kill();

    smtp = await startSmtpCatcher(port);
    // Another process (another replica, or the same service restarted) takes the queue over.
    const second = mailProcess({ QUEUE_PREFIX: prefix, SMTP_URL: smtpUrl });
    try {
      await second.saw('ready');
      await smtp.mailsTo(message.to, 1, 30_000);
      await new Promise((r) => setTimeout(r, 2000)); // a second delivery would come by now
      expect(smtp.mails).toEqual([
        expect.objectContaining({
          to: [message.to],
          subject: 'Вам назначен курс',
          from: 'Учебный портал <noreply@portal.local>',
        }),
      ]);
    } finally {
      await second.kill();
    }
  });

  it('a mail queued while no sender runs is sent once a sender starts, and the same key queued twice is sent once', async () => {
    const prefix = uniquePrefix().replace(/_$/, '');
    smtp = await startSmtpCatcher();
    const key = 'reset|u2|1';
    const producer = mailProcess({
      QUEUE_PREFIX: prefix,
      SMTP_URL: smtp.url,
      SENDER: 'off',
      QUEUE_MESSAGE: JSON.stringify({ key, ...message }),
    });
    await producer.saw('ready');
    await producer.kill();
    const again = mailProcess({
      QUEUE_PREFIX: prefix,
      SMTP_URL: smtp.url,
      SENDER: 'off',
      QUEUE_MESSAGE: JSON.stringify({ key, ...message }),
    });
    await again.saw('ready');
    await again.kill();
    expect(smtp.mails).toEqual([]);

    const { logger } = quietLogger();
    const connection = createRedis(REDIS_URL, logger);
    const sender = startMailSender({ ...config, SMTP_URL: smtp.url }, logger, { connection, prefix });
    try {
      await smtp.mailsTo(message.to, 1, 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(smtp.mails).toHaveLength(1);
    } finally {
      await sender.close();
      connection.disconnect();
    }
  });

  it('tries a bounded number of times with growing waits, logging each failure, then gives up and keeps the job', async () => {
    const prefix = uniquePrefix().replace(/_$/, '');
    const { logger, warn, error } = quietLogger();
    const redis = createRedis(REDIS_URL, logger, { failFast: true });
    const connection = createRedis(REDIS_URL, logger);
    const smtpUrl = `smtp://127.0.0.1:${await freePort()}`;
    const mailer = createMailer({ ...config, SMTP_URL: smtpUrl }, logger, {
      connection: redis,
      prefix,
      attempts: 3,
      firstRetryMs: 50,
    });
    const sender = startMailSender({ ...config, SMTP_URL: smtpUrl }, logger, { connection, prefix });
    const queue = new Queue(MAIL_QUEUE, { connection: redis, prefix });
    try {
      await expect(mailer.send(message)).resolves.toBe(true);
      await waitFor(async () => error.mock.calls.length > 0, 'given up', 20_000);
      expect(warn.mock.calls.map(([fields]) => (fields as { attempt: number }).attempt)).toEqual([1, 2]);
      expect(error).toHaveBeenCalledWith(expect.objectContaining({ to: message.to, attempts: 3 }), 'mail not sent: giving up');
      expect(await queue.getJobCounts('failed')).toEqual({ failed: 1 });
    } finally {
      await sender.close();
      await mailer.close();
      await queue.close();
      connection.disconnect();
      redis.disconnect();
    }
  });
});
