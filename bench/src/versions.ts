import { performance } from 'node:perf_hooks';
import { BSON, ObjectId } from 'mongodb';
import type { ContentBlock } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { touchCourse } from '@portal/svc-content/commands/touch';
import { lessonContentFields } from '@portal/svc-content/models/block';
import { startContent, type ContentTestBed } from '@portal/svc-content/testing';
import { QUICK, type Figure } from './harness';

/** The course: 50 modules × 20 lessons × 10 blocks, and 50 published versions of it. */
const MODULES = QUICK ? 10 : 50;
const LESSONS = 20;
const BLOCKS = 10;
const VERSIONS = QUICK ? 10 : 50;
const READS = 60;
const round = (n: number) => Number(n.toFixed(2));
const quantile = (samples: number[], q: number) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * q) - 1];

/** Content's own count of store commands for one route (the driver's command monitoring, per request). */
async function routeOps(bed: ContentTestBed, route: string): Promise<{ requests: number; operations: number }> {
  const text = await (await fetch(`${bed.content.url}/metrics`)).text();
  let requests = 0;
  let operations = 0;
  for (const line of text.split('\n')) {
    if (!line.includes(`route="${route}"`) || !line.includes('method="GET"')) continue;
    const value = Number(line.split(' ').pop());
    if (line.startsWith('portal_http_request_duration_seconds_count')) requests += value;
    if (line.startsWith('portal_store_operations_total')) operations += value;
  }
  return { requests, operations };
}

const blocksOf = (lessonId: ObjectId, lesson: number, tag: string): ContentBlock[] =>
  Array.from({ length: BLOCKS }, (_, b) => ({
    id: `b${b}`,
    type: 'text' as const,
    order: b,
    lessonId: String(lessonId),
    content: { text: `Урок ${lesson}, блок ${b} (${tag}). `.padEnd(400, 'Текст урока для бенчмарка. ') },
  }));

/**
 * Course versions at the size, over the real content service and store: a learner's outline
 * and lesson reads (p50, p95 and store operations per request) before the course has versions and
 * after 50 of them, side by side in one run; a publish's time; and what 50 versions store against one.
 */
export async function versionFigures(figures: Figure[]): Promise<void> {
  const bed = await startContent();
  try {
    const curator = bed.as.CURATOR.token;
    const created = await api<{ id: string }>(bed.content.url, 'POST', '/api/courses', {
      token: curator,
      body: { title: 'Курс бенчмарка версий', status: 'published' },
    });
    const courseId = new ObjectId(created.body.id);
    const lessonIds: ObjectId[] = [];
    const now = new Date();
    for (let m = 0; m < MODULES; m += 1) {
      const moduleId = new ObjectId();
      const lessons = Array.from({ length: LESSONS }, (_, l) => {
        const _id = new ObjectId();
        lessonIds.push(_id);
        return {
          _id,
          type: 'LESSON',
          courseId,
          moduleId,
          title: `Урок ${m + 1}.${l + 1}`,
          description: '',
          position: l,
          status: 'published',
          version: 0,
          createdAt: now,
          updatedAt: now,
          ...lessonContentFields(blocksOf(_id, m * LESSONS + l, 'исходный')),
        };
      });
      await bed.models.blocks.collection.insertMany([
        {
          _id: moduleId,
          type: 'MODULE',
          courseId,
          moduleId: null,
          title: `Модуль ${m + 1}`,
          description: '',
          content: '',
          position: m,
          status: 'published',
          version: 0,
          createdAt: now,
          updatedAt: now,
        },
        ...lessons,
      ]);
    }
    await touchCourse(bed.models, courseId);
    const learner = bed.as.CLIENT.token;

    const reads = async (label: string) => {
      const measure = async (route: string, path: (i: number) => string) => {
        const before = await routeOps(bed, route);
        const samples: number[] = [];
        for (let i = 0; i < READS; i += 1) {
          const started = performance.now();
          const answer = await api(bed.content.url, 'GET', path(i), { token: learner });
          if (answer.status !== 200) throw new Error(`${path(i)}: ${answer.status}`);
          samples.push(performance.now() - started);
        }
        const after = await routeOps(bed, route);
        return {
          p50: quantile(samples, 0.5),
          p95: quantile(samples, 0.95),
          ops: (after.operations - before.operations) / (after.requests - before.requests),
        };
      };
      const outline = await measure('/api/courses/:id/outline', () => `/api/courses/${String(courseId)}/outline`);
      const lesson = await measure('/api/blocks/:id', (i) => `/api/blocks/${String(lessonIds[(i * 97) % lessonIds.length])}`);
      return { label, outline, lesson };
    };

    const live = await reads('без версий');
    // The first learner begins: version 1; then 49 publishes, each of one changed lesson.
    await api(bed.content.url, 'POST', `/internal/courses/${String(courseId)}/learner-activity`, {
      headers: { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN },
    });
    const size = async () => {
      const [versions, snapshots] = await Promise.all([
        bed.models.versions.collection.find({ courseId }).toArray(),
        bed.models.snapshots.collection.find({ courseId }).toArray(),
      ]);
      return [...versions, ...snapshots].reduce((sum, d) => sum + BSON.calculateObjectSize(d), 0);
    };
    const one = await size();
    const publishMs: number[] = [];
    for (let v = 2; v <= VERSIONS; v += 1) {
      const lessonId = lessonIds[(v * 31) % lessonIds.length];
      await bed.models.blocks.updateOne(
        { _id: lessonId },
        { $set: lessonContentFields(blocksOf(lessonId, v, `правка ${v}`)), $inc: { version: 1 } },
      );
      await touchCourse(bed.models, courseId);
      const started = performance.now();
      const published = await api(bed.content.url, 'POST', `/api/courses/${String(courseId)}/versions`, {
        token: curator,
        body: { summary: `Правка ${v}`, basedOn: v - 1 },
      });
      if (published.status !== 201) throw new Error(`publish ${v}: ${published.status} ${JSON.stringify(published.body)}`);
      publishMs.push(performance.now() - started);
    }
    const all = await size();
    const versioned = await reads(`${VERSIONS} версий`);

    const shape = `${MODULES} × ${LESSONS} × ${BLOCKS}`;
    for (const [what, key] of [
      ['outline', 'outline'],
      ['lesson', 'lesson'],
    ] as const) {
      figures.push({
        name: `learner's ${what} (${shape}): p50 / p95 / store ops, no versions → ${VERSIONS} versions`,
        value: round(versioned[key].p95),
        unit: 'ms',
        budget: `≤ ${round(live[key].p95 * 1.2)} ms (no worse than without versions)`,
        limit: round(live[key].p95 * 1.2),
        // No more store work, and no slower beyond the noise of 60 reads on a shared host.
        met: versioned[key].ops <= live[key].ops + 0.01 && versioned[key].p95 <= live[key].p95 * 1.2,
        note: `without: ${round(live[key].p50)} / ${round(live[key].p95)} ms, ${round(live[key].ops)} ops; with: ${round(versioned[key].p50)} / ${round(versioned[key].p95)} ms, ${round(versioned[key].ops)} ops; ${READS} reads one after another`,
      });
    }
    figures.push(
      {
        name: `${VERSIONS} versions of a ${shape} course, stored, against one version`,
        value: round(all / one),
        unit: '×',
        budget: '≤ 3×',
        limit: 3,
        met: all / one <= 3,
        note: `${(all / 1024 / 1024).toFixed(1)} MiB against ${(one / 1024 / 1024).toFixed(1)} MiB (versions and snapshots, BSON)`,
      },
      {
        name: `publish of one changed lesson (${shape}) p50 / p95`,
        value: round(quantile(publishMs, 0.95)),
        unit: 'ms',
        note: `p50 ${round(quantile(publishMs, 0.5))} ms over ${publishMs.length} publishes`,
      },
    );
  } finally {
    await bed.close();
  }
}
