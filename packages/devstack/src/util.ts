import { spawn, spawnSync } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
export const DATA_DIR = path.join(ROOT, '.data');

export const say = (message: string) => console.log(`[portal] ${message}`);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Finds an executable on the PATH (or at extra locations), like `command -v`. */
export function which(name: string, extra: string[] = []): string | null {
  for (const candidate of extra) if (existsSync(candidate)) return candidate;
  // This process's PATH as it is now (a test may change it), not the one the process started with.
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8', env: process.env });
  return found.status === 0 ? found.stdout.trim() : null;
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export const portAnswers = (port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what} did not become ready within ${Math.round(timeoutMs / 1000)} s`);
}

/** Runs a command to completion, streaming its output; throws on a non-zero exit. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: options.cwd ?? ROOT, env: options.env ?? process.env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/**
 * Runs commands to completion two at a time (the machines have two cores), streaming their output;
 * throws, after all have ended, naming each one that failed.
 */
export async function runTwoAtATime(commands: Array<[string, string[]]>): Promise<void> {
  const queue = [...commands];
  const failures: string[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [command, args] = next;
      const code = await new Promise<number | string>((resolve) => {
        const child = spawn(command, args, { stdio: 'inherit', cwd: ROOT, env: process.env });
        child.on('error', (err) => resolve(err.message));
        child.on('exit', (exitCode, signal) => resolve(exitCode ?? signal ?? 'unknown'));
      });
      if (code !== 0) failures.push(`${command} ${args.join(' ')} failed (exit ${code})`);
    }
  };
  await Promise.all([worker(), worker()]);
  if (failures.length) throw new Error(failures.join('\n'));
}
