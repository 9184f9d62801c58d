import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Router from '@koa/router';
import pino from 'pino';
import type { AuthResponse, Role, ServiceName } from '@portal/contracts';
import { api, startTestService, uniqueInn, type ApiAnswer, type TestService } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { authRouters } from '@portal/svc-auth/app';
import { contentRouters } from '@portal/svc-content/app';
import { progressRouters } from '@portal/svc-progress/app';
import { startProgress, seedQuizCourse, type ProgressTestBed, type SeededCourse } from '@portal/svc-progress/testing';
import { crmRouters } from '@portal/svc-crm/app';
import { auditRouters } from '@portal/svc-audit/app';
import { asEdge, createGateway } from '../../../../gateway/src/app';
import { gatewayConfigSchema } from '../../../../gateway/src/config';

/** Anonymous and the five roles: the columns of the authorization matrix. */
export type Caller = 'anonymous' | Role;
export const ROLES_IN_ORDER: Role[] = ['ADMIN', 'MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'];
export const CALLERS: Caller[] = ['anonymous', ...ROLES_IN_ORDER];

/** One route as a service's Koa routers declare it. */
export interface DeclaredRoute {
  service: ServiceName;
  method: string;
  path: string;
}

/**
 * Every route of a set of Koa routers, read from `router.stack`: a new route shows up here without
 * anyone listing it. Middleware layers (`router.use`) have no methods and are skipped; HEAD is the
 * GET route answered without a body.
 */
export function declaredRoutes(service: ServiceName, routers: Router[]): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.push({ service, method, path: String(layer.path) });
      }
    }
  }
  return routes;
}

export interface Portal extends ProgressTestBed {
  crm: TestService;
  audit: TestService;
  gateway: { url: string; server: Server };
  /** The learner whose records the others try to reach (IDOR): a CANDIDATE with history. */
  victim: AuthResponse & { password: string };
  seeded: SeededCourse;
  /** The victim's finished attempt, completed lesson and favourite course. */
  victimAttemptId: string;
  organizationId: string;
  contactId: string;
  uploadName: string;
  /** A session per caller; anonymous has none. */
  tokenOf(caller: Caller): string | undefined;
  /** Every declared route of the five services, read from the routers the services run. */
  routes(): DeclaredRoute[];
  close(): Promise<void>;
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
export const PNG_BYTES = PNG;

/** A multipart upload of one file through fetch's own FormData. */
export async function uploadFile(
  base: string,
  token: string | undefined,
  {
    bytes,
    name,
    type = 'application/octet-stream',
    query = '',
    field = 'file',
  }: {
    bytes: Buffer;
    name: string;
    type?: string;
    query?: string;
    field?: string;
  },
): Promise<ApiAnswer> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${base}/api/upload/${field === 'files' ? 'files' : 'file'}${query}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** Starts a gateway in front of the given services, serving a stub shell page from a scratch folder. */
export async function startGateway(urls: Partial<Record<ServiceName, string>>): Promise<{ url: string; server: Server }> {
  const staticRoot = mkdtempSync(path.join(tmpdir(), 'security-static-'));
  mkdirSync(path.join(staticRoot, 'shell/dist'), { recursive: true });
  writeFileSync(path.join(staticRoot, 'shell/dist/index.html'), '<!doctype html><title>shell</title>');
  const dead = 'http://127.0.0.1:9';
  const config = gatewayConfigSchema.parse({
    AUTH_URL: urls.auth ?? dead,
    CONTENT_URL: urls.content ?? dead,
    PROGRESS_URL: urls.progress ?? dead,
    CRM_URL: urls.crm ?? dead,
    AUDIT_URL: urls.audit ?? dead,
    STATIC_ROOT: staticRoot,
    INTERNAL_TOKEN: process.env.INTERNAL_TOKEN!,
    LOG_LEVEL: 'silent',
  });
  const server = asEdge(createGateway(config, pino({ level: 'silent' })).app.listen(0, '127.0.0.1'));
  server.once('close', () => rmSync(staticRoot, { recursive: true, force: true }));
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function expectStatus(answer: ApiAnswer, status: number, what: string): Promise<ApiAnswer> {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** The victim's records: a finished attempt, a completed lesson, a favourite and a started course. */
async function arrangeVictim(bed: ProgressTestBed) {
  const [seeded, victimSession] = await Promise.all([
    seedQuizCourse(bed, { settings: { maxAttempts: 10 } }),
    userWithRole(bed.auth, 'CANDIDATE', 'Вера Жертвова'),
  ]);
  const victim = { ...victimSession, password: 'Kursy-Portal-42' };
  const { course, quiz, quizLessonId, textLessonId } = seeded;
  const vt = victim.token;
  const started = await expectStatus(
    await api(bed.progress.url, 'POST', '/api/attempts', {
      token: vt,
      body: { quizId: quiz.id, courseId: course.id, lessonId: quizLessonId },
    }),
    201,
    'victim attempt start',
  );
  await expectStatus(
    await api(bed.progress.url, 'POST', `/api/attempts/${started.body.attempt.id}/submit`, {
      token: vt,
      body: { answers: [{ questionId: 'q1', answer: 0, timeSpent: 5 }] },
    }),
    200,
    'victim attempt submit',
  );
  await expectStatus(
    await api(bed.progress.url, 'POST', `/api/progress/lesson/${textLessonId}/complete`, {
      token: vt,
      body: { courseId: course.id },
    }),
    201,
    'victim lesson complete',
  );
  await expectStatus(
    await api(bed.content.url, 'POST', `/api/courses/${course.id}/favorite`, { token: vt }),
    200,
    'victim favourite',
  );
  await expectStatus(await api(bed.content.url, 'POST', `/api/courses/${course.id}/start`, { token: vt }), 200, 'victim start');
  return { seeded, victim, victimAttemptId: started.body.attempt.id as string };
}

/** An organization of the manager's with one contact. */
async function arrangeCrm(crm: TestService, manager: string) {
  const org = await expectStatus(
    await api(crm.url, 'POST', '/api/organizations', {
      token: manager,
      body: { name: 'ООО «Ромашка»', inn: uniqueInn() },
    }),
    201,
    'organization',
  );
  const contact = await expectStatus(
    await api(crm.url, 'POST', '/api/contacts', {
      token: manager,
      body: { fullName: 'Ольга Контактова', email: 'olga@example.test', orgId: org.body.id },
    }),
    201,
    'contact',
  );
  return { org, contact };
}

/** A curator's upload shown in a published lesson of a published course, so the file is public. */
async function arrangePublicUpload(bed: ProgressTestBed): Promise<ApiAnswer> {
  const upload = await uploadFile(bed.content.url, bed.as.CURATOR.token, { bytes: PNG, name: 'pixel.png', type: 'image/png' });
  await expectStatus(upload, 201, 'upload');
  const curator = bed.as.CURATOR.token;
  const shownIn = await expectStatus(
    await api(bed.content.url, 'POST', '/api/courses', {
      token: curator,
      body: { title: 'Курс с картинкой', status: 'published' },
    }),
    201,
    'course showing the upload',
  );
  const shownModule = await expectStatus(
    await api(bed.content.url, 'POST', '/api/blocks', { token: curator, body: { type: 'MODULE', courseId: shownIn.body.id } }),
    201,
    'module showing the upload',
  );
  await expectStatus(
    await api(bed.content.url, 'POST', '/api/blocks', {
      token: curator,
      body: {
        courseId: shownIn.body.id,
        moduleId: shownModule.body.id,
        status: 'published',
        content: [{ type: 'image', content: { src: upload.body.url, alt: 'Пиксель' } }],
      },
    }),
    201,
    'lesson showing the upload',
  );
  return upload;
}

/**
 * The whole portal for one test file: the five services on the real store and Redis, a gateway
 * in front of them, a user per role, and records of a second learner (the victim) for the others
 * to reach for: a finished attempt, a completed lesson, a favourite course.
 */
export async function startPortal(): Promise<Portal> {
  // The matrix, fuzz and injection tests call the public candidate-link and certificate-check routes
  // from one address many times a minute; the per-address limits are proven by the progress service's tests.
  const bed = await startProgress({ CANDIDATE_LINK_RATE_LIMIT: '10000', CERTIFICATE_VERIFY_RATE_LIMIT: '10000' });
  const env = { AUTH_URL: bed.auth.url };
  const [crm, audit] = await Promise.all([
    startTestService('crm', crmRouters, { env }),
    startTestService('audit', auditRouters, { env }),
  ]);
  // The gateway and three independent arrangements side by side: the victim's history, the CRM records, a public upload.
  const [gateway, { seeded, victim, victimAttemptId }, { org, contact }, upload] = await Promise.all([
    startGateway({ auth: bed.auth.url, content: bed.content.url, progress: bed.progress.url, crm: crm.url, audit: audit.url }),
    arrangeVictim(bed),
    arrangeCrm(crm, bed.as.MANAGER.token),
    arrangePublicUpload(bed),
  ]);

  return {
    ...bed,
    crm,
    audit,
    gateway,
    victim,
    seeded,
    victimAttemptId,
    organizationId: org.body.id,
    contactId: contact.body.id,
    uploadName: upload.body.name,
    tokenOf: (caller) => (caller === 'anonymous' ? undefined : bed.as[caller].token),
    routes: () => [
      ...declaredRoutes('auth', authRouters(bed.auth.ctx)),
      ...declaredRoutes('content', contentRouters(bed.content.ctx)),
      ...declaredRoutes('progress', progressRouters(bed.progress.ctx)),
      ...declaredRoutes('crm', crmRouters(crm.ctx)),
      ...declaredRoutes('audit', auditRouters(audit.ctx)),
    ],
    async close() {
      gateway.server.closeAllConnections();
      gateway.server.close();
      await Promise.all([crm.close(), audit.close()]);
      await bed.close();
    },
  };
}

export const serviceUrl = (portal: Portal, service: ServiceName): string =>
  ({
    auth: portal.auth.url,
    content: portal.content.url,
    progress: portal.progress.url,
    crm: portal.crm.url,
    audit: portal.audit.url,
  })[service];

/**
 * The headers of a caller that may call a route: the internal token, nothing for a public route, or
 * a session of the first role the rule lets through (the victim when every role is hidden from it).
 * A route that ends sessions gets a session of its own, so the others' stay valid.
 */
export async function rightfulCaller(
  portal: Portal,
  rule: { access: 'public' | 'internal' | readonly Role[]; hiddenFrom?: readonly Role[] },
  route: DeclaredRoute,
): Promise<Record<string, string>> {
  if (rule.access === 'public') return {};
  if (rule.access === 'internal') return { 'x-internal-token': process.env.INTERNAL_TOKEN! };
  const roles = rule.access.filter((r) => !rule.hiddenFrom?.includes(r));
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  if (/logout|password|sessions/.test(route.path)) {
    const role = roles[0] ?? 'CANDIDATE';
    return bearer((await userWithRole(portal.auth, role, 'Временный Сеанс')).token);
  }
  if (!roles.length) return bearer(portal.victim.token);
  const role = ROLES_IN_ORDER.find((r) => roles.includes(r))!;
  return bearer(portal.as[role].token);
}

/**
 * Runs `work` for every item, a few at a time: these tests wait on the services, not on the CPU, and
 * each item is independent (every write it tries must be refused).
 */
export async function eachConcurrently<T>(items: T[], work: (item: T) => Promise<void>, inFlight = 6): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}
