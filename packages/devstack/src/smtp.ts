import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './util';

export interface CaughtMail {
  /** `Name <address>`, decoded. */
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, when the mail has one. */
  html?: string;
  /** The message as it came over SMTP: headers and MIME parts, undecoded. */
  raw: string;
}

export interface SmtpCatcher {
  /** smtp://127.0.0.1:<port>, for a service's SMTP_URL. */
  url: string;
  /** Every mail received so far, decoded, in the order they arrived. */
  mails: CaughtMail[];
  /** Waits (bounded) until `count` mails addressed to `to` have arrived, and returns them. */
  mailsTo(to: string, count?: number, timeoutMs?: number): Promise<CaughtMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback for tests (the `smtp-server` package over TCP, as MailDev is
 * built on): plain SMTP without authentication, on `port` (a free one by default).
 */
export async function startSmtpCatcher(port = 0): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const sender = parsed.from?.value[0];
            mails.push({
              from: sender ? `${sender.name} <${sender.address}>` : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              ...(parsed.html ? { html: parsed.html } : {}),
              raw: raw.toString('utf8'),
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: listening } = server.server.address() as AddressInfo;
  const to = (address: string) => mails.filter((mail) => mail.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${listening}`,
    mails,
    async mailsTo(address, count = 1, timeoutMs = 5_000) {
      await waitFor(async () => to(address).length >= count, `${count} mail(s) to ${address}`, timeoutMs);
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
