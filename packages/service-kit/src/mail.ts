import { createTransport } from 'nodemailer';
import { DEFAULT_PORTS } from '@portal/contracts';
import type { BaseConfig } from './config';
import type { Logger } from './logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Mail through SMTP. `send` never throws and never holds a request up: callers leave its promise
 * alone (it settles when the message is delivered, true, or given up, false).
 */
export interface Mailer {
  readonly enabled: boolean;
  send(message: MailMessage): Promise<boolean>;
  /** Drops the retries still waiting and closes the connection. */
  close(): void;
}

/** Where the portal's links lead when PUBLIC_URL is not set: the launcher's gateway on this machine. */
export const DEVELOPMENT_PUBLIC_URL = `http://127.0.0.1:${DEFAULT_PORTS.gateway}`;

/** A portal path (`/auth/reset?token=…`) as the absolute link a mail carries. */
export const portalLink = (config: Pick<BaseConfig, 'PUBLIC_URL'>, path: string): string =>
  new URL(path, config.PUBLIC_URL ?? DEVELOPMENT_PUBLIC_URL).toString();

export interface MailerOptions {
  /** Tries per message, the first included. */
  attempts?: number;
  /** The wait before the second try; each later wait is four times the one before. */
  firstRetryMs?: number;
}

const ATTEMPTS = 3;
const FIRST_RETRY_MS = 2_000;

/**
 * The mailer of a service: off (one info line at start) when SMTP_URL is not set. A send that fails
 * is logged and tried again a bounded number of times, with growing waits; the retries live in this
 * process, so a message still waiting when it stops is lost (the log says it was not sent).
 */
export function createMailer(
  config: Pick<BaseConfig, 'NODE_ENV' | 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL'>,
  logger: Logger,
  { attempts = ATTEMPTS, firstRetryMs = FIRST_RETRY_MS }: MailerOptions = {},
): Mailer {
  if (!config.SMTP_URL) {
    logger.info('mail is off: SMTP_URL is not set');
    return { enabled: false, send: async () => false, close: () => undefined };
  }
  if (config.NODE_ENV === 'production' && !config.PUBLIC_URL)
    throw new Error(
      'Invalid configuration:\n  - PUBLIC_URL: must be set in production when SMTP_URL is (the links in mails lead there)',
    );
  const transport = createTransport(
    { url: config.SMTP_URL, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 },
    { from: config.MAIL_FROM },
  );
  const server = new URL(config.SMTP_URL).host;
  logger.info({ server }, 'mail goes through SMTP');
  const waits = new Map<NodeJS.Timeout, () => void>();
  let closed = false;

  const pause = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        waits.delete(timer);
        resolve(true);
      }, ms);
      timer.unref();
      waits.set(timer, () => resolve(false));
    });

  const send = async ({ to, subject, text }: MailMessage): Promise<boolean> => {
    for (let attempt = 1; !closed; attempt++) {
      try {
        const info = await transport.sendMail({ to, subject, text });
        logger.info({ to, subject, messageId: info.messageId }, 'mail sent');
        return true;
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        if (attempt >= attempts) {
          logger.error({ to, subject, server, attempts, err: reason }, 'mail not sent: giving up');
          return false;
        }
        const waitMs = firstRetryMs * 4 ** (attempt - 1);
        logger.warn({ to, subject, server, attempt, err: reason, retryInMs: waitMs }, 'mail not sent: will retry');
        if (!(await pause(waitMs))) break;
      }
    }
    logger.error({ to, subject }, 'mail not sent: the service stopped before a retry');
    return false;
  };

  return {
    enabled: true,
    send,
    close() {
      closed = true;
      for (const [timer, cancel] of waits) {
        clearTimeout(timer);
        cancel();
      }
      waits.clear();
      transport.close();
    },
  };
}
