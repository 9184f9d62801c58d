import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from './util';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const COLORS = [36, 35, 33, 32, 34, 31, 96, 95];
let colorIndex = 0;

/**
 * Starts a child process whose output goes to .data/logs/<name>.log and, when `echo` is set, to
 * this terminal with a coloured prefix. Children die with us.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  {
    env = process.env,
    cwd,
    echo = false,
    logDir = path.join(DATA_DIR, 'logs'),
    user,
  }: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    echo?: boolean;
    logDir?: string;
    /** Run as this system user (when we are root): PostgreSQL refuses to run as root. */
    user?: { uid: number; gid: number };
  } = {},
): ManagedProcess {
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], ...user });
  const color = COLORS[colorIndex++ % COLORS.length];
  const prefix = `\x1b[${color}m${name.padEnd(9)}\x1b[0m| `;
  const forward = (chunk: Buffer) => {
    log.write(chunk);
    if (echo) process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix));
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(timer);
      log.end();
    },
  };
}
