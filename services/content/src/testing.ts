import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuditEvent, AuthResponse, Course, GenerationJob, Role } from '@portal/contracts';
import { isValidObjectId } from 'mongoose';
import { closeServiceContext } from '@portal/service-kit';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { contentOnStart, contentRouters } from './app';
import { contentConfigSchema, type ContentConfig } from './config';
import { contentModels, type ContentModels } from './models';

export interface ContentTestBed {
  auth: Awaited<ReturnType<typeof startAuth>>;
  content: TestService<ContentConfig>;
  models: ContentModels;
  uploadDir: string;
  /** One signed-in user per role, made once per test file. */
  as: Record<Role, AuthResponse>;
  close(): Promise<void>;
}

export const ALL_ROLES: Role[] = ['ADMIN', 'MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'];

/** A real auth service and a real content service with their own databases and upload folder. */
export async function startContent(env: Record<string, string> = {}): Promise<ContentTestBed> {
  const auth = await startAuth();
  const uploadDir = await mkdtemp(path.join(tmpdir(), 'content-uploads-'));
  const content = await startTestService<ContentConfig>('content', contentRouters, {
    schema: contentConfigSchema,
    env: { AUTH_URL: auth.url, UPLOAD_DIR: uploadDir, ...env },
  });
  const stopContent = await contentOnStart(content.ctx);
  const users = await Promise.all(ALL_ROLES.map((role) => userWithRole(auth, role)));
  const as = Object.fromEntries(ALL_ROLES.map((role, i) => [role, users[i]])) as Record<Role, AuthResponse>;
  return {
    auth,
    content,
    models: contentModels(content.ctx.store),
    uploadDir,
    as,
    async close() {
      await stopContent();
      await content.close();
      await auth.close();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second content replica of a test bed: its own app and worker on the same databases, queue and
 * upload folder, as another process behind the gateway would be. Closed by the caller, before the bed.
 */
export async function startContentReplica(bed: ContentTestBed, env: Record<string, string> = {}) {
  const { config } = bed.content.ctx;
  const replica = await startTestService<ContentConfig>('content', contentRouters, {
    schema: contentConfigSchema,
    prefix: config.DB_PREFIX,
    env: { AUTH_URL: bed.auth.url, UPLOAD_DIR: config.UPLOAD_DIR, QUEUE_PREFIX: config.QUEUE_PREFIX, ...env },
  });
  const stop = await contentOnStart(replica.ctx);
  return {
    ...replica,
    async close() {
      await stop();
      // Not replica.close(): that drops the databases the bed still uses.
      await new Promise<void>((resolve) => {
        replica.server.close(() => resolve());
        replica.server.closeAllConnections();
      });
      await closeServiceContext(replica.ctx);
    },
  };
}

/** The audit events this service has published about one record (no audit worker runs in tests). */
export async function auditEventsFor(service: TestService<ContentConfig>, entityId: string): Promise<AuditEvent[]> {
  await service.ctx.audit.flush();
  const jobs = await service.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs
    .map((j) => j.data as AuditEvent)
    .filter((e) => e.entityId === entityId)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

let counter = 0;
export const uniqueTitle = (tag = 'Курс') => `${tag} ${Date.now().toString(36)}-${counter++}`;

/**
 * Builds a course through the API: a title, optional fields, and modules each with N lessons, published
 * unless `lessonStatus` says otherwise (a learner sees only published lessons).
 */
export async function seedCourse(
  bed: ContentTestBed,
  {
    token = bed.as.CURATOR.token,
    modules = [] as number[],
    lessonStatus = 'published',
    ...fields
  }: { token?: string; modules?: number[]; lessonStatus?: 'draft' | 'published' | 'hidden' } & Record<string, unknown> = {},
): Promise<Course> {
  const created = await api<Course>(bed.content.url, 'POST', '/api/courses', {
    token,
    body: { title: uniqueTitle(), ...fields },
  });
  if (created.status !== 201) throw new Error(`course create failed: ${created.status} ${JSON.stringify(created.body)}`);
  for (const lessons of modules) {
    const mod = await api(bed.content.url, 'POST', '/api/blocks', { token, body: { type: 'MODULE', courseId: created.body.id } });
    if (mod.status !== 201) throw new Error(`module create failed: ${mod.status} ${JSON.stringify(mod.body)}`);
    for (let i = 0; i < lessons; i++) {
      const lesson = await api(bed.content.url, 'POST', '/api/blocks', {
        token,
        body: { courseId: created.body.id, moduleId: mod.body.id, status: lessonStatus },
      });
      if (lesson.status !== 201) throw new Error(`lesson create failed: ${lesson.status} ${JSON.stringify(lesson.body)}`);
    }
  }
  const full = await api<Course>(bed.content.url, 'GET', `/api/courses/${created.body.id}`, { token });
  return full.body;
}

/* ------------------------------------------------------------ course builder */

/** Polls a job the way the editor does until it stops running (bounded: no fixed sleeps). */
export async function waitForJob(
  bed: Pick<ContentTestBed, 'content'> | { content: { url: string } },
  token: string,
  id: string,
  timeoutMs = 20_000,
): Promise<GenerationJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await api<GenerationJob>(bed.content.url, 'GET', `/api/generations/${id}`, { token });
    if (answer.status !== 200) throw new Error(`job read failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.status !== 'running') return answer.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits for a condition checked in this process (e.g. the fake provider saw a request). */
export async function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Everything stored for a course, to prove what did or did not change. */
export async function storedCourse(bed: ContentTestBed, courseId: string) {
  const [course, blocks, quizzes] = await Promise.all([
    bed.models.courses.findById(courseId).lean(),
    bed.models.blocks.find({ courseId }).sort({ _id: 1 }).lean(),
    bed.models.quizzes.find({ courseId }).sort({ _id: 1 }).lean(),
  ]);
  return { course, blocks, quizzes };
}

export const countAll = async (bed: ContentTestBed) => ({
  courses: await bed.models.courses.countDocuments({}),
  blocks: await bed.models.blocks.countDocuments({}),
  quizzes: await bed.models.quizzes.countDocuments({}),
});

/** The quiz ids a course's lessons hold, in reading order. */
export const quizIdsOf = (course: Course): string[] =>
  course.modules.flatMap((m) =>
    m.lessons.flatMap((l) => l.blocks.flatMap((b) => (b.type === 'quiz' && b.content.quizId ? [b.content.quizId] : []))),
  );

const VERSIONED_PATH = /^\/api\/(?:(courses|blocks|quizzes)\/([^/?]+)|courses\/[^/]+\/bank\/([^/?]+))$/;

/**
 * The body of an edit as the editor sends it: based on the version of the course, module, lesson,
 * quiz or bank question as it is stored now (what the editor has just read), unless the body names
 * its own. Tests of the version rule itself (428, 412) name theirs; see concurrency.test.ts.
 */
export async function basedOnStored(bed: ContentTestBed, path: string, body: unknown): Promise<unknown> {
  const m = VERSIONED_PATH.exec(path);
  if (!m || !body || typeof body !== 'object' || Array.isArray(body) || 'version' in body) return body;
  const [, kind, id, questionId] = m;
  const key = questionId ?? id;
  if (!isValidObjectId(key)) return { version: 0, ...body };
  const models = { courses: bed.models.courses, blocks: bed.models.blocks, quizzes: bed.models.quizzes } as const;
  const model = kind ? models[kind as keyof typeof models] : bed.models.bank;
  const stored = await (model as typeof bed.models.blocks).findById(key, { version: 1 }).lean<{ version?: number }>();
  return { version: stored?.version ?? 0, ...body };
}

/**
 * Waits until a course has its published version `number` (the first is taken just after the first
 * learner's beginning is answered, docs/decisions/093), polling the store without fixed sleeps.
 */
export async function waitForVersion(
  bed: Pick<ContentTestBed, 'models'>,
  courseId: string,
  number = 1,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const course = await bed.models.courses
      .findById(courseId)
      .select({ published: 1 })
      .lean<{ published?: { number: number } | null }>();
    if ((course?.published?.number ?? 0) >= number) return;
    if (Date.now() > deadline) throw new Error(`course ${courseId} has no version ${number} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
