import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Router from '@koa/router';
import { z } from 'zod';
import pino from 'pino';
import { parse } from '@portal/service-kit';
import { startTestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { createGateway } from '../../gateway/src/app';
import { gatewayConfigSchema } from '../../gateway/src/config';

/**
 * The servers the throughput benchmarks hit, started in their own process (so the load generator
 * does not share their event loop). `gateway` mode starts only the gateway in front of UPSTREAM.
 */
const listen = (server: { listen: (port: number, host: string, cb: () => void) => unknown; address?: () => unknown }) =>
  new Promise<number>((resolve) => {
    const s = server.listen(0, '127.0.0.1', () => resolve((s as { address(): AddressInfo }).address().port)) as unknown;
  });

// Exit cleanly on a signal so profilers (--cpu-prof) can write their output.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));

async function main() {
  if (process.argv[2] === 'gateway') {
    const upstream = process.env.UPSTREAM!;
    // This gateway calls no /internal route: a token of its own for this run only.
    const config = gatewayConfigSchema.parse({
      CONTENT_URL: upstream,
      AUTH_URL: upstream,
      LOG_LEVEL: 'silent',
      INTERNAL_TOKEN: randomBytes(16).toString('hex'),
    });
    const port = await listen(createGateway(config, pino({ level: 'silent' })).app);
    console.log(JSON.stringify({ gateway: port }));
    return;
  }
  const answer = JSON.stringify({ ok: true, items: [1, 2, 3] });
  const bare = await listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    }),
  );
  const app = express();
  app.disable('x-powered-by');
  app.get('/bench', (_req, res) => res.json({ ok: true, items: [1, 2, 3] }));
  const bareExpress = await listen(app);

  const auth = await startAuth();
  const user = await userWithRole(auth, 'CURATOR');
  const querySchema = z.object({ q: z.string().max(50), page: z.coerce.number().int().min(1).default(1) });
  const service = await startTestService(
    'progress',
    (ctx) => {
      const router = new Router();
      router.get('/bench', ctx.authenticate, async (koa) => {
        const { q, page } = parse(querySchema, koa.query);
        koa.body = { ok: true, q, page, items: [1, 2, 3] };
      });
      return [router];
    },
    { env: { AUTH_URL: auth.url } },
  );
  console.log(JSON.stringify({ bare, bareExpress, service: new URL(service.url).port, token: user.token }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
