import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { prettyLines } from './pretty';
import { DATA_DIR, say } from './util';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /**
   * Sends `signal` (SIGTERM by default) and waits for the exit; one that is still running after
   * `deadlineMs` is killed with its whole process group. Never waits longer than the deadline and
   * a short grace for the kill to land.
   */
  stop(signal?: NodeJS.Signals, deadlineMs?: number): Promise<void>;
  /** SIGKILL to the process and everything it started, at once (a second Ctrl-C). */
  kill(): void;
}

/** How long a process may take to stop before it is killed (the launcher's Ctrl-C, a stack's stop). */
export const STOP_DEADLINE_MS = 5_000;
/** After SIGKILL the exit is a matter of milliseconds; past this we say so rather than hang. */
const KILL_GRACE_MS = 2_000;

const COLORS = [36, 35, 33, 32, 34, 31, 96, 95];
let colorIndex = 0;

// Every process started and not yet exited, with its start number, so that whoever stops them
// (the launcher, on Ctrl-C) can tell what started after what, and nothing outlives this process.
let started = 0;
const running = new Map<ManagedProcess, number>();
let refusing: string | null = null;

/** How many processes have been started so far: a mark for `runningProcesses(since)`. */
export const startCount = (): number => started;

/** The processes still running that were started after the mark `since`, in the order they started. */
export const runningProcesses = (since = 0): ManagedProcess[] => [...running].filter(([, n]) => n > since).map(([proc]) => proc);

/** From now on startProcess throws `reason`: a stop in progress must not race a start still under way. */
export function refuseNewProcesses(reason: string): void {
  refusing = reason;
}

const killGroup = (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL'); // the group: PostgreSQL's backends die with their postmaster
  } catch {
    child.kill('SIGKILL');
  }
};

// The children run in their own process groups (see startProcess), so the terminal's Ctrl-C no
// longer reaches them and an exit of ours would orphan them: whatever still runs dies with us.
process.once('exit', () => {
  for (const proc of running.keys()) proc.kill();
});

/**
 * Starts a child process whose output goes to .data/logs/<name>.log and, when `echo` is set, to
 * this terminal with a coloured prefix. Each child leads a process group of its own: a Ctrl-C in
 * the terminal reaches only the launcher, which then stops the children in its order (the store
 * last). Children die with us.
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
  if (refusing) throw new Error(`${name} was not started: ${refusing}`);
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...user });
  const color = COLORS[colorIndex++ % COLORS.length];
  const prefix = `\x1b[${color}m${name.padEnd(9)}\x1b[0m| `;
  // In a terminal, log lines are shown readable and coloured; piped elsewhere they stay JSON, as in the log file.
  const show = () => {
    if (!echo) return () => undefined;
    if (!process.stdout.isTTY) return (chunk: Buffer) => void process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix));
    const pretty = prettyLines(prefix);
    return (chunk: Buffer) => void process.stdout.write(pretty(chunk));
  };
  const forward = (shown: (chunk: Buffer) => void) => (chunk: Buffer) => {
    log.write(chunk);
    shown(chunk);
  };
  child.stdout?.on('data', forward(show()));
  child.stderr?.on('data', forward(show()));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const within = (ms: number) =>
    Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
  const proc: ManagedProcess = {
    name,
    child,
    async stop(signal: NodeJS.Signals = 'SIGTERM', deadlineMs = STOP_DEADLINE_MS) {
      if (child.exitCode === null && child.signalCode === null) {
        if (signal === 'SIGKILL') killGroup(child);
        else child.kill(signal);
        if (!(await within(deadlineMs))) {
          say(`${name} did not stop within ${deadlineMs / 1000} s of ${signal}: killed`);
          killGroup(child);
          if (!(await within(KILL_GRACE_MS))) say(`${name} (pid ${child.pid}) did not exit after SIGKILL`);
        }
      }
      log.end();
    },
    kill: () => killGroup(child),
  };
  running.set(proc, ++started);
  void exited.then(() => running.delete(proc)); // an 'error' too: a program that never ran has nothing to stop
  return proc;
}
