import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { Agent, createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import pino from 'pino';
import { MSG, PAGE_BOOT_SCRIPT, SCORM_MSG } from '@portal/contracts';
import { api, rawGet } from '@portal/devstack/testing';
import { startAuth } from '@portal/svc-auth/testing';
import { asEdge, createGateway } from './app';
import { gatewayConfigSchema } from './config';

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

let auth: Awaited<ReturnType<typeof startAuth>>;
let gateway: Server;
let url: string;
let hanging: Server;
let staticRoot: string;
const DEAD = 'http://127.0.0.1:9'; // discard port: nothing listens
const CHUNK = `(self.chunks=self.chunks||[]).push(${JSON.stringify('модуль курса '.repeat(400))});`;

beforeAll(async () => {
  auth = await startAuth();
  hanging = createServer(() => undefined); // accepts and never answers
  const hangingUrl = await listen(hanging);
  staticRoot = mkdtempSync(path.join(tmpdir(), 'gateway-static-'));
  mkdirSync(path.join(staticRoot, 'shell/dist'), { recursive: true });
  writeFileSync(path.join(staticRoot, 'shell/dist/index.html'), '<!doctype html><title>shell</title>');
  mkdirSync(path.join(staticRoot, 'mf-courses/dist'), { recursive: true });
  writeFileSync(path.join(staticRoot, 'mf-courses/dist/remoteEntry.js'), '/* entry */');
  writeFileSync(path.join(staticRoot, 'mf-courses/dist/215.f5c5aa63fd.js'), '/* chunk */');
  // A chunk the build compressed ahead, and one it did not (a remote rebuilt after the gateway started).
  const dist = path.join(staticRoot, 'mf-courses/dist');
  writeFileSync(path.join(dist, '326.0a1b2c3d4e.js'), CHUNK);
  writeFileSync(path.join(dist, '326.0a1b2c3d4e.js.br'), brotliCompressSync(CHUNK));
  writeFileSync(path.join(dist, '326.0a1b2c3d4e.js.gz'), gzipSync(CHUNK, { level: 9 }));
  writeFileSync(path.join(dist, '843.5f6e7d8c9b.js'), CHUNK);
  // A twin an earlier build left, older than the file beside it, is never sent for it.
  writeFileSync(path.join(dist, '843.5f6e7d8c9b.js.br'), brotliCompressSync('/* an earlier build */'));
  utimesSync(path.join(dist, '843.5f6e7d8c9b.js.br'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const config = gatewayConfigSchema.parse({
    INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
    AUTH_URL: auth.url,
    CONTENT_URL: DEAD,
    PROGRESS_URL: DEAD,
    CRM_URL: hangingUrl,
    AUDIT_URL: DEAD,
    STATIC_ROOT: staticRoot,
    // Long enough for a real login (argon2) on a loaded machine, short enough for the hanging-service test.
    PROXY_TIMEOUT_MS: '2000',
    JSON_BODY_LIMIT: '1024',
  });
  gateway = asEdge(createGateway(config, pino({ level: 'silent' })).app.listen(0, '127.0.0.1'));
  await new Promise((r) => gateway.once('listening', r));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
  gateway.closeAllConnections();
  gateway.close();
  hanging.closeAllConnections();
  hanging.close();
  await auth.close();
});

describe('routing', () => {
  it('proxies /api/auth to the auth service and keeps the request id', async () => {
    const answer = await api(url, 'POST', '/api/auth/login', {
      body: { email: 'nobody@example.test', password: 'x' },
      headers: { 'x-request-id': 'req-123' },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(MSG.badCredentials);
    expect(answer.headers.get('x-request-id')).toBe('req-123');
  });

  it('keeps an idle client connection longer than a client keeps one, so a request never meets a closing socket', async () => {
    // A client (a browser, a load balancer, a test's fetch) reuses an idle socket for as long as this
    // header allows, less a second; with node's 5 s a request sent after a pause could reach the
    // gateway as it closed the socket, and come back as a reset connection.
    const keepAlive = await new Promise<unknown>((resolve, reject) =>
      get(`${url}/api/nothing-here`, { agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        resolve(res.headers['keep-alive']);
        res.socket.destroy();
      }).on('error', reject),
    );
    expect(keepAlive).toBe('timeout=65');
  });

  it('answers the doubled /api/api/... form of the original contract', async () => {
    const answer = await api(url, 'GET', '/api/api/users');
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(MSG.unauthorized);
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const answer = await api(url, 'GET', '/api/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: MSG.notFoundRoute, statusCode: 404 });
  });

  it('answers a dead service with a Russian 503 at once, and keeps serving', async () => {
    const started = Date.now();
    const answer = await api(url, 'GET', '/api/courses');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ message: MSG.serviceUnavailable, statusCode: 503 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await api(url, 'POST', '/api/auth/login', { body: { email: 'a@b.test', password: 'x' } })).status).toBe(401);
  });

  it('answers a hanging service with 504 at its timeout', async () => {
    const started = Date.now();
    const answer = await api(url, 'GET', '/api/organizations');
    expect(answer.status).toBe(504);
    expect(answer.body.message).toBe(MSG.serviceTimeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('refuses a body over the limit with 413 before it reaches a service', async () => {
    const answer = await api(url, 'POST', '/api/auth/register', { body: { fullName: 'x'.repeat(2000) } });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(MSG.bodyTooLarge);
  });

  it('reports each service in /api/health', async () => {
    const answer = await api(url, 'GET', '/api/health');
    expect(answer.status).toBe(503);
    expect(answer.body.services).toMatchObject({ auth: 'ready', content: 'down', audit: 'down' });
  });

  it('answers its own probes while services are down, so it stays behind the load balancer', async () => {
    for (const probe of ['/healthz', '/readyz']) {
      const answer = await api(url, 'GET', probe);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 'ok', service: 'gateway' });
    }
  });
});

describe('security', () => {
  it('sets the security headers and hides the server technology', async () => {
    const { headers } = await api(url, 'GET', '/api/health');
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('strict-transport-security')).toContain('max-age=');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('x-powered-by')).toBeNull();
  });

  it('refuses API calls from a foreign origin or a null origin, and allows its own', async () => {
    const body = { email: 'x@y.test', password: 'x' };
    expect((await api(url, 'POST', '/api/auth/login', { body, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await api(url, 'POST', '/api/auth/login', { body, headers: { origin: 'null' } })).status).toBe(403);
    expect((await api(url, 'POST', '/api/auth/login', { body, headers: { origin: url } })).status).toBe(401);
  });
});

describe('media sources (MEDIA_ORIGINS)', () => {
  const directive = (csp: string | null, name: string) =>
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));

  it('plays media only from the portal unless the administrator lists origins; frames only the portal (SCORM packages) and the three video players', async () => {
    const { headers } = await api(url, 'GET', '/remotes.json');
    const csp = headers.get('content-security-policy');
    expect(directive(csp, 'media-src')).toBe("media-src 'self' blob:");
    expect(directive(csp, 'frame-src')).toBe(
      "frame-src 'self' https://www.youtube-nocookie.com https://rutube.ru https://vkvideo.ru",
    );
  });

  it('adds the listed https origins to media-src and img-src (posters)', async () => {
    const config = gatewayConfigSchema.parse({
      INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
      AUTH_URL: DEAD,
      STATIC_ROOT: staticRoot,
      MEDIA_ORIGINS: 'https://cdn.example.ru, https://video.example.com/',
    });
    const server = createGateway(config, pino({ level: 'silent' })).app.listen(0, '127.0.0.1');
    const base = await new Promise<string>((r) =>
      server.once('listening', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
    try {
      const csp = (await fetch(`${base}/remotes.json`)).headers.get('content-security-policy');
      expect(directive(csp, 'media-src')).toBe("media-src 'self' blob: https://cdn.example.ru https://video.example.com");
      expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: https://cdn.example.ru https://video.example.com");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses to start with an entry that is not an https origin, naming it', () => {
    const parsed = gatewayConfigSchema.safeParse({
      INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
      MEDIA_ORIGINS: 'https://cdn.example.ru,http://plain.example.ru',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message)).toEqual([
      'not an https origin (https://host[:port], no path): http://plain.example.ru',
    ]);
  });
});

describe('front ends', () => {
  it('publishes the runtime manifest of remotes', async () => {
    const answer = await api(url, 'GET', '/remotes.json');
    expect(answer.body.mf_courses).toBe('/mf/mf-courses/mf-manifest.json');
    expect(Object.keys(answer.body)).toHaveLength(6);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
  });

  it('caches hashed files for a year and entries not at all', async () => {
    const entry = await fetch(`${url}/mf/mf-courses/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    const chunk = await fetch(`${url}/mf/mf-courses/215.f5c5aa63fd.js`);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${url}/mf/mf-courses/missing.js`)).status).toBe(404);
  });

  it('sends the brotli or gzip form the build made as it is, and compresses a file without one on the fly', async () => {
    const file = path.join(staticRoot, 'mf-courses/dist/326.0a1b2c3d4e.js');
    const br = await rawGet(`${url}/mf/mf-courses/326.0a1b2c3d4e.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.bytes.equals(readFileSync(`${file}.br`))).toBe(true);
    expect(br.headers['content-type']).toMatch(/^text\/javascript; charset=utf-8$/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gzip = await rawGet(`${url}/mf/mf-courses/326.0a1b2c3d4e.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.bytes.equals(readFileSync(`${file}.gz`))).toBe(true);

    const plain = await rawGet(`${url}/mf/mf-courses/326.0a1b2c3d4e.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString('utf8')).toBe(CHUNK);

    const onTheFly = await rawGet(`${url}/mf/mf-courses/843.5f6e7d8c9b.js`, { 'accept-encoding': 'gzip' });
    expect(onTheFly.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(onTheFly.bytes).toString('utf8')).toBe(CHUNK);
    const notStale = await rawGet(`${url}/mf/mf-courses/843.5f6e7d8c9b.js`, { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(notStale.bytes).toString('utf8')).toBe(CHUNK);
  });

  it('serves the shell for every page route, so a reload works anywhere', async () => {
    const page = await fetch(`${url}/crm/orgs/123`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>shell</title>');
  });

  it('serves / as the page with the landing pre-rendered in it when the build made one, and every other route as the shell', async () => {
    expect(await (await fetch(`${url}/`)).text()).toContain('<title>shell</title>'); // no landing.html: the shell
    const landing = path.join(staticRoot, 'shell/dist/landing.html');
    writeFileSync(landing, '<!doctype html><title>shell</title><h1>Создавайте курсы</h1>');
    try {
      for (const address of ['/', '/?from=mail']) {
        const page = await fetch(`${url}${address}`);
        expect(page.status).toBe(200);
        expect(page.headers.get('cache-control')).toBe('no-cache');
        expect(await page.text()).toContain('<h1>Создавайте курсы</h1>');
      }
      expect(await (await fetch(`${url}/courses`)).text()).not.toContain('Создавайте курсы');
    } finally {
      rmSync(landing);
    }
  });

  it('lets the page run its one inline script, the boot script, and no other', async () => {
    const csp = (await fetch(`${url}/`)).headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
    const hash = createHash('sha256').update(PAGE_BOOT_SCRIPT).digest('base64');
    expect(scriptSrc?.trim()).toBe(`script-src 'self' 'sha256-${hash}'`);
  });
});

describe('front ends in their own containers', () => {
  it('proxies /mf/<name>/ and the shell to the static containers named in STATIC_UPSTREAMS', async () => {
    const container = createServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`static:${req.url}`);
    });
    const containerUrl = await listen(container);
    const config = gatewayConfigSchema.parse({
      INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
      AUTH_URL: DEAD,
      STATIC_ROOT: staticRoot,
      STATIC_UPSTREAMS: JSON.stringify({ 'mf-crm': containerUrl, shell: containerUrl }),
    });
    const server = createGateway(config, pino({ level: 'silent' })).app.listen(0, '127.0.0.1');
    const base = await new Promise<string>((r) =>
      server.once('listening', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
    try {
      expect(await (await fetch(`${base}/mf/mf-crm/remoteEntry.js`)).text()).toBe('static:/remoteEntry.js');
      expect(await (await fetch(`${base}/crm/orgs`)).text()).toBe('static:/crm/orgs');
      expect((await fetch(`${base}/mf/mf-courses/remoteEntry.js`)).status).toBe(200); // still served from disk
    } finally {
      server.closeAllConnections();
      server.close();
      container.close();
    }
  });
});

describe('requests the gateway itself cannot serve are refused in Russian, never a 500', () => {
  it('an unsatisfiable Range on a page or a file is 416 with a Russian message', async () => {
    for (const path of ['/', '/courses/1', '/mf/mf-courses/remoteEntry.js']) {
      const answer = await api(url, 'GET', path, { headers: { range: 'bytes=999999999999999999999-1' } });
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 416,
        body: { message: MSG.rangeNotSatisfiable, statusCode: 416 },
      });
    }
  });

  it('a URL over the header size limit is 431 with a Russian message, and the next request is served', async () => {
    const answer = await api(url, 'GET', `/api/courses?search=${'%D1%8B'.repeat(5000)}`);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 431,
      body: { message: MSG.headersTooLarge, statusCode: 431 },
    });
    expect((await api(url, 'GET', '/remotes.json')).status).toBe(200);
  });
});

describe('SCORM package files (/scorm/*)', () => {
  it('go to the content service with its own sandbox policy: no portal CSP, X-Frame-Options or resource policy over it', async () => {
    const SANDBOX = "sandbox allow-scripts; default-src 'self'; frame-ancestors 'self'";
    const content = createServer((req, res) => {
      res.setHeader('content-security-policy', SANDBOX);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<p>${req.url}</p>`);
    });
    const config = gatewayConfigSchema.parse({
      INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
      AUTH_URL: DEAD,
      CONTENT_URL: await listen(content),
      STATIC_ROOT: staticRoot,
    });
    const server = createGateway(config, pino({ level: 'silent' })).app.listen(0, '127.0.0.1');
    const base = await new Promise<string>((r) =>
      server.once('listening', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
    try {
      // A sandboxed frame's requests carry Origin: null; /scorm is not /api, so they are not refused.
      const page = await fetch(`${base}/scorm/abc.def/shared/launchpage.html`, { headers: { origin: 'null' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toBe('<p>/scorm/abc.def/shared/launchpage.html</p>');
      expect(page.headers.get('content-security-policy')).toBe(SANDBOX);
      expect(page.headers.get('x-frame-options')).toBeNull();
      expect(page.headers.get('cross-origin-resource-policy')).toBeNull();
      // The portal's own pages keep theirs.
      const portal = await fetch(`${base}/remotes.json`);
      expect(portal.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(portal.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await new Promise((r) => server.close(r));
      await new Promise((r) => content.close(r));
    }
  });

  it('on the package origin (SCORM_ORIGIN, this gateway by another name) answer package files only, and the portal may frame that origin', async () => {
    const content = createServer((req, res) => {
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end(`${req.headers['x-forwarded-host']} ${req.url}`);
    });
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    server.close();
    const packageOrigin = `http://localhost:${port}`;
    const config = gatewayConfigSchema.parse({
      INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
      AUTH_URL: DEAD,
      CONTENT_URL: await listen(content),
      STATIC_ROOT: staticRoot,
      SCORM_ORIGIN: packageOrigin,
    });
    const gateway = createGateway(config, pino({ level: 'silent' })).app.listen(port, '127.0.0.1');
    await new Promise((r) => gateway.once('listening', r));
    // This gateway by its package name (a Host of its own), as a browser asks it for a package's files.
    const onPackages = (path: string) => rawGet(`http://127.0.0.1:${port}${path}`, { host: `localhost:${port}` });
    try {
      const file = await onPackages('/scorm/abc.def/__portal__/player.html?sco=index.html');
      expect(file.status).toBe(200);
      expect(file.bytes.toString()).toBe(`localhost:${port} /scorm/abc.def/__portal__/player.html?sco=index.html`);
      for (const path of ['/', '/remotes.json', '/api/auth/profile', '/courses', '/scorm']) {
        const refused = await onPackages(path);
        expect({ path, status: refused.status }).toEqual({ path, status: 404 });
        expect((JSON.parse(refused.bytes.toString()) as { message: string }).message).toBe(SCORM_MSG.packageHostOnly);
      }
      // The portal by its own name: its pages as before, and SCORM_ORIGIN among the frames it allows.
      const portal = await fetch(`http://127.0.0.1:${port}/remotes.json`);
      expect(portal.status).toBe(200);
      expect(portal.headers.get('content-security-policy')).toMatch(new RegExp(`frame-src 'self' ${packageOrigin} `));
    } finally {
      await new Promise((r) => gateway.close(r));
      await new Promise((r) => content.close(r));
    }
  });
});
