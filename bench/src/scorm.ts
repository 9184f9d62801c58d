import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScormAttemptState, ScormLaunch, ScormPackageSummary } from '@portal/contracts';
import { CONSENT_DOCUMENT } from '@portal/contracts';
import { scorm12Package } from '@portal/system-tests/scorm/packages';
import { CHROMIUM, median, QUICK, type Figure } from './harness';
import { call, pct, pool, type BenchPortal } from './portal';
import { mixedLoad } from './mixed';
import { storeCounts, storeOpsSplit } from './storeOps';
import { bucketsBetween, routeBuckets, windowLatency, withLoopDelay } from './routeLatency';
import { commitInThread } from './scormCommitter';

const ROOT = path.resolve(__dirname, '../..');
const GOLF = path.join(ROOT, 'e2e/fixtures/scorm/RuntimeBasicCalls_SCORM20043rdEdition.zip');
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const ROUNDS = QUICK ? 1 : 3;
/**
 * The normal load beside the commits, requests a second through the gateway (the mixed load's kinds,
 * paced); BENCH_SCORM_LOAD sets another, 0 for the commits alone.
 */
const NORMAL_LOAD = Number(process.env.BENCH_SCORM_LOAD ?? 50);
/** Seconds the mixed load runs before the commits begin (and are timed). */
const COMMIT_WARM_UP_S = 10;

interface ScormCourse {
  courseId: string;
  nativeLessonId: string;
  scormLessonId: string;
}

/** POST a multipart file; the answer's JSON, or a thrown error naming the status. */
async function postFile<T>(url: string, token: string, bytes: Buffer, name: string, type: string): Promise<T> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const answer = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await answer.text();
  if (answer.status !== 201) throw new Error(`POST ${url}: ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** A package uploaded into the course and put in the lesson as its «SCORM-пакет» block (the lesson's current version). */
async function playInLesson(portal: BenchPortal, courseId: string, lessonId: string, zip: Buffer, name: string) {
  const { gateway, admin } = portal;
  const pkg = await postFile<ScormPackageSummary>(
    `${gateway}/api/scorm/packages?courseId=${courseId}&mode=lesson`,
    admin,
    zip,
    name,
    'application/zip',
  );
  const lesson = await call<{ version: number }>(gateway, 'GET', `/api/blocks/${lessonId}`, admin);
  await call(gateway, 'PATCH', `/api/blocks/${lessonId}`, admin, {
    version: lesson.version,
    content: [{ type: 'scorm', content: { packageId: pkg.id, scoId: pkg.scos[0].id, title: pkg.title, version: pkg.version } }],
  });
}

/** A published course: a native lesson (a heading and text) and a lesson playing the golf package. */
async function arrangeCourse(portal: BenchPortal): Promise<ScormCourse> {
  const { gateway, admin } = portal;
  const course = await call<{ id: string }>(gateway, 'POST', '/api/courses', admin, {
    title: 'SCORM для замеров',
    isPublished: true,
  });
  const moduleId = (
    await call<{ id: string }>(gateway, 'POST', '/api/blocks', admin, { type: 'MODULE', courseId: course.id, title: 'Модуль' })
  ).id;
  const native = await call<{ id: string }>(gateway, 'POST', '/api/blocks', admin, {
    courseId: course.id,
    moduleId,
    title: 'Обычный урок',
    status: 'published',
    content: [
      { type: 'heading', content: { text: 'Обычный урок: первый экран' } },
      { type: 'text', content: { text: 'Текст урока для замера первого экрана.' } },
    ],
  });
  const scorm = await call<{ id: string }>(gateway, 'POST', '/api/blocks', admin, {
    courseId: course.id,
    moduleId,
    title: 'Урок-пакет',
    status: 'published',
  });
  await playInLesson(portal, course.id, scorm.id, readFileSync(GOLF), 'golf.zip');
  return { courseId: course.id, nativeLessonId: native.id, scormLessonId: scorm.id };
}

/**
 * A 50 MB package (one SCO and 50 MB of media that does not compress) uploaded, checked, stored and
 * launched until its page answers; beside it, in interleaved rounds, a native 45 MB file upload (the
 * native limit is 50 MiB with the envelope) until it is served.
 */
async function uploadFigures(portal: BenchPortal, course: ScormCourse, figures: Figure[]) {
  const { gateway, admin } = portal;
  const packageBytes = await scorm12Package(
    'Пакет 50 МБ',
    [{ id: 'SCO_BIG', title: 'Большой урок', href: 'index.html', score: 80 }],
    {
      edit: (zip) => void zip.file('media/lecture.mp4', randomBytes(50 * 1000 * 1000), { compression: 'STORE' }),
    },
  );
  const nativeBytes = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0]), randomBytes(45 * 1000 * 1000)]);
  const scormTimes: number[] = [];
  const nativeTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let started = Date.now();
    await playInLesson(portal, course.courseId, course.scormLessonId, packageBytes, 'big.zip');
    const launch = await call<ScormLaunch>(gateway, 'POST', '/api/scorm/launch', portal.learners[0], {
      lessonId: course.scormLessonId,
    });
    const base = new URL(launch.url, gateway).pathname.split('/').slice(0, 3).join('/');
    const page = await fetch(`${gateway}${base}/index.html`);
    if (page.status !== 200) throw new Error(`the uploaded package's page answered ${page.status}`);
    await page.arrayBuffer();
    scormTimes.push(Date.now() - started);

    started = Date.now();
    const file = await postFile<{ url: string }>(
      `${gateway}/api/upload/file?accept=audio`,
      admin,
      nativeBytes,
      'lecture.mp3',
      'audio/mpeg',
    );
    const served = await fetch(`${gateway}${file.url}`, { headers: { authorization: `Bearer ${admin}`, range: 'bytes=0-1023' } });
    if (served.status !== 206) throw new Error(`the uploaded file answered ${served.status}`);
    await served.arrayBuffer();
    nativeTimes.push(Date.now() - started);
  }
  // The lesson plays the golf package again for the launch figures.
  await playInLesson(portal, course.courseId, course.scormLessonId, readFileSync(GOLF), 'golf.zip');
  const seconds = median(scormTimes) / 1000;
  figures.push({
    name: 'SCORM: a 50 MB package uploaded, checked, stored and playable',
    value: round(seconds, 2),
    unit: 's',
    budget: '≤ 10 s',
    limit: 10,
    met: seconds <= 10,
    note: `median of ${ROUNDS} (${scormTimes.map((t) => (t / 1000).toFixed(2)).join(', ')} s), ${(packageBytes.length / 1e6).toFixed(1)} MB zip; beside it a native 45 MB file upload until served: ${(median(nativeTimes) / 1000).toFixed(2)} s`,
  });
}

/**
 * Chromium signed in as a learner, the shell cached by a first visit: from navigation to the SCO's
 * first screen (the golf package's first page inside its frames), beside a native lesson's first
 * screen (its heading), interleaved.
 */
async function launchFigures(portal: BenchPortal, course: ScormCourse, figures: Figure[]) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox'],
  });
  const scormTimes: number[] = [];
  const nativeTimes: number[] = [];
  try {
    const context = await browser.newContext();
    await context.addInitScript(
      (token) =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
          'authToken',
          token,
        ),
      portal.learners[0],
    );
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.dismiss());
    const lessonUrl = (lessonId: string) => `${portal.gateway}/student/${course.courseId}?lesson=${lessonId}`;
    const scoScreen = page
      .frameLocator('iframe[title^="Учебный материал"]')
      .frameLocator('#sco')
      .frameLocator('#contentFrame')
      .getByRole('heading', { name: 'Play of the game' });
    const nativeScreen = page.getByRole('heading', { name: 'Обычный урок: первый экран' });
    const timeTo = async (lessonId: string, screen: typeof nativeScreen) => {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(lessonUrl(lessonId));
      await screen.waitFor({ state: 'visible', timeout: 30_000 });
      return Date.now() - started;
    };
    // The first visits fill the cache (the shell, the remotes, scorm-again's chunk): not counted.
    await timeTo(course.nativeLessonId, nativeScreen);
    await timeTo(course.scormLessonId, scoScreen);
    for (let r = 0; r < ROUNDS + 2; r++) {
      scormTimes.push(await timeTo(course.scormLessonId, scoScreen));
      nativeTimes.push(await timeTo(course.nativeLessonId, nativeScreen));
    }
  } finally {
    await browser.close();
  }
  const seconds = median(scormTimes) / 1000;
  figures.push({
    name: "SCORM: launch to the SCO's first screen, signed in, cached shell",
    value: round(seconds, 2),
    unit: 's',
    budget: '≤ 1.5 s',
    limit: 1.5,
    met: seconds <= 1.5,
    note: `median of ${scormTimes.length} (${scormTimes.map((t) => (t / 1000).toFixed(2)).join(', ')} s), the golf package through its player page; a native lesson's first screen beside it: ${(median(nativeTimes) / 1000).toFixed(2)} s`,
  });
}

/**
 * 200 learners with an open attempt each commit every 30 s (as scorm-again's autocommit does), at
 * random offsets, while the bench's mixed load runs through the same gateway; every commit's time,
 * and afterwards every attempt's stored sequence against the last one sent.
 */
async function commitFigures(portal: BenchPortal, course: ScormCourse, figures: Figure[]) {
  const { gateway } = portal;
  const learners = QUICK ? 40 : 200;
  const duration = QUICK ? 20 : 90;
  const tag = randomBytes(3).toString('hex');
  const tokens: string[] = new Array<string>(learners);
  await pool(
    Array.from({ length: learners }, (_, i) => i),
    8,
    async (i) => {
      tokens[i] = (
        await call<{ token: string }>(gateway, 'POST', '/api/auth/register', null, {
          email: `scorm${i}.${tag}@bench.test`,
          password: 'Learner12345',
          fullName: `Слушатель Пакетный ${i}`,
          role: 'CANDIDATE',
          consentVersion: CONSENT_DOCUMENT.version,
        })
      ).token;
    },
  );
  const attempts: string[] = new Array<string>(learners);
  await pool(
    Array.from({ length: learners }, (_, i) => i),
    8,
    async (i) => {
      attempts[i] = (
        await call<ScormAttemptState>(gateway, 'POST', '/api/scorm/attempts', tokens[i], {
          courseId: course.courseId,
          lessonId: course.scormLessonId,
        })
      ).id;
    },
  );

  // The same commits as the gateway and progress measured them (their request histograms), and how
  // late the senders' own timers ran: what the portal took apart from the bench client's waits.
  const { ports, replicaPorts } = portal.stack;
  const sides = [
    { name: 'gateway', urls: [`http://127.0.0.1:${ports.gateway + 1000}/metrics`], route: '/api/scorm/attempts/*' },
    {
      name: 'progress',
      urls: replicaPorts.progress.map((port) => `http://127.0.0.1:${port}/metrics`),
      route: '/api/scorm/attempts/:id/commit',
    },
  ];
  const countsBefore = await storeCounts(portal.stack);
  // The commits begin once the mixed load runs steadily, as a working day's would: its first seconds
  // open its 50 connections at once on cold caches (the learners' principals, the catalogue's pages,
  // the pools), and 27 of the 68 commits above 100 ms in one run fell in those first 5 seconds.
  const warmUp = QUICK ? 2 : COMMIT_WARM_UP_S;
  const until = Date.now() + (warmUp + duration) * 1000;
  // Read just before the first commit: the learners' attempts were opened through the same routes.
  const sidesBefore = new Promise((resolve) => setTimeout(resolve, warmUp * 1000 - 500)).then(() =>
    Promise.all(sides.map((side) => routeBuckets(side.urls, 'POST', side.route))),
  );
  const committing = commitInThread({ gateway, tokens, attempts, startAt: Date.now() + warmUp * 1000, until });
  // The mixed load paced at a working day's rate, not flat out: flat out, every request waits its turn
  // on two cores, the commits as much as the rest (the capacity part measures that).
  const [[mixed, { times, refused, lastSent, loopDelay }], mixedLoopDelay] = await withLoopDelay(() =>
    Promise.all([NORMAL_LOAD > 0 ? mixedLoad(portal, warmUp + duration, { pacedTotal: NORMAL_LOAD }) : null, committing]),
  );
  const [before, after] = await Promise.all([
    sidesBefore,
    Promise.all(sides.map((side) => routeBuckets(side.urls, 'POST', side.route))),
  ]);
  const measuredBy = sides
    .map((side, n) => {
      const { count, within, quantileMs } = windowLatency(bucketsBetween(before[n], after[n]), 0.1);
      return `${side.name} ${count} commits, ${round(within * 100, 1)}% within 100 ms, p95 about ${round(quantileMs, 0)} ms`;
    })
    .join('; ');

  const storeOps = storeOpsSplit(countsBefore, await storeCounts(portal.stack));
  // Every commit answered as stored is there: the attempt's sequence is the last one sent.
  let lost = 0;
  await pool(
    Array.from({ length: learners }, (_, i) => i),
    8,
    async (i) => {
      const state = await call<ScormAttemptState>(gateway, 'POST', '/api/scorm/attempts', tokens[i], {
        courseId: course.courseId,
        lessonId: course.scormLessonId,
      });
      if (state.sequence !== lastSent[i]) lost++;
    },
  );
  times.sort((a, b) => a - b);
  const p95 = pct(times, 0.95);
  const native = mixed?.kinds.find((k) => k.name.startsWith('complete a lesson'));
  const real = mixed?.kinds.filter((k) => !k.expectBad) ?? [];
  figures.push({
    name: `SCORM: ${learners} learners committing every 30 s in the mixed load, commit p95`,
    value: round(p95, 1),
    unit: 'ms',
    budget: '≤ 100 ms',
    limit: 100,
    met: p95 <= 100 && times.length > 0,
    note: `${times.length} commits in ${duration} s beside the mixed load paced at ${NORMAL_LOAD} req/s (running ${warmUp} s before them), p50 ${round(pct(times, 0.5), 1)} ms, p99 ${round(pct(times, 0.99), 1)} ms, refused ${JSON.stringify(refused)}; as the portal measured them: ${measuredBy}; over the run, the senders' timers (a thread of their own) late by p50 ${round(loopDelay.p50, 1)} ms, p99 ${round(loopDelay.p99, 1)} ms, at most ${round(loopDelay.max, 0)} ms, the mixed load's client's by p50 ${round(mixedLoopDelay.p50, 1)} ms, p99 ${round(mixedLoopDelay.p99, 1)} ms; beside them the native «complete a lesson» p95 ${native ? round(native.r.p95, 1) : '?'} ms; mixed load ${mixed ? round(real.reduce((s, k) => s + k.r.total, 0) / mixed.seconds, 0) : 0} req/s (p95 ${real.map((k) => `${k.name.split(' (')[0]} ${round(k.r.p95, 0)} ms at ${round(k.r.total / (mixed?.seconds ?? 1), 1)}/s`).join(', ')}); ${storeOps}`,
  });
  figures.push({
    name: 'SCORM: commits lost (answered as stored, not in the store)',
    value: lost,
    unit: 'attempts',
    budget: '0',
    limit: 0,
    met: lost === 0 && Object.keys(refused).length === 0,
    note: `${learners} attempts read back; refused commits ${JSON.stringify(refused)}`,
  });
}

/** The SCORM issue's three figures, each beside a native lesson's in the same run. */
export async function scormFigures(portal: BenchPortal, figures: Figure[]) {
  // BENCH_SCORM_PARTS=commits (or upload, launch, commits in any list) measures those alone.
  const parts = (process.env.BENCH_SCORM_PARTS ?? 'upload,launch,commits').split(',');
  const course = await arrangeCourse(portal);
  if (parts.includes('upload')) await uploadFigures(portal, course, figures);
  if (parts.includes('launch')) await launchFigures(portal, course, figures);
  if (parts.includes('commits')) await commitFigures(portal, course, figures);
}
