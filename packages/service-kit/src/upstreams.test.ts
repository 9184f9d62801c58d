import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { createServiceApp } from './app';
import { createLogger } from './logger';
import { Upstreams, upstreamListSchema } from './upstreams';

const servers: Server[] = [];
const replica = async (name: string) => {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    res.end(name);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
};
afterAll(() => servers.forEach((s) => s.close()));

/** A port something just listened on and closed: connections to it are refused (fetch will not dial port 9). */
const deadUrl = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
};

describe('a service called through its replicas', () => {
  it('asks each replica in turn', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const service = new Upstreams([a.url, b.url]);
    const names = [];
    for (let i = 0; i < 4; i++) names.push(await (await service.fetch('/x')).text());
    expect(names).toEqual(['a', 'b', 'a', 'b']);
  });

  it('reads from another replica when one refuses, and rests the dead one', async () => {
    const a = await replica('a');
    const service = new Upstreams([await deadUrl(), a.url]);
    const names = [];
    for (let i = 0; i < 3; i++) names.push(await (await service.fetch('/x')).text());
    expect(names).toEqual(['a', 'a', 'a']);
    // Asked once by the first call's retry, then once for each call while the dead one rests.
    expect(a.requests()).toBe(3);
  });

  it('does not send a write to a second replica: the caller hears that the first could not be reached', async () => {
    const a = await replica('a');
    const service = new Upstreams([await deadUrl(), a.url]);
    await expect(service.fetch('/x', { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(a.requests()).toBe(0);
    // The dead one now rests: the next write goes to the live replica.
    expect(await (await service.fetch('/x', { method: 'POST', body: '{}' })).text()).toBe('a');
  });

  it('reads from another replica when one closes the connection without answering (killed mid-request); a write is not sent twice', async () => {
    const a = await replica('a');
    let reached = 0;
    const dying = createServer((req) => {
      reached++;
      req.socket.end(); // the request arrived; no answer comes
    });
    servers.push(dying);
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const dyingUrl = `http://127.0.0.1:${(dying.address() as AddressInfo).port}`;
    expect(await (await new Upstreams([dyingUrl, a.url]).fetch('/x')).text()).toBe('a');
    expect(reached).toBe(1);
    await expect(new Upstreams([dyingUrl, a.url]).fetch('/x', { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(reached).toBe(2);
    expect(a.requests()).toBe(1);
  });

  it('tries them all again when every replica rests', async () => {
    const dead = [await deadUrl(), await deadUrl()];
    const service = new Upstreams(dead, 60_000);
    await expect(service.fetch('/x')).rejects.toThrow();
    expect(dead).toContain(service.pick());
  });
});

describe('a call made while a request is handled', () => {
  it("carries the request id and the caller's trace context to the next service; its own headers win", async () => {
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const next = createServer((req, res) => {
      seen.push(req.headers);
      res.end('{}');
    });
    servers.push(next);
    await new Promise<void>((resolve) => next.listen(0, '127.0.0.1', resolve));
    const peer = new Upstreams([`http://127.0.0.1:${(next.address() as AddressInfo).port}`]);
    const router = new Router();
    router.get('/relay', async (ctx) => {
      await (await peer.fetch('/a')).text();
      await (await peer.fetch('/b', { headers: { 'x-request-id': 'chosen-by-caller' } })).text();
      ctx.body = { ok: true };
    });
    const app = createServiceApp({ name: 'relay', logger: createLogger('relay', 'silent'), routers: [router] });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`, {
      headers: { 'x-request-id': 'req-relay-1', traceparent, tracestate: 'portal=1' },
    });
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({ 'x-request-id': 'req-relay-1', traceparent, tracestate: 'portal=1' });
    expect(seen[1]['x-request-id']).toBe('chosen-by-caller');
    // Outside a request (a timer, a queue worker) nothing is added.
    await (await peer.fetch('/c')).text();
    expect(seen[2]['x-request-id']).toBeUndefined();
  });
});

describe('a peer URL setting', () => {
  it('takes one URL or a comma-separated list of replicas', () => {
    expect(upstreamListSchema('http://127.0.0.1:1').parse(undefined)).toEqual(['http://127.0.0.1:1']);
    expect(upstreamListSchema('x').parse('http://a:1/, http://b:2')).toEqual(['http://a:1', 'http://b:2']);
  });

  it('refuses an entry that is not an http(s) URL', () => {
    expect(() => upstreamListSchema('x').parse('http://a:1,ftp://b')).toThrow(/not an http\(s\) URL: ftp:\/\/b/);
    expect(() => upstreamListSchema('x').parse(' , ')).toThrow(/at least one URL/);
  });
});
