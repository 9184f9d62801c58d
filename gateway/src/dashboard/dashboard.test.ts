import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import {
  CANDIDATE_LINK_MSG,
  CONSENT_DOCUMENT,
  MSG,
  TOTAL_COUNT_HEADER,
  isStaff,
  type AuditPage,
  type AuthResponse,
  type DashboardStats,
} from '@portal/contracts';
import { download, readCsv } from '@portal/devstack/exports';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { startAudit, type AuditTestService } from '@portal/svc-audit/testing';
import { dayOf } from '@portal/svc-audit/queries/period';
import { crmRouters } from '@portal/svc-crm/app';
import { internalRouter as progressInternalRouter } from '@portal/svc-progress/routes/internal';
import { contentOnStart, contentRouters } from '@portal/svc-content/app';
import { contentConfigSchema, type ContentConfig } from '@portal/svc-content/config';
import { createGateway } from '../app';
import { gatewayConfigSchema, type GatewayConfig } from '../config';

/*
 * The dashboard as the gateway composes it from the real services. They share one queue prefix,
 * so the events each publishes reach the real audit worker, as in the running portal.
 */

const DEAD = 'http://127.0.0.1:9'; // discard port: nothing listens
const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

let auth: Awaited<ReturnType<typeof startAuth>>;
let content: TestService<ContentConfig>;
let crm: TestService;
let progress: TestService;
let audit: AuditTestService;
let uploadDir: string;
let hanging: Server;
let stopContentWork: (() => Promise<void>) | undefined;
const gateways: Array<{ server: Server; stop: () => void }> = [];
let gateway: string;
let as: { admin: AuthResponse; curator: AuthResponse; client: AuthResponse; candidate: AuthResponse };

const startGateway = async (patch: Partial<Record<keyof GatewayConfig, string>> = {}): Promise<string> => {
  const config = gatewayConfigSchema.parse({
    INTERNAL_TOKEN: process.env.INTERNAL_TOKEN,
    AUTH_URL: auth.url,
    CONTENT_URL: content.url,
    PROGRESS_URL: progress.url,
    CRM_URL: crm.url,
    AUDIT_URL: audit.url,
    STATIC_ROOT: uploadDir,
    ...patch,
  });
  const created = createGateway(config, pino({ level: 'silent' }));
  const server = created.app.listen(0, '127.0.0.1');
  // Its readiness checks and its keep-alive sockets toward the services end with it.
  gateways.push({ server, stop: () => (created.close(), created.agent.destroy()) });
  await new Promise((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  const shared = { QUEUE_PREFIX: `dash${randomBytes(3).toString('hex')}` };
  auth = await startAuth(shared);
  const env = { AUTH_URL: auth.url, ...shared };
  uploadDir = mkdtempSync(path.join(tmpdir(), 'dashboard-uploads-'));
  [content, crm, progress, audit] = await Promise.all([
    startTestService<ContentConfig>('content', contentRouters, {
      schema: contentConfigSchema,
      env: { ...env, UPLOAD_DIR: uploadDir },
    }),
    startTestService('crm', crmRouters, { env }),
    // The dashboard asks the progress service its internal route only.
    startTestService('progress', (ctx) => [progressInternalRouter(ctx)], { env }),
    startAudit(env),
  ]);
  stopContentWork = await contentOnStart(content.ctx); // its course-builder worker and upload sweep
  hanging = createServer(() => undefined); // accepts and never answers
  gateway = await startGateway();
  const [admin, curator, client, candidate] = await Promise.all([
    userWithRole(auth, 'ADMIN', 'Анна Смирнова'),
    userWithRole(auth, 'CURATOR', 'Екатерина Волкова'),
    userWithRole(auth, 'CLIENT', 'Дмитрий Соколов'),
    userWithRole(auth, 'CANDIDATE', 'Ольга Кузнецова'),
  ]);
  as = { admin, curator, client, candidate };
});
afterAll(async () => {
  for (const { server, stop } of gateways) {
    stop();
    server.closeAllConnections();
    server.close();
  }
  hanging?.closeAllConnections();
  hanging?.close();
  await stopContentWork?.();
  await Promise.all([content?.close(), crm?.close(), progress?.close(), audit?.close()]);
  await auth?.close();
  rmSync(uploadDir, { recursive: true, force: true });
});

const stats = (base: string, token: string, query = '?tz=Europe/Moscow') =>
  api<DashboardStats & { message?: string }>(base, 'GET', `/api/dashboard/stats${query}`, { token });

/** Events travel through the queue: ask again until the dashboard shows what is expected. */
const eventually = async <T = DashboardStats>(read: () => Promise<T>, ok: (s: T) => boolean, ms = 10_000): Promise<T> => {
  const deadline = Date.now() + ms;
  let last = await read();
  while (!ok(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    last = await read();
  }
  return last;
};

describe('GET /api/dashboard/stats', () => {
  it('needs a token (401), and a valid one', async () => {
    const none = await api(gateway, 'GET', '/api/dashboard/stats');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: MSG.unauthorized, statusCode: 401 });
    const forged = await api(gateway, 'GET', '/api/dashboard/stats', { token: 'not.a.token' });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe(MSG.badToken);
  });

  it('refuses a call from another site (403)', async () => {
    const answer = await api(gateway, 'GET', '/api/dashboard/stats', {
      token: as.admin.token,
      headers: { origin: 'https://evil.example' },
    });
    expect(answer.status).toBe(403);
  });

  it('refuses a candidate’s link session with 403, as every other route does, not 503', async () => {
    const id = () => randomBytes(12).toString('hex');
    const started = await api<{ token: string }>(auth.url, 'POST', '/internal/candidates', {
      headers: { 'x-internal-token': String(process.env.INTERNAL_TOKEN) },
      body: {
        fullName: 'Кандидатов Пётр',
        email: 'candidate@example.test',
        consentVersion: CONSENT_DOCUMENT.version,
        scope: { linkId: id(), courseId: id(), lessonId: id(), quizId: id() },
        sessionSeconds: 3600,
      },
    });
    expect(started.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const answer = await stats(gateway, started.body.token);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(CANDIDATE_LINK_MSG.scopeOnly);
    }
  });

  it('names a bad time zone in a 400', async () => {
    const answer = await api(gateway, 'GET', '/api/dashboard/stats?tz=Atlantis/Capital', { token: as.admin.token });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('tz');
  });

  it('shows staff the whole portal: courses, students, organizations and everyone’s recent actions', async () => {
    const curator = as.curator.token;
    const course = await api(gateway, 'POST', '/api/courses', { token: curator, body: { title: 'Основы HR' } });
    expect(course.status).toBe(201);
    expect(
      (await api(gateway, 'POST', '/api/courses', { token: curator, body: { title: 'Охрана труда', isPublished: true } })).status,
    ).toBe(201);
    const org = await api(gateway, 'POST', '/api/organizations', {
      token: curator,
      body: { name: 'ООО Вектор', inn: '7707083893' },
    });
    expect(org.status).toBe(201);
    expect(
      (
        await api(gateway, 'POST', '/api/contacts', {
          token: curator,
          body: { orgId: org.body.id, fullName: 'Анна Кузнецова', email: 'anna@vector.example' },
        })
      ).status,
    ).toBe(201);

    const answer = await eventually(
      async () => (await stats(gateway, as.admin.token)).body,
      // The worker stores events in concurrent batches, so the last event published is not
      // necessarily the last one stored: wait for all eight of today's.
      (s) => s.recentActivity.some((r) => r.entity === 'contact') && (s.activityByDay.at(-1)?.count ?? 0) >= 8,
    );
    expect(answer).toMatchObject({
      totalCourses: 2,
      activeCourses: 1,
      totalStudents: 2,
      organizations: 1,
      contacts: 1,
      completedCourses: null,
      partial: false,
      unavailable: [],
      activityScope: 'all',
    });
    expect(answer.change).toEqual({
      totalCourses: '+2',
      activeCourses: '+1',
      totalStudents: '+2',
      organizations: '+1',
      contacts: '+1',
      completedCourses: null,
    });
    // Newest first, everyone's: the curator's work and the learners' sign-ins.
    const recent = answer.recentActivity;
    expect(recent[0]).toMatchObject({ action: 'create', entity: 'contact', user: { fullName: 'Екатерина Волкова' } });
    expect(recent.map((r) => r.entity)).toEqual(expect.arrayContaining(['course', 'organization']));
    expect(recent.find((r) => r.entity === 'course' && r.entityId === course.body.id)?.details).toContain('Основы HR');
    for (let i = 1; i < recent.length; i++) expect(recent[i - 1].timestamp >= recent[i].timestamp).toBe(true);
    expect(answer.activityByDay).toHaveLength(14);
    expect(answer.activityByDay[13].date).toBe(dayOf(new Date(), 'Europe/Moscow'));
    expect(answer.activityByDay[13].count).toBeGreaterThanOrEqual(8); // four sign-ins, two courses, an organization, a contact
  });

  it('shows a learner courses and their own completed courses and actions, nothing of the CRM or of others', async () => {
    // The client starts the one published course; the draft is not theirs to see.
    const catalogue = await api<Array<{ id: string }>>(gateway, 'GET', '/api/courses', { token: as.client.token });
    expect(catalogue.body).toHaveLength(1);
    expect(
      (await api(gateway, 'POST', `/api/courses/${catalogue.body[0].id}/start`, { token: as.client.token })).status,
    ).toBeLessThan(300);
    const answer = await eventually(
      async () => (await stats(gateway, as.client.token)).body,
      (s) => s.recentActivity.length > 0,
    );
    expect(answer).toMatchObject({
      totalCourses: 1,
      activeCourses: 1,
      completedCourses: 0,
      totalStudents: null,
      organizations: null,
      contacts: null,
      partial: false,
      activityScope: 'own',
    });
    expect(answer.change).toMatchObject({
      totalCourses: '+1',
      activeCourses: '+1',
      completedCourses: '0',
      totalStudents: null,
      organizations: null,
      contacts: null,
    });
    expect(answer.recentActivity.length).toBeGreaterThan(0);
    expect(answer.recentActivity.every((r) => r.user?.id === as.client.user.id)).toBe(true);
    expect(answer.activityByDay.reduce((sum, d) => sum + d.count, 0)).toBe(answer.recentActivity.length);
  });

  it('counts for each role what that role can see: the catalogue it browses and the courses it started', async () => {
    const totalOf = async (token: string, query = '') =>
      Number((await api(gateway, 'GET', `/api/courses${query}`, { token })).headers.get(TOTAL_COUNT_HEADER));
    for (const [role, auth] of Object.entries(as)) {
      const answer = (await stats(gateway, auth.token)).body;
      expect({ role, totalCourses: answer.totalCourses }).toEqual({ role, totalCourses: await totalOf(auth.token) });
      if (isStaff(auth.user.role)) {
        expect(answer.activeCourses).toBe(await totalOf(auth.token, '?status=published'));
        expect(answer.completedCourses).toBeNull();
      } else {
        expect(answer.activeCourses).toBe(await totalOf(auth.token, '?filter=started'));
        expect(answer.totalStudents).toBeNull();
      }
    }
    // The candidate has started nothing: no active courses, though the catalogue has one.
    expect((await stats(gateway, as.candidate.token)).body).toMatchObject({ totalCourses: 1, activeCourses: 0 });
  });

  it('gives a dead or slow service’s figures as null and partial: true, within the time budget', async () => {
    const partial = await startGateway({ CONTENT_URL: DEAD, CRM_URL: await listen(hanging) });
    const started = Date.now();
    const answer = await stats(partial, as.admin.token);
    const took = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(took).toBeLessThan(2000);
    expect(answer.body).toMatchObject({
      totalCourses: null,
      activeCourses: null,
      organizations: null,
      contacts: null,
      totalStudents: 2,
      partial: true,
    });
    expect(answer.body.unavailable).toEqual(['content', 'crm']);
    expect(answer.body.change.totalCourses).toBeNull();
    expect(answer.body.recentActivity.length).toBeGreaterThan(0);
  });

  it('shows a curator the activity of their own courses and learners only; ADMIN sees everything (docs/decisions/056: whose activity)', async () => {
    const [mine, other, learner, stranger] = await Promise.all([
      userWithRole(auth, 'CURATOR', 'Мария Лентова'),
      userWithRole(auth, 'CURATOR', 'Пётр Чужаков'),
      userWithRole(auth, 'CLIENT', 'Лев Учеников'),
      userWithRole(auth, 'CLIENT', 'Сабина Посторонняя', { consent: false }),
    ]);
    const course = async (token: string, title: string) =>
      (await api<{ id: string }>(gateway, 'POST', '/api/courses', { token, body: { title, isPublished: true } })).body.id;
    const myCourse = await course(mine.token, 'Курс Лентовой');
    const otherCourse = await course(other.token, 'Курс Чужакова');
    for (const id of [myCourse, otherCourse])
      expect((await api(gateway, 'POST', `/api/courses/${id}/start`, { token: learner.token })).status).toBe(200);
    const consent = await api(gateway, 'POST', '/api/consent', {
      token: stranger.token,
      body: { version: CONSENT_DOCUMENT.version },
    });
    expect(consent.status).toBe(201);

    const feed = await eventually(
      async () => (await stats(gateway, mine.token)).body,
      (s) => s.recentActivity.some((r) => r.user?.id === learner.user.id),
    );
    expect(feed.activityScope).toBe('courses');
    const recent = feed.recentActivity;
    // Their own course, and their learner's start of it (named, without the learner's email).
    expect(recent.find((r) => r.entity === 'course' && r.entityId === myCourse)?.user).toEqual({
      id: mine.user.id,
      fullName: 'Мария Лентова',
      email: mine.user.email,
    });
    expect(recent.find((r) => r.user?.id === learner.user.id)).toMatchObject({
      entityId: myCourse,
      user: { fullName: 'Лев Учеников', email: '' },
    });
    // Nothing else: no one's sign-in but their own, no consent, no other curator's course or learners there.
    for (const r of recent) expect(r.user?.id === mine.user.id || r.entityId === myCourse).toBe(true);
    expect(recent.some((r) => r.entity === 'consent' || r.entityId === otherCourse)).toBe(false);
    expect(JSON.stringify(recent)).not.toMatch(/Чужаков|Посторонняя|Анна Смирнова/);
    expect(new Set(recent.map((r) => r.user?.email).filter(Boolean))).toEqual(new Set([mine.user.email]));

    const everything = await eventually(
      async () => (await stats(gateway, as.admin.token)).body,
      (s) => s.recentActivity.some((r) => r.entity === 'consent' && r.user?.id === stranger.user.id),
    );
    expect(everything.activityScope).toBe('all');
    expect(everything.recentActivity.find((r) => r.entity === 'consent')?.user?.email).toBe(stranger.user.email);
    expect(everything.recentActivity.some((r) => r.entityId === otherCourse)).toBe(true);
  });

  it('gives a curator’s «История действий» and its file only their own actions and their courses’ records; ADMIN’s hold everything (docs/decisions/056: whose activity)', async () => {
    const [mine, other, learner] = await Promise.all([
      userWithRole(auth, 'CURATOR', 'Зоя Историкова'),
      userWithRole(auth, 'CURATOR', 'Глеб Посторонний'),
      userWithRole(auth, 'CLIENT', 'Ира Слушательская'),
    ]);
    const course = async (token: string, title: string) =>
      (await api<{ id: string }>(gateway, 'POST', '/api/courses', { token, body: { title, isPublished: true } })).body.id;
    const myCourse = await course(mine.token, 'История: курс Историковой');
    const otherCourse = await course(other.token, 'История: курс Постороннего');
    for (const id of [myCourse, otherCourse])
      expect((await api(gateway, 'POST', `/api/courses/${id}/start`, { token: learner.token })).status).toBe(200);
    const history = (token: string, query = '') =>
      api<AuditPage>(gateway, 'GET', `/api/audit?${query || 'limit=200'}`, { token });
    const admins = await eventually(
      async () => (await history(as.admin.token)).body,
      (p) => p.data.some((r) => r.entityId === otherCourse && r.user?.id === learner.user.id),
    );
    // ADMIN's history is the whole trail: the admin's sign-in, the other curator's course, emails.
    expect(admins.data.some((r) => r.action === 'login' && r.user?.id === as.admin.user.id)).toBe(true);
    expect(admins.data.some((r) => r.entityId === otherCourse && r.user?.email === other.user.email)).toBe(true);

    const answer = await history(mine.token);
    expect(answer.status).toBe(200);
    const records = answer.body.data;
    // Their own course and their sign-in, their learner's start of it (named, without the email).
    expect(records.some((r) => r.entityId === myCourse && r.user?.id === mine.user.id)).toBe(true);
    expect(records.some((r) => r.action === 'login' && r.user?.id === mine.user.id)).toBe(true);
    expect(records.find((r) => r.entityId === myCourse && r.user?.id === learner.user.id)?.user).toEqual({
      id: learner.user.id,
      fullName: 'Ира Слушательская',
      email: '',
    });
    // Nothing else: no admin sign-in, no other curator's course or its learners' records there.
    for (const r of records) expect(r.user?.id === mine.user.id || r.entityId === myCourse).toBe(true);
    expect(JSON.stringify(records)).not.toMatch(/Посторонн|Анна Смирнова/);
    expect(new Set(records.map((r) => r.user?.email).filter(Boolean))).toEqual(new Set([mine.user.email]));
    expect(answer.body.total).toBe(records.length);

    // Paging and filters work as for ADMIN; a search finds no one by an email the curator is not shown.
    const first = await history(mine.token, 'limit=1&page=1');
    const second = await history(mine.token, 'limit=1&page=2');
    expect(first.body.total).toBe(records.length);
    expect([first.body.data[0].id, second.body.data[0].id]).toEqual([records[0].id, records[1].id]);
    const logins = await history(mine.token, 'limit=200&action=login');
    expect(logins.body.data.length).toBeGreaterThan(0);
    expect(logins.body.data.every((r) => r.action === 'login' && r.user?.id === mine.user.id)).toBe(true);
    expect(
      (await history(mine.token, `limit=200&search=${encodeURIComponent('Ира Слушательская')}`)).body.data.length,
    ).toBeGreaterThan(0);
    expect((await history(mine.token, `limit=200&search=${encodeURIComponent(learner.user.email)}`)).body.data).toEqual([]);
    expect(
      (await history(as.admin.token, `limit=200&search=${encodeURIComponent(learner.user.email)}`)).body.total,
    ).toBeGreaterThan(0);
    const bad = await history(mine.token, 'sort=sideways');
    expect(bad.status).toBe(400);

    // The file: the same rows, no one's email but the curator's own.
    const file = await download(`${gateway}/api/audit/export?format=csv&tz=Europe/Moscow`, mine.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="audit_history.csv"');
    const rows = readCsv(file.bytes).slice(1);
    expect(rows.length).toBe(records.length);
    expect(rows.map((row) => row[3])).toEqual(records.map((r) => r.entityId ?? ''));
    expect(new Set(rows.map((row) => row[6]).filter(Boolean))).toEqual(new Set([mine.user.email]));
    expect(JSON.stringify(rows)).not.toMatch(/Посторонн|Анна Смирнова/);
    const adminFile = await download(`${gateway}/api/audit/export?format=csv`, as.admin.token);
    expect(readCsv(adminFile.bytes).some((row) => row[6] === other.user.email)).toBe(true);

    // Straight to the audit service, which cannot name the curator's courses, only their own actions.
    const straight = await api<AuditPage>(audit.url, 'GET', '/api/audit?limit=200', { token: mine.token });
    expect(straight.status).toBe(200);
    expect(straight.body.data.length).toBeGreaterThan(0);
    expect(straight.body.data.every((r) => r.user?.id === mine.user.id)).toBe(true);
  });

  it('cannot say whose dashboard it is without the auth service: 503', async () => {
    const blind = await startGateway({ AUTH_URL: DEAD });
    const answer = await stats(blind, as.admin.token);
    expect(answer.status).toBe(503);
    expect(answer.body.message).toBe(MSG.serviceUnavailable);
  });
});
