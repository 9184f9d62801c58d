import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '@portal/contracts';
import {
  DEFAULT_POSTGRESQL_URL,
  dropPostgresDatabase,
  installFerretDB,
  preparePostgresDatabase,
  startFerretDB,
} from '@portal/devstack/store';
import { installGinTwins } from '@portal/devstack/ginTwins';
import { keepStatistics } from '@portal/devstack/pgStatistics';
import { freePort } from '@portal/devstack/util';
import { serviceDatabase, type BenchPortal } from './portal';
import type { StoreKind } from './capacity';
import { round } from './harness';

/* ------------------------------------------------------------------------------ the stores */

export interface BenchStore {
  url: string;
  /** The FerretDB process, for the CPU split. */
  pid?: number;
  /** On PostgreSQL, the run's database (its backends' CPU, apart from the server's other users). */
  database?: string;
  stop(): Promise<void>;
}

/** A FerretDB of our own for the run, on the given backend; stopping it drops everything it held. */
export async function startPrivateStore(kind: StoreKind): Promise<BenchStore> {
  const binary = installFerretDB();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${kind}-`));
  if (kind === 'sqlite') {
    const proc = await startFerretDB(binary, port, dir, 'bench-ferretdb-sqlite');
    return {
      url: `mongodb://127.0.0.1:${port}`,
      pid: proc.child.pid,
      async stop() {
        await proc.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const postgresqlUrl = new URL(process.env.FERRETDB_POSTGRESQL_URL || DEFAULT_POSTGRESQL_URL);
  postgresqlUrl.pathname = `/bench_${Date.now().toString(36)}`;
  const refused = await preparePostgresDatabase(postgresqlUrl.toString());
  if (refused) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`no PostgreSQL for the bench (${refused}); set FERRETDB_POSTGRESQL_URL`);
  }
  // As the launcher does: FerretDB's own btree indexes cannot answer its pushed-down equalities (ginTwins.ts).
  await installGinTwins(postgresqlUrl.toString());
  const proc = await startFerretDB(binary, port, dir, 'bench-ferretdb-postgresql', { postgresqlUrl: postgresqlUrl.toString() });
  // As the launcher does: a server without autovacuum would plan every query as on an empty table (pgStatistics.ts).
  const stopKeeping = await keepStatistics(postgresqlUrl.toString());
  return {
    url: `mongodb://127.0.0.1:${port}`,
    pid: proc.child.pid,
    database: postgresqlUrl.pathname.slice(1),
    async stop() {
      await stopKeeping?.();
      await proc.stop();
      await dropPostgresDatabase(postgresqlUrl.toString());
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/* ------------------------------------------------------------------------------ the seeds */

/** 1,000 published courses with their counts, and the learner's marks on 60 of them (straight into the store). */
export async function seedCourses(portal: BenchPortal, mongoUrl: string, learnerId: string): Promise<void> {
  const { Types } = await import('mongoose');
  const { courseModel } = await import('@portal/svc-content/models/course');
  const { courseMarkModel } = await import('@portal/svc-content/models/courseMark');
  const { store, close } = await serviceDatabase(portal, mongoUrl, 'content');
  try {
    const now = Date.now();
    const courses = Array.from({ length: 1000 }, (_, i) => ({
      _id: new Types.ObjectId(),
      title: `Курс компании ${i + 1}`,
      description: 'Обязательное обучение сотрудников',
      isPublished: true,
      status: 'published',
      publishedAt: new Date(now - i * 60_000),
      counts: { modules: 5, lessons: 20, visibleModules: 5, visibleLessons: 20 },
      createdAt: new Date(now - i * 60_000),
      updatedAt: new Date(now - i * 60_000),
    }));
    const model = courseModel(store);
    for (let i = 0; i < courses.length; i += 250) await model.insertMany(courses.slice(i, i + 250), { timestamps: false });
    const marks = courses
      .slice(0, 60)
      .map((c, i) => ({ userId: learnerId, courseId: c._id, kind: i % 2 ? 'started' : 'favorite' }));
    await courseMarkModel(store).insertMany(marks);
  } finally {
    await close();
  }
}

/** Audit records spread over the last year, by 20 people, straight into the audit service's database. */
export async function seedAudit(portal: BenchPortal, mongoUrl: string, count: number): Promise<void> {
  const { store, close } = await serviceDatabase(portal, mongoUrl, 'audit');
  try {
    const people = Array.from({ length: 20 }, (_, i) => ({
      id: randomUUID(),
      fullName: `Сотрудник Аудитов ${i + 1}`,
      email: `staff${i}@bench.test`,
    }));
    const now = Date.now();
    const year = 365 * 24 * 3600_000;
    // The event id is the record's _id (see the audit service's record model).
    const records = store.collection<{ _id: string }>('audit_records');
    for (let i = 0; i < count; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - i) }, (_, j) => {
        const id = randomUUID();
        const n = i + j;
        return {
          _id: id,
          eventId: id,
          service: 'content',
          action: AUDIT_ACTIONS[n % AUDIT_ACTIONS.length],
          entity: AUDIT_ENTITIES[(n * 7) % AUDIT_ENTITIES.length],
          entityId: String(n),
          details: `Запись журнала ${n}`,
          actor: people[n % people.length],
          actorId: people[n % people.length].id,
          timestamp: new Date(now - Math.floor((n / count) * year)),
          day: new Date(now - Math.floor((n / count) * year)).toISOString().slice(0, 10),
        };
      });
      await records.insertMany(batch, { ordered: false });
    }
    // The audit service summarised the days that are over when it started, before these records
    // were there (so as empty days). Stored here behind the worker's back, they are late records to
    // it: their days' summaries are made stale as the worker does for a late event, and the same
    // warm-up as at start counts them again, timed apart from the page figure.
    const { recordModel, TRAIL_VERSION } = await import('@portal/svc-audit/models/record');
    const { bumpVersion } = await import('@portal/service-kit');
    const { daySummaryModel, invalidateLateDays, warmDaySummaries } = await import('@portal/svc-audit/queries/daySummaries');
    const seededDays = Array.from({ length: 367 }, (_, d) => new Date(now - d * 24 * 3600_000).toISOString().slice(0, 10));
    await invalidateLateDays(daySummaryModel(store), seededDays, now);
    // And, as the worker does after a write, the history pages kept before are stale.
    await bumpVersion(store, TRAIL_VERSION);
    const t = Date.now();
    const days = await warmDaySummaries(recordModel(store), 1095);
    console.log(`  summarised ${days} days of the trail in ${round((Date.now() - t) / 1000)} s (the service does it at start)`);
  } finally {
    await close();
  }
}
