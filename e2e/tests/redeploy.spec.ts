import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REMOTES } from '@portal/routes';
import { E2E_PORT_OFFSET } from '../env';
import { e2eStack, signIn } from './helpers';

const ROOT = path.resolve(__dirname, '../..');
// Outside the checkout: the gateway serves no file below a dot-folder such as .data.
const SITE = path.join(tmpdir(), `portal-redeploy-${E2E_PORT_OFFSET}`);
const REMOTE = path.join(SITE, 'mf-crm');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Every file of a folder with its sha256, by relative path. */
const hashes = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex')];
      }),
  );

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
};

const started: ChildProcess[] = [];
/** A process of this test, logged under .data/logs/e2e, ended with the test. */
function start(label: string, args: string[], env: Record<string, string>): ChildProcess {
  mkdirSync(path.join(ROOT, '.data/logs/e2e'), { recursive: true });
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
  const log: string[] = [];
  child.stdout?.on('data', (d) => log.push(String(d)));
  child.stderr?.on('data', (d) => log.push(String(d)));
  child.on('exit', () => writeFileSync(path.join(ROOT, `.data/logs/e2e/redeploy-${label}.log`), log.join('')));
  started.push(child);
  return child;
}
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

// The CRM remote as its own static server (as in docker-compose, where each front end is a container).
const STATIC_SERVER = `
  const express = require('express');
  const [dir, port] = process.argv.slice(1);
  express().use(express.static(dir)).listen(Number(port), '127.0.0.1');
`;

test.afterAll(async () => {
  await Promise.all(started.map(stop));
  rmSync(SITE, { recursive: true, force: true });
});

// It restarts only its own copy of a remote behind a gateway of its own: the shared stack is untouched,
// so it runs beside the other journeys.
test('one remote is rebuilt and restarted alone: the running shell shows its new text after a reload, its own files unchanged', async ({
  page,
}) => {
  // Most of it is one production build of the remote.
  test.setTimeout(150_000);
  const stack = e2eStack();

  // A deployment of its own: the shell and the other remotes as built, the CRM remote from its own folder.
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(REMOTE, { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(SITE, 'node_modules')); // what the remote's build resolves
  symlinkSync(path.join(ROOT, 'shell'), path.join(SITE, 'shell'));
  for (const folder of Object.values(REMOTES))
    if (folder !== 'mf-crm') symlinkSync(path.join(ROOT, folder), path.join(SITE, folder));
  for (const part of ['package.json', 'webpack.config.ts', 'src', 'dist'])
    cpSync(path.join(ROOT, 'mf-crm', part), path.join(REMOTE, part), { recursive: true });
  const shellBefore = hashes(path.join(ROOT, 'shell/dist'));

  const [remotePort, gatewayPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const remoteUrl = `http://127.0.0.1:${remotePort}`;
  const startRemote = async () => {
    start('mf-crm', ['-e', STATIC_SERVER, path.join(REMOTE, 'dist'), String(remotePort)], {});
    await expect.poll(() => answers(`${remoteUrl}/remoteEntry.js`), { message: 'the remote answers' }).toBe(true);
  };
  await startRemote();
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  start('gateway', ['gateway/dist/index.js'], {
    ...stack.env,
    NODE_OPTIONS: '',
    PORT: String(gatewayPort),
    METRICS_PORT: String(metricsPort),
    STATIC_ROOT: SITE,
    STATIC_UPSTREAMS: JSON.stringify({ 'mf-crm': remoteUrl }),
    LOG_LEVEL: 'warn',
  });
  await expect.poll(() => answers(`${gateway}/remotes.json`), { message: 'the gateway answers', timeout: 20_000 }).toBe(true);

  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026', `${gateway}/crm/orgs`);
  await expect(page.getByRole('heading', { name: 'Организации', level: 1 })).toBeVisible();
  const oldChunks = readdirSync(path.join(REMOTE, 'dist')).filter((f) => /\.[0-9a-f]{10}\.js$/.test(f));

  // 1. A text of the remote changes (in its own folder, a copy: the repository stays as it is).
  const scene = path.join(REMOTE, 'src/scenes/Organizations/Organizations.tsx');
  const source = readFileSync(scene, 'utf8');
  expect(source, 'the scene still names its title this way').toContain('title="Организации"');
  writeFileSync(scene, source.replace('title="Организации"', 'title="Организации партнёров"'));
  // 2. The remote's own build (what its `npm run build` runs), then only the remote restarts.
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'packages/webpack-config/src/build.ts')],
    {
      cwd: REMOTE,
      stdio: 'pipe',
    },
  );
  await stop(started.find((child) => child.spawnargs.includes(path.join(REMOTE, 'dist')))!);
  await startRemote();

  // 3. The running shell, reloaded, shows the new text; the tab opened before could still load the old chunks.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Организации партнёров', level: 1 })).toBeVisible();
  for (const chunk of oldChunks) expect((await fetch(`${gateway}/mf/mf-crm/${chunk}`)).status, chunk).toBe(200);
  // «О системе» names the new build of the remote.
  const built = JSON.parse(readFileSync(path.join(REMOTE, 'dist/version.json'), 'utf8')) as { hash: string };
  await page.getByRole('button', { name: /Администратор/ }).click();
  await page.getByRole('button', { name: 'О системе' }).click();
  await expect(page.getByRole('row', { name: /mf-crm/ })).toContainText(built.hash);

  // 4. Not one byte of the shell changed.
  expect(existsSync(path.join(ROOT, 'shell/dist/index.html'))).toBe(true);
  expect(hashes(path.join(ROOT, 'shell/dist'))).toEqual(shellBefore);
});
