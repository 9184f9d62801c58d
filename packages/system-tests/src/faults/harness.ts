import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { DEFAULT_PORTS, SERVICE_NAMES, type AuthResponse, type ServiceName } from '@portal/contracts';
import { startProcess, type ManagedProcess } from '@portal/devstack/processes';
import { REPLICA_PORT_STEP, startStack, type Stack, type StackOptions } from '@portal/devstack/stack';
import { api, type ApiAnswer } from '@portal/devstack/testing';
import { ROOT, sleep } from '@portal/devstack/util';

/*
 * What the fault files share: ports nobody else uses, a stack started and always stopped, bounded
 * waits, timed requests. Everything here runs real processes on loopback; nothing is mocked.
 */

export const ADMIN = { email: 'admin@portal.local', password: 'Portal-Glav-2026' } as const;

/** A fresh database and queue prefix, so a file never sees another file's records. */
export const freshPrefix = (tag: string): string => `${tag}${Date.now().toString(36)}${randomBytes(2).toString('hex')}_`;

/** The store the jest global setup found (the shared one); files that kill a store start their own. */
export const sharedMongoUrl = (): string => {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is not set: run through jest (its global setup finds the store)');
  return url;
};
export const sharedRedisUrl = (): string => {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL is not set: run through jest (its global setup finds Redis)');
  return url;
};

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A port offset for startStack under which the six ports are free. It stays below the kernel's
 * ephemeral range (32768+), so an outgoing connection cannot take one of our ports meanwhile, and
 * away from the defaults, e2e (+100) and bench (+600).
 */
export async function freePortOffset(replicas = 1): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = 3000 + 10 * Math.floor(Math.random() * 2000); // 3000..22990: highest port 31070 (+10 a replica)
    const ports = Object.values(DEFAULT_PORTS).flatMap((p) =>
      Array.from({ length: replicas }, (_, i) => p + offset + i * REPLICA_PORT_STEP),
    );
    if ((await Promise.all(ports.map(bindable))).every(Boolean)) return offset;
  }
  throw new Error('no free port offset found for a test stack');
}

/** Drops the five databases a stack with this prefix wrote in a shared store. */
export async function dropDatabases(mongoUrl: string, prefix: string): Promise<void> {
  for (const service of SERVICE_NAMES) {
    const db = await mongoose
      .createConnection(mongoUrl, { dbName: `${prefix}${service}`, serverSelectionTimeoutMS: 5000 })
      .asPromise();
    try {
      await db.dropDatabase();
    } finally {
      await db.close();
    }
  }
}

export const tempDir = (tag: string): string => mkdtempSync(path.join(tmpdir(), `faults-${tag}-`));
export const removeDir = (dir: string | undefined): void => {
  if (dir) rmSync(dir, { recursive: true, force: true });
};

/** Polls until `check` gives a value (anything but false/null/undefined), or fails naming `what`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | false | null | undefined>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== null && value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline)
      throw new Error(`${what}: not reached within ${timeoutMs} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await sleep(everyMs);
  }
}

// Answers are JSON of many shapes; tests read their fields directly, as with devstack's api().
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Timed<T = any> extends ApiAnswer<T> {
  /** When the request was sent and how long its answer took, in ms. */
  startedAt: number;
  ms: number;
}

/** One request with its duration; a network failure is an answer with status 0, never a throw. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function timed<T = any>(
  base: string,
  method: string,
  route: string,
  options: Parameters<typeof api>[3] = {},
): Promise<Timed<T>> {
  const startedAt = Date.now();
  try {
    const answer = await api<T>(base, method, route, options);
    return { ...answer, startedAt, ms: Date.now() - startedAt };
  } catch (err) {
    return {
      status: 0,
      body: String((err as Error).message) as T,
      headers: new Headers(),
      startedAt,
      ms: Date.now() - startedAt,
    };
  }
}

export async function login(gateway: string, { email, password }: { email: string; password: string }): Promise<string> {
  const answer = await api<AuthResponse>(gateway, 'POST', '/api/auth/login', { body: { email, password } });
  if (answer.status !== 200) throw new Error(`login of ${email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.token;
}

export const isAlive = (proc: ManagedProcess | undefined): boolean =>
  !!proc && proc.child.exitCode === null && proc.child.signalCode === null;

/** Pids listening on a loopback port (from `ss`), to stop what a half-started stack left behind. */
const listenersOn = (port: number): number[] => {
  const out = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' }).stdout ?? '';
  return [...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
};

export interface TestStack extends Stack {
  /** Starts one service as startStack does but returns at once, without waiting for it to be ready. */
  spawnOne(name: ServiceName): ManagedProcess;
}

/**
 * startStack with quiet logs under .data/logs/faults/<tag>. When it fails half way (one process
 * never became ready) it cannot hand back what it started, so the processes listening on our
 * private ports are stopped by pid before the error is rethrown.
 */
export async function startTestStack(
  tag: string,
  options: Omit<StackOptions, 'portOffset' | 'logDir'> & { portOffset: number },
): Promise<TestStack> {
  const logDir = path.join(ROOT, '.data/logs/faults', tag);
  let stack: Stack;
  try {
    stack = await startStack({
      ...options,
      logDir,
      env: { NODE_ENV: 'test', LOG_LEVEL: 'warn', ...options.env },
    });
  } catch (err) {
    const steps = Array.from({ length: Math.max(1, ...Object.values(options.replicas ?? {})) }, (_, i) => i * REPLICA_PORT_STEP);
    for (const port of Object.values(DEFAULT_PORTS).flatMap((p) => steps.map((step) => p + options.portOffset + step)))
      for (const pid of listenersOn(port)) if (pid !== process.pid) process.kill(pid, 'SIGKILL');
    throw err;
  }
  const spawnOne = (name: ServiceName): ManagedProcess => {
    // The same command and environment as startStack's own startOne.
    const proc = startProcess(name, process.execPath, [path.join(ROOT, 'services', name, 'dist/index.js')], {
      env: {
        ...process.env,
        NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replace('--conditions=source', '').trim(),
        ...stack.env,
        PORT: String(stack.ports[name]),
      },
      logDir,
    });
    stack.processes.set(name, proc);
    return proc;
  };
  return Object.assign(stack, { spawnOne });
}

/** Runs each clean-up step even when an earlier one fails, newest first, each bounded in time. */
export class Cleanup {
  private readonly steps: Array<{ what: string; run: () => unknown }> = [];

  add(what: string, run: () => unknown): void {
    this.steps.push({ what, run });
  }

  async run(timeoutMs = 20_000): Promise<void> {
    const failures: string[] = [];
    while (this.steps.length) {
      const step = this.steps.pop()!;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(step.run),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } catch (err) {
        failures.push(`${step.what}: ${(err as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
    if (failures.length) console.warn(`clean-up problems:\n${failures.join('\n')}`);
  }
}

/** Clients that call `once` in a loop until stopped: steady load, as many requests in flight as clients. */
export function load<T>(clients: number, once: (i: number) => Promise<T>): { results: T[]; stop(): Promise<T[]> } {
  const results: T[] = [];
  let running = true;
  let next = 0;
  const client = async () => {
    while (running) results.push(await once(next++));
  };
  const all = Promise.all(Array.from({ length: clients }, client));
  return {
    results,
    async stop() {
      running = false;
      await all;
      return results;
    },
  };
}
