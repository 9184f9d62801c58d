import { existsSync } from 'node:fs';
import path from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { ROOT, portAnswers, say, waitFor } from './util';

export interface MailCatcher {
  /** What the services get as SMTP_URL. */
  smtpUrl: string;
  /** Where a person reads the mails, when we know it. */
  webUrl?: string;
  /** The catcher the launcher started (stopped with the store and Redis). */
  process?: ManagedProcess;
}

/** MailDev's own default ports. */
export const CATCHER_SMTP_PORT = 1025;
export const CATCHER_WEB_PORT = 1080;

/**
 * The mail of `npm start`: SMTP_URL when it is set; the SMTP server already answering on
 * 127.0.0.1:1025; otherwise a MailDev we start (an npm dependency of the devstack, so `npm install`
 * provides it), which keeps the mails in memory and shows them on its web page.
 */
export async function ensureMailCatcher({
  smtpPort = CATCHER_SMTP_PORT,
  webPort = CATCHER_WEB_PORT,
}: { smtpPort?: number; webPort?: number } = {}): Promise<MailCatcher> {
  if (process.env.SMTP_URL) {
    say('mail: SMTP_URL');
    return { smtpUrl: process.env.SMTP_URL };
  }
  const smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  if (await portAnswers(smtpPort)) {
    say(`mail: the SMTP server already answering on 127.0.0.1:${smtpPort} (the mails are wherever it shows them)`);
    return { smtpUrl };
  }
  if (await portAnswers(webPort))
    throw new Error(`port ${webPort} for MailDev's web page is already taken (set SMTP_URL to use another mail server)`);
  const maildev = path.join(ROOT, 'node_modules/.bin/maildev');
  if (!existsSync(maildev)) throw new Error('MailDev is not installed: run `npm install` (or set SMTP_URL)');
  say(`mail: starting MailDev (SMTP on 127.0.0.1:${smtpPort})`);
  const proc = startProcess('maildev', maildev, [
    ...['--smtp', String(smtpPort), '--ip', '127.0.0.1'],
    ...['--web', String(webPort), '--web-ip', '127.0.0.1'],
    // A catcher on loopback: plain SMTP, as the services' nodemailer would otherwise try STARTTLS.
    ...['--hide-extensions', 'STARTTLS', '--max-emails', '500'],
  ]);
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null)
        throw new Error(`MailDev exited with code ${proc.child.exitCode} (see .data/logs/maildev.log)`);
      return (await portAnswers(smtpPort)) && (await fetch(`http://127.0.0.1:${webPort}/api/healthz`)).ok;
    },
    'MailDev',
    30_000,
  ).catch(async (err: Error) => {
    await proc.stop();
    throw err;
  });
  return { smtpUrl, webUrl: `http://127.0.0.1:${webPort}/`, process: proc };
}
