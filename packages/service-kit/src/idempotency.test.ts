import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Router from '@koa/router';
import { MSG } from '@portal/contracts';
import { createServiceApp } from './app';
import { badRequest } from './errors';
import { idempotent } from './idempotency';
import { createLogger } from './logger';
import { createRedis } from './redis';

// Two app instances on one Redis stand for two replicas of a service.
const logger = createLogger('test', 'silent');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', logger, { failFast: true });
const service = { redis, logger, config: { QUEUE_PREFIX: `t${Date.now().toString(36)}000000:idem` } };
let created = 0;
let servers: Server[] = [];
let urls: string[] = [];

function replica(): Server {
  const router = new Router({ prefix: '/api/things' });
  router.post(
    '/',
    async (ctx, next) => {
      const id = ctx.get('x-person') || 'anna';
      ctx.state.user = { id, role: 'CURATOR', fullName: id, email: `${id}@portal.local` };
      await next();
    },
    idempotent(service, { waitMs: 2000 }),
    async (ctx) => {
      const { title, fail, slowMs } = ctx.request.body as { title: string; fail?: boolean; slowMs?: number };
      if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
      if (fail) throw badRequest('Название занято', 'title');
      created += 1;
      ctx.status = 201;
      ctx.body = { id: `thing-${created}`, title };
    },
  );
  return createServiceApp({ name: 'content', logger, routers: [router] }).listen(0);
}

beforeAll(async () => {
  // A fail-fast connection refuses commands until it is ready (then a key would be ignored, as without Redis).
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  servers = [replica(), replica()];
  urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
});
afterAll(() => {
  servers.forEach((s) => s.close());
  redis.disconnect();
});

const post = async (key: string | null, body: unknown, { replicaIndex = 0, person = 'anna' } = {}) => {
  const res = await fetch(`${urls[replicaIndex]}/api/things`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-person': person, ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    replayed: res.headers.get('idempotent-replayed'),
  };
};
const unique = () => `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

it('10 parallel requests with one key over two replicas create once, and all get the first answer', async () => {
  const before = created;
  const key = unique();
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => post(key, { title: 'Отчёт', slowMs: 50 }, { replicaIndex: i % 2 })),
  );
  expect(created - before).toBe(1);
  expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body])))).toEqual(
    new Set([JSON.stringify([201, { id: `thing-${created}`, title: 'Отчёт' }])]),
  );
  expect(answers.filter((a) => a.replayed === 'true')).toHaveLength(9);
});

it('without a key every request runs; a key is one person’s own', async () => {
  const before = created;
  await post(null, { title: 'А' });
  await post(null, { title: 'А' });
  const key = unique();
  await post(key, { title: 'Б' });
  const other = await post(key, { title: 'Б' }, { person: 'boris' });
  expect([other.status, other.replayed]).toEqual([201, null]);
  expect(created - before).toBe(4);
});

it('another request under a used key is 422; a malformed key is 400; a refusal is not kept, so a retry runs again', async () => {
  const key = unique();
  expect((await post(key, { title: 'В' })).status).toBe(201);
  expect(await post(key, { title: 'Г' })).toMatchObject({ status: 422, body: { message: MSG.idempotencyKeyReused } });
  expect(await post('x'.repeat(256), { title: 'Г' })).toMatchObject({
    status: 400,
    body: { message: MSG.idempotencyKeyInvalid },
  });
  const retried = unique();
  expect((await post(retried, { title: 'Д', fail: true })).status).toBe(400);
  const before = created;
  expect((await post(retried, { title: 'Д', fail: true })).status).toBe(400);
  expect(created).toBe(before);
});

it('a repeat that outwaits a request still running is told so in Russian (409), and nothing more is created', async () => {
  const key = unique();
  const before = created;
  const [slow, impatient] = await Promise.all([
    post(key, { title: 'Е', slowMs: 2600 }),
    new Promise((resolve) => setTimeout(resolve, 100)).then(() => post(key, { title: 'Е', slowMs: 2600 }, { replicaIndex: 1 })),
  ]);
  expect(slow.status).toBe(201);
  expect(impatient).toMatchObject({ status: 409, body: { message: MSG.idempotencyInProgress } });
  expect(created - before).toBe(1);
});
