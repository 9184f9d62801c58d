import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { portAnswers, ROOT, sleep } from './util';

// Ctrl-C on the launcher, for real: fixtures/launcher.ts starts a FerretDB and three "services"
// with the launcher's own functions, and this test sends it SIGINT as a terminal would.
jest.setTimeout(60_000);

interface Launcher {
  child: ChildProcess;
  pids: Record<string, number>;
  storePort: number;
  /** When each of its processes exited, as the launcher saw it. */
  exits: Record<string, number>;
  exited: Promise<number | null>;
}

async function startLauncher(deadlineMs: number): Promise<Launcher> {
  // Straight under node (tsx as a loader): tsx's cli would relay our signal with timing of its own.
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(__dirname, 'fixtures/launcher.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, STOP_DEADLINE_MS: String(deadlineMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exits: Record<string, number> = {};
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<{ pids: Record<string, number>; storePort: number }>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines.filter((l) => l.startsWith('{'))) {
        const event = JSON.parse(line) as { ready?: true; pids: Record<string, number>; storePort: number } & {
          exited?: string;
          at: number;
        };
        if (event.ready) resolve(event);
        if (event.exited) exits[event.exited] = event.at;
      }
    });
    void exited.then((code) => reject(new Error(`the launcher exited with ${code} before it was ready`)));
  });
  return { child, exits, exited, ...ready };
}

/** Gone, or a zombie waiting for a reaper: either way it runs no more. */
const isGone = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return true;
  }
};

async function allGone(pids: number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline && pids.some((pid) => !isGone(pid))) await sleep(50);
  return pids.filter((pid) => !isGone(pid));
}

it('Ctrl-C stops every service, kills the one that ignores SIGTERM at the deadline, and stops the store last', async () => {
  const deadlineMs = 1500;
  const launcher = await startLauncher(deadlineMs);
  expect(await portAnswers(launcher.storePort)).toBe(true);

  const pressed = Date.now();
  launcher.child.kill('SIGINT');
  const code = await launcher.exited;
  const took = Date.now() - pressed;

  expect(code).toBe(0);
  expect(await allGone(Object.values(launcher.pids), 500)).toEqual([]);
  expect(await portAnswers(launcher.storePort)).toBe(false);
  // The services stop together: the quick ones at once, the stubborn one killed at the deadline, not later.
  expect(launcher.exits.quick - pressed).toBeLessThan(1000);
  expect(launcher.exits.draining - pressed).toBeLessThan(1000);
  expect(launcher.exits.stubborn - pressed).toBeGreaterThanOrEqual(deadlineMs - 50);
  expect(launcher.exits.stubborn - pressed).toBeLessThan(deadlineMs + 1000);
  // The store goes only after every service has gone, and the whole stop is bounded.
  expect(launcher.exits.store).toBeGreaterThanOrEqual(
    Math.max(launcher.exits.quick, launcher.exits.draining, launcher.exits.stubborn),
  );
  expect(took).toBeLessThan(2 * deadlineMs + 2000);
});

it('a second Ctrl-C kills everything at once, the store included', async () => {
  const launcher = await startLauncher(30_000);
  launcher.child.kill('SIGINT');
  launcher.child.kill('SIGINT'); // the same press delivered twice (terminal and npm): still the orderly stop
  await sleep(800); // the quick services are gone by now; the stubborn one would hold the stop for 30 s
  expect(launcher.exits.quick).toBeDefined();
  expect(launcher.exits.store).toBeUndefined(); // the repeat did not kill at once
  const pressedAgain = Date.now();
  launcher.child.kill('SIGINT');

  expect(await launcher.exited).toBe(130);
  expect(Date.now() - pressedAgain).toBeLessThan(1500);
  expect(await allGone(Object.values(launcher.pids), 1000)).toEqual([]);
  expect(await portAnswers(launcher.storePort)).toBe(false);
  expect(launcher.exits.stubborn).toBeUndefined(); // it was still running when the launcher gave up waiting
});
