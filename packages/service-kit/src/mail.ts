import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { createTransport } from 'nodemailer';
import { DEFAULT_PORTS } from '@portal/contracts';
import type { BaseConfig } from './config';
import type { Logger } from './logger';
import { unwatchQueue, watchQueue, watchWorker } from './metrics';
import { withTimeout } from './timeout';
import { closeWorker } from './workers';

export interface MailMessage {
  /**
   * One per message: the queue keeps one job per key, so the same mail asked for twice (a retried
   * request, two replicas running the same reminder) is sent once. A fresh id when not given.
   */
  key?: string;
  to: string;
  subject: string;
  text: string;
  /** The same words as HTML (composeMail makes both): the mail is then multipart/alternative. */
  html?: string;
}

/**
 * Mail through a BullMQ queue in Redis («mail»): `send` puts the message in the queue and any
 * process with a sender (every service with SMTP_URL, every replica) delivers it, with retries and
 * growing waits in the queue, so a process stopping before its retry loses nothing. `send` never
 * throws and never holds a request up: callers leave its promise alone.
 */
export interface Mailer {
  readonly enabled: boolean;
  /** True once the message is in the queue; false when mail is off or Redis refused it (logged). */
  send(message: MailMessage): Promise<boolean>;
  close(): Promise<void>;
}

export const MAIL_QUEUE = 'mail';

/** Where the portal's links lead when PUBLIC_URL is not set: the launcher's gateway on this machine. */
export const DEVELOPMENT_PUBLIC_URL = `http://127.0.0.1:${DEFAULT_PORTS.gateway}`;

/** A portal path (`/auth/reset?token=…`) as the absolute link a mail carries. */
export const portalLink = (config: Pick<BaseConfig, 'PUBLIC_URL'>, path: string): string =>
  new URL(path, config.PUBLIC_URL ?? DEVELOPMENT_PUBLIC_URL).toString();

export interface MailQueueOptions {
  /** The queue's Redis connection (commands fail fast: a send must not hang a request). */
  connection: Redis;
  /** BullMQ key prefix (QUEUE_PREFIX). */
  prefix?: string;
  /** Tries per message, the first included. */
  attempts?: number;
  /** The wait before the second try; each later wait is twice the one before. */
  firstRetryMs?: number;
}

const ATTEMPTS = 5;
const FIRST_RETRY_MS = 2_000;

const jobOptions = (attempts: number, firstRetryMs: number): JobsOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: firstRetryMs },
  // A sent message's id is kept a day, so the same key asked for again within it is not sent twice.
  removeOnComplete: { age: 24 * 3600 },
  removeOnFail: { age: 7 * 24 * 3600 }, // kept a week for inspection
});

/** BullMQ refuses `:` in a job id; keys are written with `|`. */
const jobIdOf = (key: string) => key.replaceAll(':', '|');

/**
 * The mailer of a service: off (one info line at start) when SMTP_URL is not set; otherwise it puts
 * messages in the mail queue. Production refuses SMTP_URL without PUBLIC_URL (the links would lead nowhere).
 */
export function createMailer(
  config: Pick<BaseConfig, 'NODE_ENV' | 'SMTP_URL' | 'PUBLIC_URL'>,
  logger: Logger,
  options: MailQueueOptions,
): Mailer {
  if (!config.SMTP_URL) {
    logger.info('mail is off: SMTP_URL is not set');
    return { enabled: false, send: async () => false, close: async () => undefined };
  }
  if (config.NODE_ENV === 'production' && !config.PUBLIC_URL)
    throw new Error(
      'Invalid configuration:\n  - PUBLIC_URL: must be set in production when SMTP_URL is (the links in mails lead there)',
    );
  const { connection, prefix, attempts = ATTEMPTS, firstRetryMs = FIRST_RETRY_MS } = options;
  const queue = new Queue(MAIL_QUEUE, { connection, prefix, defaultJobOptions: jobOptions(attempts, firstRetryMs) });
  queue.on('error', () => undefined); // connection errors are logged once by the connection itself
  watchQueue(queue);
  return {
    enabled: true,
    async send({ key, ...message }) {
      try {
        await withTimeout(queue.add('mail', message, { jobId: jobIdOf(key ?? randomUUID()) }), 3000);
        return true;
      } catch (err) {
        logger.error(
          { to: message.to, subject: message.subject, err: (err as Error).message },
          'mail not queued: Redis refused it',
        );
        return false;
      }
    },
    async close() {
      unwatchQueue(queue);
      await queue.close();
    },
  };
}

export interface MailContent {
  /** Whom the greeting names («Здравствуйте, Анна Смирнова!»); none, «Здравствуйте!». */
  greetingName?: string;
  paragraphs: string[];
  /** Someone's own words (a curator's message): a paragraph of their own, under who said them. */
  quote?: { by: string; text: string };
  link?: { label: string; url: string };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const AUTOMATIC = 'Это письмо отправлено автоматически, отвечать на него не нужно.';

/** A mail's plain text and its HTML from the same parts: the greeting, the paragraphs, a quote, a link, the footer. */
export function composeMail({ greetingName, paragraphs, quote, link }: MailContent): { text: string; html: string } {
  const greeting = greetingName ? `Здравствуйте, ${greetingName}!` : 'Здравствуйте!';
  const text = [
    greeting,
    ...paragraphs,
    ...(quote ? [`${quote.by}:\n«${quote.text}»`] : []),
    ...(link ? [`${link.label}: ${link.url}`] : []),
    AUTOMATIC,
  ].join('\n\n');
  const p = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const html = [
    '<!doctype html><html lang="ru"><head><meta charset="utf-8"></head>',
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a26">',
    p(escapeHtml(greeting)),
    ...paragraphs.map((paragraph) => p(escapeHtml(paragraph))),
    ...(quote
      ? [
          p(escapeHtml(`${quote.by}:`)),
          `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:3px solid #29519e;color:#333">${escapeHtml(quote.text)}</blockquote>`,
        ]
      : []),
    ...(link ? [p(`<a href="${escapeHtml(link.url)}" style="color:#29519e">${escapeHtml(link.label)}</a>`)] : []),
    `<p style="margin:24px 0 0;font-size:13px;color:#666">${escapeHtml(AUTOMATIC)}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}

/** The address of `MAIL_FROM` (`Name <address>` or a bare address). */
const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();

export interface MailSender {
  worker: Worker;
  close(): Promise<void>;
}

/**
 * Delivers the mail queue's messages through SMTP (nodemailer), a few at a time. A failure is
 * logged and the queue tries again after a growing wait; the last failure is logged as given up and
 * the job is kept a week. The job id is the message's Message-ID too: should a process die between
 * the server's acceptance and the job's completion, the queue sends it again with the same id, which
 * mail servers and clients take for one message.
 */
export function startMailSender(
  config: Pick<BaseConfig, 'SMTP_URL' | 'MAIL_FROM' | 'SITE_NAME'>,
  logger: Logger,
  { connection, prefix, concurrency = 4 }: { connection: Redis; prefix?: string; concurrency?: number },
): MailSender {
  if (!config.SMTP_URL) throw new Error('startMailSender needs SMTP_URL');
  const transport = createTransport(
    { url: config.SMTP_URL, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 },
    {
      // The sender's name is the portal's (SITE_NAME), one setting for every mail.
      from: { name: config.SITE_NAME, address: addressOf(config.MAIL_FROM) },
      // RFC 3834: out-of-office and other automatic replies leave the portal's mails alone
      // (X-Auto-Response-Suppress: Exchange and Outlook's own word for it).
      headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
    },
  );
  const server = new URL(config.SMTP_URL).host;
  const worker = new Worker<Omit<MailMessage, 'key'>>(
    MAIL_QUEUE,
    async (job: Job<Omit<MailMessage, 'key'>>) => {
      const { to, subject, text, html } = job.data;
      const info = await transport.sendMail({ to, subject, text, html, messageId: `<${job.id}@portal.mail>` });
      logger.info({ to, subject, messageId: info.messageId }, 'mail sent');
    },
    { connection, prefix, concurrency },
  );
  worker.on('error', () => undefined); // connection errors are logged once by the connection itself
  worker.on('failed', (job, err) => {
    if (!job) return;
    const { to, subject } = job.data;
    const tries = job.opts.attempts ?? 1;
    if (job.attemptsMade >= tries)
      logger.error({ to, subject, server, attempts: tries, err: err.message }, 'mail not sent: giving up');
    else logger.warn({ to, subject, server, attempt: job.attemptsMade, err: err.message }, 'mail not sent: will retry');
  });
  watchWorker(worker);
  logger.info({ server }, 'mail goes through SMTP');
  return {
    worker,
    async close() {
      await closeWorker(worker);
      transport.close();
    },
  };
}
