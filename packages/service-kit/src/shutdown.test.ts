import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@portal/devstack/util';
import { uniquePrefix } from '@portal/devstack/testing';

/** Starts the slow-route service fixture as its own process and waits until it listens. */
async function startFixture(env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    // The service is this very process (tsx as a loader), so the signal and the exit code are its own,
    // not relayed by a tsx wrapper process (which under load once answered 143 for a SIGTERM).
    ['--conditions=source', '--import', 'tsx', path.join(__dirname, 'fixtures/slow-service.ts')],
    {
      env: { ...process.env, PORT: String(port), DB_PREFIX: uniquePrefix(), LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve());
    child.once('exit', () => reject(new Error('service exited before it was ready')));
  });
  return { port, child, exited };
}

it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
  const { port, child, exited } = await startFixture();
  const inFlight = fetch(`http://127.0.0.1:${port}/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
  await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 100));
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow(); // no longer accepting

  await expect(inFlight).resolves.toEqual({ status: 200, body: { done: true } });
  expect(await exited).toBe(0);
}, 30_000);

it('a resource that never closes cannot keep a stopping service alive: it exits 1 at the deadline', async () => {
  const { child, exited } = await startFixture({ STUCK_ON_CLOSE: '1', SHUTDOWN_TIMEOUT_MS: '1500' });
  const asked = Date.now();
  child.kill('SIGTERM');
  expect(await exited).toBe(1);
  const took = Date.now() - asked;
  expect(took).toBeGreaterThanOrEqual(1400);
  expect(took).toBeLessThan(10_000); // the deadline, not the 10 s drain or forever
}, 30_000);
