/**
 * What the gateway itself costs per proxied answer: one gateway process in front of an upstream that
 * answers at once, a few connections, and the gateway's CPU (from /proc) divided by the answers it
 * sent. The answers differ only in how the gateway handles them, and the kinds take turns in rounds,
 * so a difference between two of them is the gateway's, not the host's: a host whose speed moves
 * from one run to the next (a shared VM) moves every kind of a round alike.
 *
 *   npm run bench -- gateway
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuOfPid } from './cpuSplit';
import { QUICK, round, type Figure } from './harness';
import { BROWSER, measure } from './portal';
import { startGateway } from './refusals';

/** A page of the catalogue as the content service sends it: twenty courses, about 7 KB of JSON. */
const PAGE = JSON.stringify({
  items: Array.from({ length: 20 }, (_, i) => ({
    _id: `6756f0c1a2b3c4d5e6f7${String(1000 + i)}`,
    title: `Охрана труда и пожарная безопасность, часть ${i + 1}`,
    description: 'Курс для новых сотрудников: правила, инструкции и проверка знаний в конце каждого модуля.',
    category: 'Обязательное обучение',
    status: 'published',
    modulesCount: 4 + (i % 3),
    lessonsCount: 12 + i,
    isFavourite: i % 4 === 0,
    startedAt: i % 3 === 0 ? '2026-11-30T09:15:00.000Z' : null,
    updatedAt: '2026-12-01T10:00:00.000Z',
  })),
  total: 240,
  page: 1,
  limit: 20,
});
const SMALL = JSON.stringify({ ok: true, id: '6756f0c1a2b3c4d5e6f71000' });

/** The kinds of answer, each a query the upstream reads. */
const KINDS = [
  { name: 'a 7 KB JSON answer of declared length, to a browser', query: 'whole', headers: BROWSER },
  { name: 'the same answer sent without a length (chunked), to a browser', query: 'chunked', headers: BROWSER },
  { name: 'the same answer to a client that takes no compression', query: 'whole', headers: {} },
  { name: 'an answer under 1 KB, to a browser', query: 'small', headers: BROWSER },
] as const;

function answer(req: IncomingMessage, res: ServerResponse) {
  const kind = new URL(req.url ?? '/', 'http://upstream').searchParams.get('kind');
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (kind === 'chunked') {
    res.write(PAGE.slice(0, 3000));
    return void res.end(PAGE.slice(3000));
  }
  const body = kind === 'small' ? SMALL : PAGE;
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export async function gatewayCostFigures(figures: Figure[]): Promise<void> {
  const upstream = createServer(answer);
  upstream.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const port = Number(process.env.BENCH_PORT_OFFSET ?? 600) + 8901;
  const gateway = await startGateway(upstreamUrl, port, { env: { ACCESS_LOG: 'off' } });
  const rounds = QUICK ? 2 : 4;
  const seconds = QUICK ? 2 : 4;
  const perKind = KINDS.map(() => ({ micros: [] as number[], rps: [] as number[] }));
  try {
    // Warm-up: the JIT has seen every path before the first round counts.
    for (const kind of KINDS)
      await measure({
        url: `${gateway.url}/api/courses?kind=${kind.query}`,
        headers: kind.headers,
        connections: 10,
        duration: 1,
      });
    for (let r = 0; r < rounds; r++) {
      for (const [i, kind] of KINDS.entries()) {
        const before = cpuOfPid(gateway.child.pid);
        const m = await measure({
          url: `${gateway.url}/api/courses?kind=${kind.query}`,
          headers: kind.headers,
          connections: 10,
          duration: seconds,
        });
        const cpu = cpuOfPid(gateway.child.pid) - before;
        if (m.non2xx || m.errors) throw new Error(`${kind.name}: ${JSON.stringify(m.statuses)}, ${m.errors} errors`);
        perKind[i].micros.push((cpu * 1e6) / m.total);
        perKind[i].rps.push(m.rps);
      }
    }
  } finally {
    gateway.child.kill('SIGTERM');
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const [i, kind] of KINDS.entries()) {
    const { micros, rps } = perKind[i];
    figures.push({
      name: `gateway: CPU per proxied answer, ${kind.name}`,
      value: round(median(micros)),
      unit: 'µs',
      note: `median of ${rounds} rounds of ${seconds} s (${micros.map((m) => round(m)).join(', ')} µs), 10 connections, ${round(median(rps))} answers/s`,
    });
  }
}
