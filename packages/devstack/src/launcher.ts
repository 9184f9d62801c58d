import { refuseNewProcesses, runningProcesses, STOP_DEADLINE_MS } from './processes';
import type { MailCatcher } from './mailCatcher';
import type { RedisServer, Store } from './store';
import { say } from './util';

/** What `npm start` has started so far; filled in as the start goes on. */
export interface Launched {
  store?: Store;
  redis?: RedisServer;
  mail?: MailCatcher;
  /** startCount() once the store, Redis and the mail were ready: what started after it is the services and the gateway. */
  servicesFrom?: number;
}

/**
 * Stops what the launcher started, in this order: the services and the gateway together (SIGTERM,
 * SIGKILL after the deadline); then the store (FerretDB, then its PostgreSQL), Redis and the mail
 * catcher; then anything a start interrupted half way left running, newest first. Nothing new
 * starts meanwhile.
 */
export async function stopLaunched(launched: Launched, deadlineMs = STOP_DEADLINE_MS): Promise<void> {
  refuseNewProcesses('the portal is stopping');
  if (launched.servicesFrom !== undefined)
    await Promise.all(runningProcesses(launched.servicesFrom).map((p) => p.stop('SIGTERM', deadlineMs)));
  await Promise.all([
    launched.store?.process?.stop('SIGTERM', deadlineMs),
    launched.redis?.process?.stop('SIGTERM', deadlineMs),
    launched.mail?.process?.stop('SIGTERM', deadlineMs),
  ]);
  for (const p of runningProcesses().reverse()) await p.stop('SIGTERM', deadlineMs);
}

let stopping = false;
let firstSignalAt = 0;
/**
 * One Ctrl-C can arrive more than once: the terminal signals the whole foreground group, and npm (and
 * tsx's cli, when it runs us) relays the same signal within milliseconds. No person presses twice
 * that fast, so a repeat this close to the first is the same press.
 */
const SAME_PRESS_MS = 300;

/** True once a signal started the stop: the start under way then fails, and must not exit on its own. */
export const isStopping = (): boolean => stopping;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP: the first runs `stop` and exits; a second, while that is
 * under way, kills every child at once and exits.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  const onSignal = () => {
    if (stopping) {
      if (Date.now() - firstSignalAt < SAME_PRESS_MS) return;
      say('killing everything at once');
      for (const p of runningProcesses()) p.kill();
      process.exit(130);
    }
    stopping = true;
    firstSignalAt = Date.now();
    say('stopping... (Ctrl-C again kills at once)');
    stop().then(
      () => {
        say('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        say(`stopping failed: ${err instanceof Error ? err.message : String(err)}; killing what is left`);
        for (const p of runningProcesses()) p.kill();
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
}
