import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Types } from 'mongoose';
import { SCORM_MSG, type Course, type ScormCourseUpload, type ScormLaunch, type ScormPackageSummary } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import {
  BAD_PACKAGES,
  MULTI_SCO_COURSE,
  multiScoPackage,
  singleScoPackage,
} from '../../../../../packages/system-tests/src/scorm/packages';
import { ScormFiles } from '../../scorm/files';
import { PACKAGES_BUCKET as SCORM_BUCKET, objectStoresOf } from '../../storage';
import { sweepScormPackages } from '../../scorm/sweep';
import { signLaunchToken } from '../../scorm/token';
import { auditEventsFor, seedCourse, startContent, startContentReplica, type ContentTestBed } from '../../testing';
import { scormCsp } from './files';

const GOLF = path.resolve(__dirname, '../../../../../e2e/fixtures/scorm/RuntimeBasicCalls_SCORM20043rdEdition.zip');

let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

async function upload(
  courseId: string,
  zip: Buffer,
  { token = bed.as.CURATOR.token, mode = 'lesson', name = 'package.zip' } = {},
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), name);
  const res = await fetch(`${bed.content.url}/api/scorm/packages?courseId=${courseId}&mode=${mode}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Everything a package leaves in the store, and the scratch files of uploads. */
async function stored() {
  const db = bed.content.ctx.store.db!;
  const incoming = await readdir(path.join(bed.uploadDir, '.incoming')).catch(() => [] as string[]);
  return {
    packages: await bed.models.scormPackages.countDocuments({}),
    files: await db.collection(`${SCORM_BUCKET}.files`).countDocuments({}),
    chunks: await db.collection(`${SCORM_BUCKET}.chunks`).countDocuments({}),
    scratch: incoming.filter((n) => n.startsWith('scorm-')).length,
  };
}

/** A published course of the bed's curator with one published lesson holding the package's first SCO. */
async function lessonWithPackage(zip: Buffer, { lessonStatus = 'published' as 'published' | 'draft' } = {}) {
  const course = await seedCourse(bed, { modules: [1], status: 'published', lessonStatus });
  const uploaded = await upload(course.id, zip);
  expect(uploaded.status).toBe(201);
  const pkg = uploaded.body as ScormPackageSummary;
  const lesson = course.modules[0].lessons[0];
  const put = await api(bed.content.url, 'PATCH', `/api/blocks/${lesson.id}`, {
    token: bed.as.CURATOR.token,
    body: {
      content: [{ type: 'scorm', content: { packageId: pkg.id, scoId: pkg.scos[0].id, version: pkg.version } }],
      version: lesson.version,
    },
  });
  expect(put.status).toBe(200);
  return { course, pkg, lessonId: lesson.id };
}

const launch = (lessonId: string, token: string) =>
  api<ScormLaunch>(bed.content.url, 'POST', '/api/scorm/launch', { token, body: { lessonId } });

describe('uploading a package', () => {
  it.each(BAD_PACKAGES.map((p) => [p.name, p] as const))(
    'refuses %s with its Russian message and stores nothing',
    async (_name, bad) => {
      const course = await seedCourse(bed);
      const before = await stored();
      const answer = await upload(course.id, await bad.build());
      expect(answer.status).toBe(bad.status);
      expect(answer.body.message).toContain(bad.message);
      expect(await stored()).toEqual(before);
    },
  );

  it('stores the golf example as a lesson package: SCORM 2004 3rd Edition, one SCO launched at shared/launchpage.html', async () => {
    const course = await seedCourse(bed);
    const before = await stored();
    const answer = await upload(course.id, await readFile(GOLF), { name: 'golf.zip' });
    expect(answer.status).toBe(201);
    const pkg = answer.body as ScormPackageSummary;
    expect(pkg).toMatchObject({ courseId: course.id, version: '2004', edition: '2004 3rd Edition' });
    expect(pkg.scos).toHaveLength(1);
    expect(pkg.scos[0].launch).toBe('shared/launchpage.html');
    const after = await stored();
    expect(after.packages).toBe(before.packages + 1);
    expect(after.files - before.files).toBe(pkg.files);
    expect(after.scratch).toBe(0);
    const events = await auditEventsFor(bed.content, course.id);
    expect(
      events.some((e) => e.details.includes('Загружен SCORM-пакет') && e.details.includes('(SCORM 2004, учебных объектов: 1,')),
    ).toBe(true);
  });

  it('makes a whole course of the SCORM 1.2 multi-SCO package: a module per top-level item, a lesson per SCO holding its scorm block', async () => {
    const course = await seedCourse(bed);
    const answer = await upload(course.id, await multiScoPackage(), { mode: 'course' });
    expect(answer.status).toBe(201);
    const made = answer.body as ScormCourseUpload;
    expect(made.version).toBe('1.2');
    expect(made.modules.map((m) => m.title)).toEqual(MULTI_SCO_COURSE.items.map((g) => g.title));
    expect(made.modules.map((m) => m.lessons.map((l) => l.title))).toEqual([
      ['Урок 1.1. Кто отвечает за безопасность', 'Урок 1.2. Права работника'],
      ['Урок 2.1. Порядок на рабочем месте'],
    ]);
    expect(
      made.modules.flatMap((m) => m.lessons).every((l) => l.hasScorm && l.blocksCount === 1 && l.status === 'published'),
    ).toBe(true);
    const full = await api<Course>(bed.content.url, 'GET', `/api/courses/${course.id}`, { token: bed.as.CURATOR.token });
    const blocks = full.body.modules.flatMap((m) => m.lessons.flatMap((l) => l.blocks));
    expect(blocks.map((b) => (b.type === 'scorm' ? b.content.scoId : b.type))).toEqual(['SCO_1', 'SCO_2', 'SCO_3']);
    expect(blocks.every((b) => b.type === 'scorm' && b.content.packageId === made.id)).toBe(true);
  });

  it('puts a single-level organization in one module titled as the organization', async () => {
    const course = await seedCourse(bed);
    const answer = await upload(course.id, await singleScoPackage('Быстрый старт'), { mode: 'course' });
    expect(answer.status).toBe(201);
    expect((answer.body as ScormCourseUpload).modules.map((m) => [m.title, m.lessons.map((l) => l.title)])).toEqual([
      ['Быстрый старт', ['Быстрый старт']],
    ]);
  });

  it('refuses a curator who does not author the course, and a learner, before reading the package', async () => {
    const course = await seedCourse(bed);
    const stranger = await userWithRole(bed.auth, 'CURATOR');
    const before = await stored();
    const foreign = await upload(course.id, await singleScoPackage(), { token: stranger.token });
    expect([403, 404]).toContain(foreign.status);
    const learner = await upload(course.id, await singleScoPackage(), { token: bed.as.CLIENT.token });
    expect(learner.status).toBe(403);
    const anonymous = await upload(course.id, await singleScoPackage(), { token: '' });
    expect(anonymous.status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it('refuses an unknown mode and a missing file in Russian', async () => {
    const course = await seedCourse(bed);
    const wrongMode = await upload(course.id, await singleScoPackage(), { mode: 'everything' });
    expect(wrongMode.status).toBe(400);
    expect(wrongMode.body.message).toContain(SCORM_MSG.modeInvalid);
    const res = await fetch(`${bed.content.url}/api/scorm/packages?courseId=${course.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bed.as.CURATOR.token}` },
      body: new FormData(),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('файл не передан');
  });
});

describe('on a package origin of its own (SCORM_ORIGIN)', () => {
  const PORTAL = 'https://learn.example.ru';
  const PACKAGES = 'https://scorm.learn.example.ru';
  let replica: Awaited<ReturnType<typeof startContentReplica>>;
  beforeAll(async () => {
    replica = await startContentReplica(bed, { SCORM_ORIGIN: PACKAGES });
  });
  afterAll(() => replica.close());

  it('launches the player page there, which frames the SCO; the frames share that origin and only the launching portal frames them', async () => {
    const { lessonId } = await lessonWithPackage(await readFile(GOLF));
    const answer = await api<ScormLaunch>(replica.url, 'POST', '/api/scorm/launch', {
      token: bed.as.CLIENT.token,
      body: { lessonId },
      headers: { origin: PORTAL },
    });
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.url);
    expect(url.origin).toBe(PACKAGES);
    expect(url.pathname).toMatch(/^\/scorm\/[\w-]+\.[\w-]+\/__portal__\/player\.html$/);
    expect(url.searchParams.get('sco')).toBe('shared/launchpage.html');
    const base = url.pathname.split('/').slice(0, 3).join('/');
    const onPackages = { 'x-forwarded-host': url.host };

    const player = await fetch(`${replica.url}${url.pathname}${url.search}`, { headers: onPackages });
    expect(player.status).toBe(200);
    expect(player.headers.get('content-security-policy')).toBe(scormCsp(true, PORTAL));
    expect(player.headers.get('content-security-policy')).toContain('allow-same-origin');
    expect(player.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${PORTAL}`);
    expect(await player.text()).toContain('<iframe id="sco"');

    const bridge = await fetch(`${replica.url}${base}/__portal__/bridge.js`, { headers: onPackages });
    expect(await bridge.text()).toContain(JSON.stringify(PORTAL));
    const sco = await fetch(`${replica.url}${base}/shared/launchpage.html`, { headers: onPackages });
    expect(sco.status).toBe(200);
    expect(sco.headers.get('content-security-policy')).toBe(scormCsp(true, PORTAL));

    // The same addresses asked on the portal's own host: an opaque sandbox, and no player page.
    const onPortal = { 'x-forwarded-host': 'learn.example.ru' };
    const page = await fetch(`${replica.url}${base}/shared/launchpage.html`, { headers: onPortal });
    expect(page.headers.get('content-security-policy')).toBe(scormCsp(false));
    expect(page.headers.get('content-security-policy')).not.toContain('allow-same-origin');
    expect((await fetch(`${replica.url}${url.pathname}${url.search}`, { headers: onPortal })).status).toBe(404);
    expect(await (await fetch(`${replica.url}${base}/__portal__/bridge.js`, { headers: onPortal })).text()).not.toContain(PORTAL);
  });

  it('keeps the launch addresses on the portal when SCORM_ORIGIN is not set', async () => {
    const { lessonId } = await lessonWithPackage(await readFile(GOLF));
    const answer = await launch(lessonId, bed.as.CLIENT.token);
    expect(answer.body.url).toMatch(/^\/scorm\/[\w-]+\.[\w-]+\/shared\/launchpage\.html$/);
  });
});

describe('launching and serving a SCO', () => {
  it('gives a learner of a published lesson a signed address that serves the launch page in a sandbox with the bridge first', async () => {
    const { pkg, lessonId } = await lessonWithPackage(await readFile(GOLF));
    const answer = await launch(lessonId, bed.as.CLIENT.token);
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ packageId: pkg.id, scoId: pkg.scos[0].id, version: '2004' });
    expect(answer.body.url).toMatch(/^\/scorm\/[\w-]+\.[\w-]+\/shared\/launchpage\.html$/);
    const page = await fetch(`${bed.content.url}${answer.body.url}`, { headers: { origin: 'null' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(scormCsp(false));
    expect(page.headers.get('content-security-policy')).not.toContain('allow-same-origin');
    expect(page.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(page.headers.get('access-control-allow-origin')).toBe('*');
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    const token = answer.body.url.split('/')[2];
    const head = /<head[^>]*>/i.exec(html)!;
    expect(
      html.slice(head.index + head[0].length).startsWith(`<script src="/scorm/${token}/__portal__/bridge.js"></script>`),
    ).toBe(true);

    const bridge = await fetch(`${bed.content.url}/scorm/${token}/__portal__/bridge.js`);
    expect(bridge.status).toBe(200);
    const script = await bridge.text();
    expect(script).toContain('CrossFrameAPI');
    expect(script).toContain('window.API_1484_11 = api');
  });

  it('serves other files as they are, byte ranges too', async () => {
    const { lessonId } = await lessonWithPackage(await multiScoPackage());
    const { body } = await launch(lessonId, bed.as.CLIENT.token);
    const base = body.url.split('/').slice(0, 3).join('/');
    const css = await fetch(`${bed.content.url}${base}/shared/style.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(await css.text()).toContain('font-family');
    const part = await fetch(`${bed.content.url}${base}/shared/style.css`, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('body');
    const missing = await fetch(`${bed.content.url}${base}/nothing.html`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe(SCORM_MSG.fileNotFound);
  });

  it('hides a draft lesson from a learner but lets its author preview it', async () => {
    const { lessonId } = await lessonWithPackage(await singleScoPackage(), { lessonStatus: 'draft' });
    const learner = await launch(lessonId, bed.as.CLIENT.token);
    expect(learner.status).toBe(404);
    const author = await launch(lessonId, bed.as.CURATOR.token);
    expect(author.status).toBe(200);
  });

  it('refuses a learner a lesson of a course not published, and anyone unsigned', async () => {
    const course = await seedCourse(bed, { modules: [1] });
    const uploaded = await upload(course.id, await singleScoPackage());
    const lesson = course.modules[0].lessons[0];
    await api(bed.content.url, 'PATCH', `/api/blocks/${lesson.id}`, {
      token: bed.as.CURATOR.token,
      body: { content: [{ type: 'scorm', content: { packageId: uploaded.body.id } }], version: lesson.version },
    });
    const learner = await launch(lesson.id, bed.as.CLIENT.token);
    expect([403, 404]).toContain(learner.status);
    expect((await launch(lesson.id, '')).status).toBe(401);
  });

  it('refuses expired and tampered tokens, and a token of package A never reads package B', async () => {
    const a = await lessonWithPackage(await singleScoPackage('Пакет А'));
    const b = await lessonWithPackage(await multiScoPackage());
    const secret = bed.content.ctx.config.JWT_SECRET;

    const expired = signLaunchToken(secret, { packageId: a.pkg.id, userId: bed.as.CLIENT.user.id }, Date.now() - 10_000, 1).token;
    const old = await fetch(`${bed.content.url}/scorm/${expired}/index.html`);
    expect(old.status).toBe(403);
    expect(((await old.json()) as { message: string }).message).toBe(SCORM_MSG.launchExpired);

    const good = signLaunchToken(secret, { packageId: a.pkg.id, userId: bed.as.CLIENT.user.id }).token;
    const [body, mac] = good.split('.');
    const forged = Buffer.from(JSON.stringify({ p: b.pkg.id, u: bed.as.CLIENT.user.id, e: 4102444800 })).toString('base64url');
    for (const bad of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}xx`, 'garbage']) {
      const answer = await fetch(`${bed.content.url}/scorm/${bad}/index.html`);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { message: string }).message).toBe(SCORM_MSG.launchInvalid);
    }

    // Package B's files are not package A's, whatever path is asked.
    const ofB = b.pkg.scos[0].launch;
    expect((await fetch(`${bed.content.url}/scorm/${good}/${ofB}`)).status).toBe(404);
    expect((await fetch(`${bed.content.url}/scorm/${good}/..%2F${b.pkg.id}%2F${ofB}`)).status).toBe(404);
    expect((await fetch(`${bed.content.url}/scorm/${good}/index.html`)).status).toBe(200);
  });
});

describe('the progress service asks which SCO a lesson plays', () => {
  it('answers the binding over the internal token, 404 for a lesson without a package', async () => {
    const { course, pkg, lessonId } = await lessonWithPackage(await singleScoPackage());
    const internal = { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN };
    const answer = await api(bed.content.url, 'GET', `/internal/scorm/lessons/${lessonId}`, { headers: internal });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      courseId: course.id,
      lessonId,
      lessonTitle: course.modules[0].lessons[0].title,
      packageId: pkg.id,
      scoId: 'SCO_ONE',
      version: '1.2',
      allowNewAttempt: false,
    });
    const plain = await seedCourse(bed, { modules: [1] });
    const none = await api(bed.content.url, 'GET', `/internal/scorm/lessons/${plain.modules[0].lessons[0].id}`, {
      headers: internal,
    });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(SCORM_MSG.lessonHasNoPackage);
    const outsider = await api(bed.content.url, 'GET', `/internal/scorm/lessons/${lessonId}`, { token: bed.as.ADMIN.token });
    expect(outsider.status).toBe(403);
  });
});

describe('packages no lesson names any more', () => {
  it('are swept with their files after the grace period; a package a lesson holds stays', async () => {
    const kept = await lessonWithPackage(await singleScoPackage('Нужный'));
    const course = await seedCourse(bed);
    const loose = (await upload(course.id, await singleScoPackage('Забытый'))).body as ScormPackageSummary;
    const files = new ScormFiles(objectStoresOf(bed.content.ctx.config, bed.content.ctx.store).packages);
    const filesOf = async (id: string) => (await files.objects.list({ prefix: `${id}/`, limit: 1000 })).length;
    expect(await filesOf(loose.id)).toBeGreaterThan(0);

    // Within the grace period (the editor may not have saved its block yet) nothing goes.
    expect(await sweepScormPackages(bed.models, files, 60 * 60 * 1000)).not.toContain(loose.id);
    expect(await filesOf(loose.id)).toBeGreaterThan(0);

    const removed = await sweepScormPackages(bed.models, files, 0, Date.now() + 1000);
    expect(removed).toContain(loose.id);
    expect(removed).not.toContain(kept.pkg.id);
    expect(await filesOf(loose.id)).toBe(0);
    expect(await bed.models.scormPackages.countDocuments({ _id: loose.id })).toBe(0);
    expect(await filesOf(kept.pkg.id)).toBeGreaterThan(0);
    expect((await launch(kept.lessonId, bed.as.CLIENT.token)).status).toBe(200);
  });
  it('files left without their package are found page by page, however many files the store holds', async () => {
    const files = new ScormFiles(objectStoresOf(bed.content.ctx.config, bed.content.ctx.store).packages);
    const kept = await lessonWithPackage(await singleScoPackage('Страничный'));
    // Three uploads cut off before their document: files, and no package.
    const cutOff = [0, 1, 2].map(() => new Types.ObjectId().toHexString());
    for (const id of cutOff)
      for (const name of ['imsmanifest.xml', 'index.html'])
        await files.objects.put(`${id}/${name}`, Readable.from([Buffer.from(name)]), 'text/html');
    let lastKey: string | undefined;
    const cursor = { read: async () => lastKey, write: async (key: string | undefined) => void (lastKey = key) };
    const removed: string[] = [];
    // Two keys a sweep: the cursor carries each sweep on from the last, round to the start again.
    for (let sweep = 0; sweep < 1000 && !cutOff.every((id) => removed.includes(id)); sweep++)
      removed.push(...(await sweepScormPackages(bed.models, files, 0, Date.now() + 1000, cursor, 2)));
    expect(cutOff.filter((id) => !removed.includes(id))).toEqual([]);
    expect(removed).not.toContain(kept.pkg.id);
    for (const id of cutOff) expect(await files.objects.list({ prefix: `${id}/`, limit: 10 })).toEqual([]);
  });
});
