import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_PORTS, SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import { loadAuthConfig } from '@portal/svc-auth/config';
import { loadAuditConfig } from '@portal/svc-audit/config';
import { loadContentConfig } from '@portal/svc-content/config';
import { loadCrmConfig } from '@portal/svc-crm/config';
import { loadProgressConfig } from '@portal/svc-progress/config';
import { parseGatewayConfig } from '../../../gateway/src/config';
import { FRONTENDS } from './build';
import { ROOT } from './util';

// No Docker engine runs here, so the production-like compose file is checked against the code: each
// process's configuration is loaded with exactly the environment compose gives it, and every peer URL
// must name a container of the file on the port that container listens on.
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
}
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;

/** What an operator exports before `docker compose up` (docs/deploying.md). */
const OPERATOR_ENV: Record<string, string> = {
  JWT_SECRET: 'an-operator-secret-of-at-least-32-characters',
  INTERNAL_TOKEN: 'an-operator-internal-token',
  ADMIN_REGISTRATION_PASSWORD: 'an-operator-admin-password',
};

/** Compose's interpolation: ${NAME:?message} must be given, ${NAME:-default} may be. */
const interpolate = (value: string, operator: Record<string, string>): string =>
  value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
    if (operator[name] !== undefined && operator[name] !== '') return operator[name];
    if (kind === '?') throw new Error(`compose refuses to start: ${name} is not set (${rest})`);
    return kind === '-' ? (rest ?? '') : '';
  });

const environmentOf = (name: string, operator = OPERATOR_ENV): Record<string, string> =>
  Object.fromEntries(Object.entries(services[name].environment ?? {}).map(([k, v]) => [k, interpolate(String(v), operator)]));

const LOADERS: Record<ServiceName, (env: Record<string, string>) => { NODE_ENV: string; PORT: number }> = {
  auth: loadAuthConfig,
  content: loadContentConfig,
  progress: loadProgressConfig,
  crm: loadCrmConfig,
  audit: loadAuditConfig,
};

/** Every peer URL a process was given names a container of this file, on the port it listens on. */
const expectPeersWired = (env: Record<string, string>) => {
  const peers = Object.entries(env).filter(([key]) => key.endsWith('_URL') && env[key] !== '');
  expect(peers.length).toBeGreaterThan(0);
  for (const [key, value] of peers) {
    const url = new URL(value);
    const peer = services[url.hostname];
    expect({ key, host: url.hostname, known: peer !== undefined }).toEqual({ key, host: url.hostname, known: true });
    const listens =
      url.hostname === 'mongo' ? '27017' : url.hostname === 'redis' ? '6379' : (peer.environment?.PORT ?? peer.expose?.[0]);
    expect({ key, port: url.port }).toEqual({ key, port: listens });
  }
};

const dependsOn = (service: ComposeService): Record<string, string> =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((d) => [d, 'service_started']))
    : Object.fromEntries(Object.entries(service.depends_on ?? {}).map(([d, v]) => [d, v.condition]));

const dockerfileOf = (service: ComposeService) => readFileSync(path.join(ROOT, service.build!.dockerfile), 'utf8');
/** A container is healthy only if compose or its image defines a health check. */
const hasHealthcheck = (name: string) =>
  services[name].healthcheck !== undefined ||
  (services[name].build !== undefined && /^HEALTHCHECK /m.test(dockerfileOf(services[name])));

it('uses the official mongo:7 and redis:7 images, each with a health check', () => {
  expect(services.mongo.image).toBe('mongo:7');
  expect(services.redis.image).toBe('redis:7');
  expect(services.mongo.healthcheck?.test.join(' ')).toContain('ping');
  expect(services.redis.healthcheck?.test.join(' ')).toContain('ping');
});

it('refuses to start without the operator secrets', () => {
  expect(() => environmentOf('auth', {})).toThrow(/JWT_SECRET is not set/);
  expect(() => environmentOf('auth', { JWT_SECRET: 'x', INTERNAL_TOKEN: 'y' })).toThrow(/ADMIN_REGISTRATION_PASSWORD/);
  expect(() => environmentOf('gateway', {})).toThrow(/INTERNAL_TOKEN is not set/);
});

describe.each(SERVICE_NAMES)('the %s service', (name) => {
  const service = services[name];

  it('builds its own image and listens on its port', () => {
    expect(service.build?.args?.TARGET).toBe(`services/${name}`);
    expect(service.build?.args?.PORT).toBe(String(DEFAULT_PORTS[name]));
    expect(existsSync(path.join(ROOT, service.build!.args!.TARGET, 'src/index.ts'))).toBe(true);
    expect(service.environment?.PORT).toBe(String(DEFAULT_PORTS[name]));
    expect(service.expose).toEqual([String(DEFAULT_PORTS[name])]);
  });

  it('starts in production with exactly the environment compose gives it', () => {
    const env = environmentOf(name);
    // Throws with the readable list on anything missing, a development secret or a loopback peer.
    const config = LOADERS[name](env);
    expect(config.NODE_ENV).toBe('production');
    expect(config.PORT).toBe(DEFAULT_PORTS[name]);
    expectPeersWired(env);
  });

  it('waits for healthy store and Redis', () => {
    expect(dependsOn(service)).toMatchObject({ mongo: 'service_healthy', redis: 'service_healthy' });
    for (const dependency of Object.keys(dependsOn(service))) expect(hasHealthcheck(dependency)).toBe(true);
  });
});

it('gives progress the content service it reads courses and quizzes from', () => {
  expect(environmentOf('progress').CONTENT_URL).toBe(`http://content:${DEFAULT_PORTS.content}`);
  // Without it, production refuses to start instead of calling its own container's loopback.
  const { CONTENT_URL: _dropped, ...withoutContent } = environmentOf('progress');
  expect(() => loadProgressConfig(withoutContent)).toThrow(/CONTENT_URL: must be set in production/);
});

describe('the gateway', () => {
  it('starts in production with exactly the environment compose gives it', () => {
    const env = environmentOf('gateway');
    const parsed = parseGatewayConfig(env);
    expect(parsed).toMatchObject({ ok: true, config: { NODE_ENV: 'production', PORT: DEFAULT_PORTS.gateway } });
    expectPeersWired(env);
    for (const name of SERVICE_NAMES) expect(env[`${name.toUpperCase()}_URL`]).toBe(`http://${name}:${DEFAULT_PORTS[name]}`);
    expect(services.gateway.ports).toEqual([`${DEFAULT_PORTS.gateway}:${DEFAULT_PORTS.gateway}`]);
  });

  it('refuses an upstream left to its loopback default in production', () => {
    const { AUDIT_URL: _dropped, ...env } = environmentOf('gateway');
    expect(parseGatewayConfig(env)).toEqual({
      ok: false,
      issues: [expect.stringMatching(/^AUDIT_URL: must be set in production/)],
    });
  });

  it('proxies each front end to its own static container and waits for everything to be healthy', () => {
    const upstreams = JSON.parse(environmentOf('gateway').STATIC_UPSTREAMS) as Record<string, string>;
    expect(Object.keys(upstreams).sort()).toEqual([...FRONTENDS].sort());
    for (const [app, url] of Object.entries(upstreams)) expect(url).toBe(`http://${app}:${services[app].expose![0]}`);
    const waits = dependsOn(services.gateway);
    expect(Object.keys(waits).sort()).toEqual([...SERVICE_NAMES, ...FRONTENDS].sort());
    for (const [dependency, condition] of Object.entries(waits)) {
      expect({ dependency, condition }).toEqual({ dependency, condition: 'service_healthy' });
      expect(hasHealthcheck(dependency)).toBe(true);
    }
  });
});

it.each(FRONTENDS)('deploys the %s front end as its own static container', (name) => {
  const service = services[name];
  expect(service.build?.args?.APP).toBe(name);
  expect(existsSync(path.join(ROOT, name, 'webpack.config.ts'))).toBe(true);
  expect(service.expose).toEqual(['8080']);
});

describe.each(['docker/node.Dockerfile', 'docker/static.Dockerfile'])('%s', (file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const stages = text.split(/^FROM /m).slice(1);
  const final = stages.at(-1)!;

  it('builds on Node 22 LTS from the lockfile', () => {
    expect(text).toMatch(/^FROM node:22-bookworm-slim AS build$/m);
    expect(text).not.toMatch(/node:(1\d|20)\b/);
    expect(text).toMatch(/RUN npm ci\b/);
    expect(text).not.toMatch(/npm install/);
  });

  it('runs as a non-root user with a health check on /readyz', () => {
    const user = /^USER (\S+)$/m.exec(final)?.[1];
    expect(user).toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
    expect(final).toMatch(/^HEALTHCHECK [^\n]*(\\\n[^\n]*)*\/readyz/m);
  });

  it('is the image every container of its kind is built from', () => {
    const users = Object.values(services).filter((s) => s.build?.dockerfile === file);
    expect(users.length).toBeGreaterThan(0);
  });
});

it('health-checks the node images on the port each process listens on', () => {
  const text = readFileSync(path.join(ROOT, 'docker/node.Dockerfile'), 'utf8');
  expect(text).toMatch(/^ARG PORT/m);
  expect(text).toMatch(/^ENV [^\n]*PORT=\$\{PORT\}/m);
  expect(text).toContain("'http://127.0.0.1:'+process.env.PORT+'/readyz'");
  expect(services.gateway.build?.args).toEqual({ TARGET: 'gateway', PORT: String(DEFAULT_PORTS.gateway) });
});

it("runs the node images' health check command: healthy only while /readyz answers 200", async () => {
  const text = readFileSync(path.join(ROOT, 'docker/node.Dockerfile'), 'utf8');
  const [command, ...args] = JSON.parse(/^\s*CMD (\[.*\])$/m.exec(text.split(/^HEALTHCHECK /m)[1])![1]) as string[];
  let status = 200;
  const server = createServer((req, res) => res.writeHead(req.url === '/readyz' ? status : 404).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = String((server.address() as AddressInfo).port);
  // Asynchronously: the server answering the check lives in this process.
  const exitCode = () =>
    new Promise<number | null>((resolve) => {
      const child = spawn(command === 'node' ? process.execPath : command, args, { env: { PATH: process.env.PATH, PORT: port } });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  try {
    expect(await exitCode()).toBe(0);
    status = 503;
    expect(await exitCode()).toBe(1);
  } finally {
    server.close();
  }
  // Nothing listening: unhealthy, not a hang.
  expect(await exitCode()).toBe(1);
});
