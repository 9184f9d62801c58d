import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Router from '@koa/router';
import { Schema } from 'mongoose';
import type { ManagedProcess } from '@portal/devstack/processes';
import { ferretdbPath, startFerretDB } from '@portal/devstack/store';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { freePort } from '@portal/devstack/util';
import { MSG } from '@portal/contracts';

// A private store the test may stop, so nothing else on the machine is disturbed.
let store: ManagedProcess;
let port: number;
let dir: string;
let service: TestService;

const notes = (ctx: TestService['ctx']) => ctx.store.models.Note ?? ctx.store.model('Note', new Schema({ text: String }));

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(path.join(tmpdir(), 'store-fault-'));
  store = await startFerretDB(ferretdbPath()!, port, dir, `ferretdb-${port}`);
  service = await startTestService(
    'content',
    (ctx) => {
      const router = new Router();
      router.post('/api/notes', async (koa) => {
        await notes(ctx).create({ text: String((koa.request.body as { text?: string }).text ?? '') });
        koa.status = 201;
        koa.body = { count: await notes(ctx).countDocuments() };
      });
      return [router];
    },
    { env: { MONGO_URL: `mongodb://127.0.0.1:${port}` } },
  );
});
afterAll(async () => {
  await service.close().catch(() => undefined);
  await store.stop();
});

it('answers 503 within a second while the store is down, keeps serving, and recovers without a restart', async () => {
  expect((await api(service.url, 'POST', '/api/notes', { body: { text: 'один' } })).body).toEqual({ count: 1 });
  // Ready before the fault. The readiness ping has 800 ms; on a machine busy with every other test
  // file it has once missed that (a 503 before anything was stopped), so it may ask a few times.
  const readyBy = Date.now() + 5_000;
  let ready = await api(service.url, 'GET', '/readyz');
  while (ready.status !== 200 && Date.now() < readyBy) ready = await api(service.url, 'GET', '/readyz');
  expect(ready.status).toBe(200);

  await store.stop('SIGKILL');
  const started = Date.now();
  const down = await api(service.url, 'POST', '/api/notes', { body: { text: 'два' } });
  expect(down.status).toBe(503);
  expect(down.body).toEqual({ message: MSG.storeUnavailable, statusCode: 503 });
  expect(Date.now() - started).toBeLessThan(1500);
  expect((await api(service.url, 'GET', '/healthz')).status).toBe(200);
  expect((await api(service.url, 'GET', '/readyz')).status).toBe(503);

  store = await startFerretDB(ferretdbPath()!, port, dir, `ferretdb-${port}`);
  const deadline = Date.now() + 15_000;
  let answer = await api(service.url, 'POST', '/api/notes', { body: { text: 'три' } });
  while (answer.status !== 201 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    answer = await api(service.url, 'POST', '/api/notes', { body: { text: 'три' } });
  }
  expect(answer.status).toBe(201);
  expect(answer.body.count).toBe(2); // the failed write changed nothing
});
