import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { MSG } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { createGateway } from './app';
import { gatewayConfigSchema } from './config';

/** A service replica that answers every request with its name and the forwarding headers it was given. */
const replica = (name: string) =>
  createServer((req: IncomingMessage, res) => {
    if (req.url === '/readyz' || req.url === '/healthz') return void res.end('ok');
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          replica: name,
          method: req.method,
          forwardedFor: req.headers['x-forwarded-for'] ?? null,
          forwardedProto: req.headers['x-forwarded-proto'] ?? null,
        }),
      );
    });
  });

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const started: Server[] = [];
const startGateway = async (env: Record<string, string>) => {
  const config = gatewayConfigSchema.parse({ PROXY_TIMEOUT_MS: '2000', INTERNAL_TOKEN: process.env.INTERNAL_TOKEN, ...env });
  const { app, close: stopHealth } = createGateway(config, pino({ level: 'silent' }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  server.on('close', stopHealth);
  started.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
afterAll(async () => {
  await Promise.all(started.map(close));
});

const DEAD = 'http://127.0.0.1:9'; // discard port: nothing listens

describe('several replicas of a service', () => {
  let a: Server;
  let b: Server;
  let urls: { a: string; b: string };
  beforeEach(async () => {
    a = replica('a');
    b = replica('b');
    urls = { a: await listen(a), b: await listen(b) };
    started.push(a, b);
  });

  it('spreads requests over the replicas in turn', async () => {
    const gateway = await startGateway({ AUDIT_URL: `${urls.a},${urls.b}` });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await api(gateway, 'GET', '/api/audit')).body.replica as string);
    expect(seen).toEqual(['a', 'b', 'a', 'b']);
  });

  it('asks another replica when one refuses connections, and passes the dead one over afterwards', async () => {
    const gateway = await startGateway({ AUDIT_URL: `${urls.a},${DEAD},${urls.b}` });
    const answers = await Promise.all(Array.from({ length: 12 }, () => api(gateway, 'GET', '/api/audit')));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((r) => r.body.replica))).toEqual(new Set(['a', 'b']));
  });

  it('keeps serving reads when a replica is stopped between requests', async () => {
    const gateway = await startGateway({ AUDIT_URL: `${urls.a},${urls.b}` });
    expect((await api(gateway, 'GET', '/api/audit')).status).toBe(200);
    await close(a);
    const after = await Promise.all(Array.from({ length: 6 }, () => api(gateway, 'GET', '/api/audit')));
    expect(after.map((r) => [r.status, r.body.replica])).toEqual(Array(6).fill([200, 'b']));
  });

  it('never sends a write twice: one that found its replica dead gets a clear 503, the next goes to a live one', async () => {
    const gateway = await startGateway({ AUDIT_URL: `${DEAD},${urls.b}` });
    const first = await api(gateway, 'POST', '/api/audit', { body: { note: 'x' } });
    expect(first.status).toBe(503);
    expect(first.body.message).toBe(MSG.serviceUnavailable);
    const next = await api(gateway, 'POST', '/api/audit', { body: { note: 'x' } });
    expect([next.status, next.body.replica, next.body.method]).toEqual([200, 'b', 'POST']);
  });

  it('reports each replica in /api/health and stays healthy while one replica of a service is up', async () => {
    const one = { AUTH_URL: urls.a, CONTENT_URL: urls.a, PROGRESS_URL: urls.a, CRM_URL: urls.a };
    const gateway = await startGateway({ ...one, AUDIT_URL: `${urls.b},${DEAD}` });
    const health = await api(gateway, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body.services.audit).toBe('ready');
    expect(health.body.replicas).toEqual({ audit: { [urls.b]: 'ready', [DEAD]: 'down' } });
  });
});

describe('behind a load balancer (TRUST_PROXY)', () => {
  let upstream: string;
  beforeAll(async () => {
    const server = replica('auth');
    started.push(server);
    upstream = await listen(server);
  });

  it('believes the hop it is told to: the services see the client the balancer saw, not what the client wrote', async () => {
    const gateway = await startGateway({ AUTH_URL: upstream, TRUST_PROXY: '1' });
    // The client wrote 198.51.100.1 itself; the balancer appended the address it really came from.
    const answer = await api(gateway, 'GET', '/api/auth/profile', {
      headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7', 'x-forwarded-proto': 'https' },
    });
    expect(answer.body).toMatchObject({ forwardedFor: '203.0.113.7', forwardedProto: 'https' });
  });

  it('believes no forwarding header when no proxy is trusted, so nobody picks the address a limit counts', async () => {
    const gateway = await startGateway({ AUTH_URL: upstream, TRUST_PROXY: 'false' });
    const answer = await api(gateway, 'GET', '/api/auth/profile', {
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    });
    expect(answer.body).toMatchObject({ forwardedFor: '127.0.0.1', forwardedProto: 'http' });
  });

  it('accepts a browser write behind TLS termination as same-origin, and still refuses another site', async () => {
    const gateway = await startGateway({ AUTH_URL: upstream, TRUST_PROXY: '127.0.0.1/8' });
    const host = new URL(gateway).host;
    const behindTls = { 'x-forwarded-proto': 'https', origin: `https://${host}` };
    const own = await api(gateway, 'POST', '/api/auth/login', { body: {}, headers: behindTls });
    expect(own.status).toBe(200);
    const other = await api(gateway, 'POST', '/api/auth/login', {
      body: {},
      headers: { 'x-forwarded-proto': 'https', origin: 'https://evil.example' },
    });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('Запросы с другого сайта запрещены');
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor addresses', () => {
    expect(() => gatewayConfigSchema.parse({ TRUST_PROXY: 'everyone', INTERNAL_TOKEN: process.env.INTERNAL_TOKEN })).toThrow(
      /not a hop count/,
    );
  });
});
