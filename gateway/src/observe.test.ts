import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { parse as parseYaml } from 'yaml';
import type { AuthResponse } from '@portal/contracts';
import { api, type TestService } from '@portal/devstack/testing';
import { ROOT, waitFor } from '@portal/devstack/util';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { startAudit, type AuditTestService } from '@portal/svc-audit/testing';
import { startCrm, type CrmTestBed } from '@portal/svc-crm/testing';
import { startProgress, type ProgressTestBed } from '@portal/svc-progress/testing';
import { recordModel } from '@portal/svc-audit/models/record';
import { createGateway } from './app';
import { gatewayConfigSchema } from './config';
import { metricsListener } from './observe';

/*
 * What an operator sees of the portal: the gateway's access lines, /metrics of a service and of the
 * gateway after real traffic (and none of it through the public port), the request id kept in the
 * audit record of a write, and alert rules and a dashboard that name only series that exist.
 */

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

let auth: TestService;
let audit: AuditTestService;
let gateway: Server;
let metricsServer: Server;
let url: string;
let metricsUrl: string;
let staticRoot: string;
let admin: AuthResponse;
/** What the gateway's logger wrote, one JSON line each. */
const lines: string[] = [];

beforeAll(async () => {
  const shared = { QUEUE_PREFIX: `obs${randomBytes(3).toString('hex')}` };
  auth = await startAuth(shared);
  audit = await startAudit({ AUTH_URL: auth.url, ...shared });
  staticRoot = mkdtempSync(path.join(tmpdir(), 'gateway-observe-'));
  mkdirSync(path.join(staticRoot, 'shell/dist'), { recursive: true });
  writeFileSync(path.join(staticRoot, 'shell/dist/index.html'), '<!doctype html><title>shell</title>');
  const config = gatewayConfigSchema.parse({
    INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
    AUTH_URL: auth.url,
    AUDIT_URL: audit.url,
    STATIC_ROOT: staticRoot,
  });
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  gateway = createGateway(config, logger).app.listen(0, '127.0.0.1');
  await new Promise((r) => gateway.once('listening', r));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  metricsServer = createServer(metricsListener);
  metricsUrl = await listen(metricsServer);
  admin = await userWithRole(auth, 'ADMIN', 'Анна Смирнова');
});
afterAll(async () => {
  for (const server of [gateway, metricsServer]) {
    server?.closeAllConnections();
    server?.close();
  }
  await audit?.close();
  await auth?.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

const accessLine = (requestId: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((l) => l.msg === 'access' && l.requestId === requestId);

/** Waits for the access line: it is written when the response has gone out. */
const accessLineOf = async (requestId: string) => {
  await waitFor(async () => accessLine(requestId) !== undefined, `access line ${requestId}`, 5000);
  return accessLine(requestId)!;
};

const scrape = async (base: string): Promise<string> => {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

/** The value of one series, by name and labels (all of them given must match). */
/** The sum of a family's samples whose labels include `labels` (every status of a route). */
const sumOf = (text: string, name: string, labels: Record<string, string>): number =>
  text
    .split('\n')
    .map((line) => /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line))
    .filter((m): m is RegExpExecArray => !!m && m[1] === name)
    .filter((m) => Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`)))
    .reduce((sum, m) => sum + Number(m[3]), 0);

const valueOf = (text: string, name: string, labels: Record<string, string> = {}): number | null => {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => given[k] === v)) return Number(match[3]);
  }
  return null;
};

describe('the access log of the gateway', () => {
  it('writes one line per request: method, route, path without the query, status, duration, request id and user, never the token', async () => {
    const token = admin.token;
    const answer = await api(url, 'GET', '/api/users?search=secret-word&limit=5', {
      token,
      headers: { 'x-request-id': 'obs-access-1' },
    });
    expect(answer.status).toBe(200);
    const line = await accessLineOf('obs-access-1');
    expect(line).toMatchObject({
      method: 'GET',
      route: '/api/users/*',
      path: '/api/users',
      status: 200,
      userId: admin.user.id,
    });
    expect(typeof line.ms).toBe('number');
    const raw = lines.find((l) => l.includes('obs-access-1'))!;
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(token.split('.')[1]);
    expect(raw).not.toContain('secret-word');
    expect(lines.filter((l) => l.includes('"obs-access-1"'))).toHaveLength(1);
  });

  it('names no user for a request that was refused as unauthenticated', async () => {
    const forged = `${admin.token.slice(0, -4)}AAAA`;
    const answer = await api(url, 'GET', '/api/users', { token: forged, headers: { 'x-request-id': 'obs-access-2' } });
    expect(answer.status).toBe(401);
    const line = await accessLineOf('obs-access-2');
    expect(line).toMatchObject({ status: 401, route: '/api/users/*' });
    expect(line.userId).toBeUndefined();
  });
});

describe('the request id', () => {
  it('is kept in the audit record of a write made through the gateway', async () => {
    const person = await userWithRole(auth, 'CANDIDATE', 'Ольга Кузнецова');
    const changed = await api(url, 'PATCH', `/api/users/${person.user.id}`, {
      token: admin.token,
      body: { fullName: 'Ольга Иванова', email: person.user.email, role: 'CANDIDATE', version: person.user.version },
      headers: { 'x-request-id': 'obs-write-1' },
    });
    expect(changed.status).toBe(200);
    const records = recordModel(audit.ctx.store);
    await waitFor(async () => (await records.countDocuments({ requestId: 'obs-write-1' })) > 0, 'audit record', 10_000);
    const record = await records.findOne({ requestId: 'obs-write-1' }).lean();
    expect(record).toMatchObject({ action: 'update', entity: 'user', entityId: person.user.id, service: 'auth' });
  });
});

describe('/metrics', () => {
  it('of a service shows requests by route template, the store, Redis, the event loop, the heap, queues, the outbox and login failures', async () => {
    expect((await api(url, 'POST', '/api/auth/login', { body: { email: 'nobody@example.test', password: 'x' } })).status).toBe(
      401,
    );
    const text = await scrape(auth.url);
    expect(
      valueOf(text, 'portal_http_request_duration_seconds_count', { route: '/api/auth/login', method: 'POST', status: '401' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(text, 'portal_http_request_duration_seconds_count', { route: '/api/users/:id', method: 'PATCH', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'portal_login_failures_total', { reason: 'no_account' })).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(text, 'portal_store_command_duration_seconds_count', { command: 'find', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'portal_redis_command_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    // Store commands are counted under the request they answered: a refused login reads one account.
    const login = { route: '/api/auth/login', method: 'POST' };
    const counted = (scraped: string) => ({
      logins: sumOf(scraped, 'portal_http_request_duration_seconds_count', login),
      reads: valueOf(scraped, 'portal_store_operations_total', login) ?? 0,
    });
    const before = counted(text);
    for (const n of [1, 2, 3])
      await api(url, 'POST', '/api/auth/login', { body: { email: `nobody${n}@example.test`, password: 'x' } });
    const after = counted(await scrape(auth.url));
    expect({ logins: after.logins - before.logins, reads: after.reads - before.reads }).toEqual({ logins: 3, reads: 3 });
    expect(valueOf(text, 'portal_store_operations_total', { route: '/api/users/:id', method: 'PATCH' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(valueOf(text, 'nodejs_eventloop_lag_p99_seconds')).not.toBeNull();
    expect(valueOf(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(text, 'portal_queue_jobs', { queue: 'audit', state: 'waiting' })).not.toBeNull();
    expect(valueOf(text, 'portal_queue_jobs', { queue: 'audit', state: 'failed' })).not.toBeNull();
    expect(valueOf(text, 'portal_audit_outbox_events', { service: 'auth' })).toBe(0);
  });

  it('of the gateway, on its own listener, counts requests by route and answers nothing else', async () => {
    const text = await scrape(metricsUrl);
    expect(
      valueOf(text, 'portal_http_request_duration_seconds_count', { route: '/api/users/*', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${metricsUrl}/api/users`)).status).toBe(404);
  });

  it('is not reachable through the public gateway', async () => {
    for (const pathname of ['/metrics', '/api/metrics', '/api/api/metrics', '/api/auth/metrics', '/api/audit/metrics']) {
      const res = await fetch(`${url}${pathname}`);
      const body = await res.text();
      expect({ pathname, series: body.includes('# TYPE') }).toEqual({ pathname, series: false });
    }
  });
});

describe('promtool check metrics', () => {
  // The five services' own endpoints, each started as in its tests (one registry per process, as a
  // deployed process has), and the gateway's listener.
  let progress: ProgressTestBed;
  let crm: CrmTestBed;
  beforeAll(async () => {
    [progress, crm] = await Promise.all([startProgress(), startCrm()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([progress?.close(), crm?.close()]);
  });

  it("passes on every service's /metrics and on the gateway's", async () => {
    const endpoints = {
      auth: auth.url,
      content: progress.content.url,
      progress: progress.progress.url,
      crm: crm.crm.url,
      audit: audit.url,
      gateway: metricsUrl,
    };
    for (const [endpoint, base] of Object.entries(endpoints)) {
      const text = await scrape(base);
      expect(text).toContain('nodejs_active_handles{');
      const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect({ endpoint, status: checked.status, problems: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({
        endpoint,
        status: 0,
        problems: '',
      });
    }
  });
});

describe('deploy/: alert rules and the dashboard', () => {
  /** Every series a PromQL expression names, of the portal's own families. */
  const seriesIn = (expr: string) => [...expr.matchAll(/\b(?:portal|nodejs|process)_\w+/g)].map((m) => m[0]);
  /** Names a scrape shows: each family's, and a histogram's _bucket, _sum and _count. */
  const exposed = async () => {
    const text = await scrape(auth.url);
    const names = new Set<string>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      names.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    }
    return names;
  };

  it('the Prometheus rules parse and name only series that exist', async () => {
    const rules = parseYaml(readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
      groups: Array<{
        name: string;
        rules: Array<{ alert: string; expr: string; labels: { severity: string }; annotations: { summary: string } }>;
      }>;
    };
    const names = await exposed();
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const rule of all) {
      expect(rule.alert).toMatch(/^Portal\w+$/);
      expect(['page', 'warn']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toMatch(/[а-яё]/i);
      expect({ alert: rule.alert, missing: seriesIn(rule.expr).filter((name) => !names.has(name)) }).toEqual({
        alert: rule.alert,
        missing: [],
      });
    }
    // Every family the portal defines has a rule or a panel watching it.
    const watched = new Set(all.flatMap((rule) => seriesIn(rule.expr)));
    expect([...watched].some((name) => name.startsWith('portal_login_failures'))).toBe(true);
    expect([...watched].some((name) => name.startsWith('portal_course_builder_jobs'))).toBe(true);
  });

  it('the Grafana dashboard names only series that exist', async () => {
    const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy/grafana/portal-dashboard.json'), 'utf8')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    const names = await exposed();
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of dashboard.panels) {
      const named = panel.targets.flatMap((target) => seriesIn(target.expr));
      expect(named.length).toBeGreaterThan(0);
      expect({ panel: panel.title, missing: named.filter((name) => !names.has(name)) }).toEqual({
        panel: panel.title,
        missing: [],
      });
    }
  });
});
