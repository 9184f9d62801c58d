import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import { MSG } from '@portal/contracts';
import { startProcess, type ManagedProcess } from '@portal/devstack/processes';
import { uniqueInn, type TestService } from '@portal/devstack/testing';
import { ROOT, freePort, waitFor } from '@portal/devstack/util';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { Cleanup, isAlive, timed, until } from './harness';

/*
 * One service hangs: its port accepts connections and never answers a byte. The real gateway
 * process (built output) must answer each request toward it with 504 JSON at its proxy timeout,
 * must not keep the sockets it opened toward the hanging service, and must keep serving everything
 * else meanwhile (a real auth service stands behind it for that).
 */

const TIMEOUT_MS = 1000;
const CONCURRENT = 60;

const cleanup = new Cleanup();
let hanging: Server;
const held = new Set<Socket>();
let hangingUrl: string;
let auth: TestService;
let gateway: ManagedProcess;
let gatewayUrl: string;
let email: string;

/** Connections the hanging service holds, as it counts them. */
const openConnections = (): Promise<number> =>
  new Promise((resolve, reject) => hanging.getConnections((err, n) => (err ? reject(err) : resolve(n))));

/** Established sockets of the gateway process toward the hanging service, as the kernel counts them. */
const gatewaySockets = (): number => {
  const out = spawnSync('ss', ['-Htnp', 'state', 'established', 'dst', hangingUrl.slice('http://'.length)], {
    encoding: 'utf8',
  }).stdout;
  return out.split('\n').filter((line) => line.includes(`pid=${gateway.child.pid},`)).length;
};

beforeAll(async () => {
  // Accepts and holds every connection and never answers a byte. It reads (and drops) what comes,
  // as a hung application's kernel and runtime would, so that it sees the gateway hang up.
  hanging = createServer((socket) => {
    held.add(socket);
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', () => resolve()));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;
  cleanup.add('hanging server', async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => hanging.close(resolve));
  });

  auth = await startAuth();
  cleanup.add('auth', () => auth.close());
  const admin = await userWithRole(auth, 'ADMIN', 'Анна Смирнова');
  email = admin.user.email;

  // Nothing listens on these: a service that is simply down answers 503 at once, unlike the hanging one.
  // A privileged port no part of the portal or its tests uses: a port that was free a moment ago
  // could be taken by a service another test file starts meanwhile (a run met a 404 from one).
  const nobody = 'http://127.0.0.1:999';
  const port = await freePort();
  // Its metrics on a free port of their own: by default they listen on PORT + 1000, which nothing
  // checked was free (a run met EADDRINUSE there, and the gateway never came up).
  const metricsPort = await freePort();
  gatewayUrl = `http://127.0.0.1:${port}`;
  gateway = startProcess(`faults-gateway-${port}`, process.execPath, [path.join(ROOT, 'gateway/dist/index.js')], {
    env: {
      ...process.env,
      NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replace('--conditions=source', '').trim(),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      PROXY_TIMEOUT_MS: String(TIMEOUT_MS),
      AUTH_URL: auth.url,
      CRM_URL: hangingUrl,
      CONTENT_URL: nobody,
      PROGRESS_URL: nobody,
      AUDIT_URL: nobody,
    },
    logDir: path.join(ROOT, '.data/logs/faults/hanging-service'),
  });
  cleanup.add('gateway', () => gateway.stop());
  await waitFor(async () => (await fetch(`${gatewayUrl}/remotes.json`)).ok, 'gateway', 30_000);
}, 60_000);

afterAll(() => cleanup.run(), 30_000);

const TIMEOUT_ANSWER = { message: MSG.serviceTimeout, statusCode: 504 };

/** One wave of concurrent requests toward the hanging service, with the gateway's other routes used meanwhile. */
async function wave(tag: string) {
  const started = Date.now();
  const toHanging = Array.from({ length: CONCURRENT }, (_, i) =>
    timed(gatewayUrl, i % 2 ? 'GET' : 'POST', `/api/organizations${i % 2 ? `?wave=${tag}` : ''}`, {
      body: i % 2 ? undefined : { name: `ООО Зависшее ${tag}-${i}`, inn: uniqueInn() },
    }),
  );
  // While those wait: the sockets pile up toward the hanging service only as far as the requests go.
  const openWhileHanging = await until(
    'the requests reaching the hanging service',
    async () => {
      const n = await openConnections();
      return n >= CONCURRENT && n;
    },
    5000,
    20,
  );
  const gatewaySocketsWhileHanging = gatewaySockets();
  const meanwhile = await Promise.all([
    timed(gatewayUrl, 'POST', '/api/auth/login', { body: { email, password: 'Kursy-Portal-42' } }),
    timed(gatewayUrl, 'GET', '/remotes.json'),
    timed(gatewayUrl, 'GET', '/api/courses'),
  ]);
  const answers = await Promise.all(toHanging);
  const allAnsweredAfter = Date.now() - started;
  // Then the gateway lets go of every socket it opened toward the hanging service.
  const releasedAfter = await until(
    'the sockets toward the hanging service closed',
    async () => (await openConnections()) === 0 && gatewaySockets() === 0 && Date.now() - started,
    5000,
    20,
  );
  return { answers, meanwhile, openWhileHanging, gatewaySocketsWhileHanging, allAnsweredAfter, releasedAfter };
}

it('answers 504 at the proxy timeout toward a hanging service, keeps no sockets, and keeps serving the rest', async () => {
  for (const tag of ['первая', 'вторая']) {
    const { answers, meanwhile, openWhileHanging, gatewaySocketsWhileHanging, allAnsweredAfter, releasedAfter } = await wave(tag);
    const times = answers.map((a) => a.ms).sort((x, y) => x - y);
    console.log(
      `hanging service, wave ${tag}: ${openWhileHanging} connections held (${gatewaySocketsWhileHanging} gateway sockets) while hanging; 504s in ${times[0]}..${times.at(-1)} ms; ` +
        `all answered after ${allAnsweredAfter} ms, sockets released after ${releasedAfter} ms; ` +
        `meanwhile ${meanwhile.map((m) => `${m.status} in ${m.ms} ms`).join(', ')}`,
    );

    // Each request is answered 504 JSON, at about the timeout: not before it, not long after it.
    expect(answers.filter((a) => a.status !== 504 || JSON.stringify(a.body) !== JSON.stringify(TIMEOUT_ANSWER))).toEqual([]);
    expect(answers.every((a) => a.headers.get('content-type')?.startsWith('application/json'))).toBe(true);
    expect(times[0]).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(times.at(-1)).toBeLessThan(TIMEOUT_MS + 1500);

    // The gateway kept serving: a real login through it, its manifest, and a clear 503 for a service that is down.
    const [loginAnswer, manifest, down] = meanwhile;
    expect([loginAnswer.status, typeof loginAnswer.body.token]).toEqual([200, 'string']);
    expect(loginAnswer.ms).toBeLessThan(TIMEOUT_MS);
    expect(manifest.status).toBe(200);
    expect(manifest.ms).toBeLessThan(TIMEOUT_MS);
    expect([down.status, down.body]).toEqual([503, { message: MSG.serviceUnavailable, statusCode: 503 }]);

    // No pile-up: each wave opened about one socket per request, and all are closed within a
    // moment of the answers.
    expect(openWhileHanging).toBeLessThanOrEqual(CONCURRENT + 5);
    expect(gatewaySocketsWhileHanging).toBeGreaterThanOrEqual(CONCURRENT);
    expect(releasedAfter - allAnsweredAfter).toBeLessThan(2000);
    expect(isAlive(gateway)).toBe(true);
  }
  expect(await openConnections()).toBe(0);
  expect(gatewaySockets()).toBe(0);
  expect(held.size).toBe(0);
}, 60_000);
