import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { startProcess, type ManagedProcess } from '@portal/devstack/processes';
import { api, uniquePrefix } from '@portal/devstack/testing';
import { ROOT, freePort, waitFor } from '@portal/devstack/util';

/*
 * Tracing as deployed: the gateway and the auth service run as their own processes from their
 * entry points, with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a collector this test plays (OTLP
 * over HTTP, JSON). One login through the gateway must give one trace: the gateway's server span,
 * its call to auth, auth's server span and auth's store command, each the parent of the next.
 */

interface ExportedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

interface OtlpBody {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ scope: { name: string }; spans: Array<Omit<ExportedSpan, 'service' | 'scope'>> }>;
  }>;
}

const SERVER = 2;
const CLIENT = 3;

const spans: ExportedSpan[] = [];
let collector: Server;
const processes: ManagedProcess[] = [];
const prefix = uniquePrefix();
let gatewayUrl: string;

/** A process of the portal from its sources, exporting its spans to the collector. */
async function startTraced(name: 'auth' | 'gateway', port: number, entry: string, env: Record<string, string>): Promise<string> {
  const proc = startProcess(`traced-${name}-${port}`, process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DB_PREFIX: prefix,
      QUEUE_PREFIX: prefix.replace(/_$/, ''),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...env,
    },
  });
  processes.push(proc);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${name} exited with ${proc.child.exitCode}`);
      return (await fetch(`${url}/readyz`).catch(() => null))?.ok ?? false;
    },
    `traced ${name}`,
    30_000,
  );
  return url;
}

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const parsed = JSON.parse(body) as OtlpBody;
      for (const resource of parsed.resourceSpans ?? []) {
        const service = resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const scoped of resource.scopeSpans)
          for (const span of scoped.spans) spans.push({ ...span, service, scope: scoped.scope.name });
      }
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const [authPort, gatewayPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  [, gatewayUrl] = await Promise.all([
    startTraced('auth', authPort, path.join(ROOT, 'services/auth/src/index.ts'), {
      SEED_PRESETS: 'false',
      ADMIN_REGISTRATION_PASSWORD: 'trace-test-registration',
    }),
    startTraced('gateway', gatewayPort, path.join(ROOT, 'gateway/src/index.ts'), {
      AUTH_URL: `http://127.0.0.1:${authPort}`,
      METRICS_PORT: String(metricsPort),
      ACCESS_LOG: 'off',
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all(processes.map((proc) => proc.stop()));
  collector?.closeAllConnections();
  collector?.close();
  const store = await mongoose.createConnection(process.env.MONGO_URL!, { dbName: `${prefix}auth` }).asPromise();
  await store.dropDatabase().catch(() => undefined);
  await store.close();
});

it('follows a request from the gateway through the service to the store in one trace', async () => {
  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const answer = await api(gatewayUrl, 'POST', '/api/auth/login', {
    body: { email: 'nobody@example.test', password: 'wrong-password' },
    headers: { traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'trace-test-1' },
  });
  expect(answer.status).toBe(401);
  expect(answer.headers.get('x-request-id')).toBe('trace-test-1');

  const ofTrace = () => spans.filter((span) => span.traceId === traceId);
  const storeSpan = () => ofTrace().find((s) => s.service === 'auth' && s.scope.includes('mongodb') && /find/.test(s.name));
  await waitFor(async () => storeSpan() !== undefined && ofTrace().some((s) => s.parentSpanId === callerSpan), 'spans', 10_000);

  // From the store command up to the caller's span, each span's parent is in the same trace.
  const byId = new Map(ofTrace().map((span) => [span.spanId, span]));
  const chain: ExportedSpan[] = [];
  for (let span = storeSpan(); span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) chain.push(span);
  expect(chain.at(-1)?.parentSpanId).toBe(callerSpan);
  const hops = chain.map(
    (span) => `${span.service}:${span.kind === SERVER ? 'server' : span.kind === CLIENT ? 'client' : 'internal'}`,
  );
  // Read from the top: the gateway answers, calls auth; auth answers and asks the store.
  const top = [...hops].reverse();
  expect(top[0]).toBe('gateway:server');
  expect(top.indexOf('gateway:client')).toBeGreaterThan(0);
  expect(top.indexOf('auth:server')).toBeGreaterThan(top.indexOf('gateway:client'));
  expect(top.at(-1)).toBe('auth:client');
  expect(chain[0].scope).toContain('mongodb');
}, 30_000);
