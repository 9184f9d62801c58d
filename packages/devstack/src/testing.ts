import type { AddressInfo } from 'node:net';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import type Router from '@koa/router';
import { completeInn, type AuditEvent, type ServiceName } from '@portal/contracts';
import { TEST_RUN } from './testKeys';
import {
  asUpstream,
  baseConfigSchema,
  closeServiceContext,
  createLogger,
  createServiceApp,
  createServiceContext,
  readinessOf,
  type BaseConfig,
  type ContextOptions,
  type ServiceContext,
} from '@portal/service-kit';

export interface TestService<C extends BaseConfig = BaseConfig> {
  url: string;
  ctx: ServiceContext<C>;
  server: Server;
  close(): Promise<void>;
}

/** A prefix unique to one test file, so each file has its own databases and its own queue. */
/**
 * A prefix of a test file's databases and queues: `t`, the time in base 36, six random hex digits,
 * and the id of the jest run that made it (PORTAL_TEST_RUN, set by the global setup), so that a
 * run's teardown removes its own keys and not those of another run beside it (testKeys.ts).
 */
export const uniquePrefix = (): string =>
  `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}${TEST_RUN.test(process.env.PORTAL_TEST_RUN ?? '') ? process.env.PORTAL_TEST_RUN : ''}_`;

/**
 * Starts a real service app on port 0 against the real store and Redis (as the global setup
 * found them), with its own databases. Drop them with close().
 */
export async function startTestService<C extends BaseConfig>(
  name: ServiceName,
  routers: (ctx: ServiceContext<C>) => Router[],
  {
    env = {},
    prefix = uniquePrefix(),
    lookup,
    schema = baseConfigSchema as { parse(input: unknown): unknown },
  }: {
    env?: Record<string, string>;
    prefix?: string;
    lookup?: ContextOptions['lookup'];
    schema?: { parse(input: unknown): unknown };
  } = {},
): Promise<TestService<C>> {
  const config = schema.parse({
    ...process.env,
    NODE_ENV: 'test',
    DB_PREFIX: prefix,
    QUEUE_PREFIX: prefix.replace(/_$/, ''),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  }) as C;
  const ctx = await createServiceContext<C>(name, config, {
    lookup,
    logger: createLogger(name, config.LOG_LEVEL),
    storeAttempts: 5,
  });
  const app = createServiceApp({ name, logger: ctx.logger, routers: routers(ctx), readiness: readinessOf(ctx) });
  const server = asUpstream(app.listen(0, '127.0.0.1'));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ctx,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await ctx.store.dropDatabase().catch(() => undefined);
      await closeServiceContext(ctx);
    },
  };
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small HTTP client for tests: JSON in, JSON out, optional bearer token. */
export async function api<T = any>(
  base: string,
  method: string,
  path: string,
  { token, body, headers = {} }: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/**
 * Whether a collection's store work is a service's own, not a request's: the audit publisher's timer
 * drains its outbox every 2 s and after any publish, whatever the route did. Store-cost checks leave it out.
 */
export const isBackgroundCollection = (collection: string): boolean => collection.includes('outbox');

/**
 * The store operations a service sends while `work` runs, as "collection.method" (through the
 * connection's operation events): proves that a route's store work does not grow with its data.
 * Background collections are left out (isBackgroundCollection).
 */
export async function storeOperationsDuring(service: TestService, work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (op: { collectionName: string; method: string }) => {
    if (!isBackgroundCollection(op.collectionName)) seen.push(`${op.collectionName}.${op.method}`);
  };
  service.ctx.store.on('operation-start', listener);
  try {
    await work();
  } finally {
    service.ctx.store.off('operation-start', listener);
  }
  return seen;
}

/** A GET's raw answer, undecoded (node:http never decompresses), to see what was sent on the wire. */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let innCounter = 0;
/** A valid ИНН (check digits right) that no other test is likely to use: 77, 5 random digits, a counter, the check digit. */
export const uniqueInn = (): string =>
  completeInn(`77${String(randomInt(100_000)).padStart(5, '0')}${String(innCounter++ % 100).padStart(2, '0')}`);

/**
 * The audit events a service under test has published (no audit worker runs in service tests).
 * A flush already under way may have left out an event published after it began: flush until none waits.
 */
export async function publishedAuditEvents(service: Pick<TestService, 'ctx'>): Promise<AuditEvent[]> {
  do await service.ctx.audit.flush();
  while (service.ctx.audit.pending);
  const jobs = await service.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs.map((j) => j.data as AuditEvent);
}
