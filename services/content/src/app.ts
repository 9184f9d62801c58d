import type Router from '@koa/router';
import { declaredRouter, ensureIndexes, subjectRouter, type ServiceContext } from '@portal/service-kit';
import type { ContentConfig } from './config';
import { contentModels, type ContentModels } from './models';
import { bankRouter } from './routes/bank';
import { blocksRouter } from './routes/blocks';
import { coursesRouter } from './routes/courses';
import { generationsRouter } from './routes/generations';
import { internalRouter } from './routes/internal';
import { quizzesRouter } from './routes/quizzes';
import { scormRoutes } from './routes/scorm';
import { scormExportRoutes } from './routes/scormExport';
import { uploadsRouter } from './routes/uploads';
import { versionRoutes } from './routes/versions';
import { courseBuilderOf } from './generation/service';
import { ScormFiles } from './scorm/files';
import { PackageReceiver } from './scorm/receive';
import { sweepScormPackages } from './scorm/sweep';
import { contentSubjects } from './subjects';
import { UploadQuota } from './uploads/limits';
import { migrateLocalUploads, redisCursor, sweepOrphanUploads, withRedisLock } from './uploads/maintenance';
import { UploadStore } from './uploads/store';
import { objectStoresOf, type ObjectStores } from './storage';

/** One set of object stores per service (one S3 client and its connection pool). */
const storesByContext = new WeakMap<ServiceContext<ContentConfig>, ObjectStores>();
const objectStores = (ctx: ServiceContext<ContentConfig>): ObjectStores => {
  let stores = storesByContext.get(ctx);
  if (!stores) storesByContext.set(ctx, (stores = objectStoresOf(ctx.config, ctx.store)));
  return stores;
};

const uploadStoreOf = (ctx: ServiceContext<ContentConfig>) =>
  new UploadStore(
    { dir: ctx.config.UPLOAD_DIR, maxBytes: ctx.config.UPLOAD_MAX_BYTES, maxFiles: ctx.config.UPLOAD_MAX_FILES },
    objectStores(ctx).files,
  );

const uploadQuotaOf = (ctx: ServiceContext<ContentConfig>, models: ContentModels) =>
  new UploadQuota(
    ctx.redis,
    models.uploads,
    { prefix: ctx.config.QUEUE_PREFIX, quotaBytes: ctx.config.UPLOAD_QUOTA_BYTES, ratePerMinute: ctx.config.UPLOAD_RATE_LIMIT },
    ctx.logger,
  );

export function contentRouters(ctx: ServiceContext<ContentConfig>): Router[] {
  const models = contentModels(ctx.store);
  const uploads = uploadStoreOf(ctx);
  const scormFiles = new ScormFiles(objectStores(ctx).packages);
  return [
    coursesRouter(ctx, models),
    blocksRouter(ctx, models),
    uploadsRouter(ctx, models, uploads, uploadQuotaOf(ctx, models)),
    internalRouter(ctx, models),
    quizzesRouter(ctx, models),
    bankRouter(ctx, models),
    generationsRouter(ctx, models),
    declaredRouter(ctx, scormExportRoutes(models, uploads)),
    declaredRouter(ctx, versionRoutes(models)),
    declaredRouter(ctx, scormRoutes(ctx, models, scormFiles, PackageReceiver.forUploadDir(ctx.config.UPLOAD_DIR))),
    subjectRouter(ctx.config.INTERNAL_TOKEN, contentSubjects(models, uploads)),
  ];
}

/** How long a replica waits for another one moving local uploads into the store (a shared volume). */
const MIGRATION_WAIT_MS = 60_000;

async function moveLocalUploads(ctx: ServiceContext<ContentConfig>, models: ContentModels, store: UploadStore): Promise<void> {
  const key = `${ctx.config.QUEUE_PREFIX}:content:uploads:migration`;
  const deadline = Date.now() + MIGRATION_WAIT_MS;
  while (
    (await withRedisLock(ctx.redis, key, MIGRATION_WAIT_MS, () => migrateLocalUploads(models, store, ctx.logger))) === null
  ) {
    if (Date.now() > deadline) {
      ctx.logger.warn('local uploads not moved: another replica held the lock too long; the next start tries again');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Every replica runs this timer; the Redis lock (held for one interval) lets one of them sweep per interval. */
function startOrphanSweep(ctx: ServiceContext<ContentConfig>, models: ContentModels, store: UploadStore): () => void {
  const intervalMs = ctx.config.UPLOAD_SWEEP_INTERVAL_SECONDS * 1000;
  const graceMs = ctx.config.UPLOAD_ORPHAN_GRACE_SECONDS * 1000;
  const key = `${ctx.config.QUEUE_PREFIX}:content:uploads:sweep`;
  const scormFiles = new ScormFiles(objectStores(ctx).packages);
  const cursor = redisCursor(ctx.redis, `${key}:cursor`);
  const packagesCursor = redisCursor(ctx.redis, `${key}:packages-cursor`);
  // SCORM packages no lesson names any more go with the same sweep, under the same grace.
  const sweep = () =>
    withRedisLock(ctx.redis, key, intervalMs, async () => [
      ...(await sweepOrphanUploads(models, store, graceMs, Date.now(), cursor)),
      ...(await sweepScormPackages(models, scormFiles, graceMs, Date.now(), packagesCursor)),
    ])
      .then((removed) => {
        if (removed?.length) ctx.logger.info({ removed: removed.length }, 'files no lesson refers to removed');
      })
      .catch((err: unknown) =>
        ctx.logger.warn({ err: (err as Error).message }, 'orphan file sweep failed; the next one retries'),
      );
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Indexes (the unique one on marks in particular) exist before the first request leans on them;
 * scratch files of uploads cut off by an earlier stop are swept, files left on the local disk by
 * earlier versions move into the store, and the course builder's worker starts. Answers the
 * shutdown hook: running generations go back to the queue for another replica.
 */
export async function contentOnStart(ctx: ServiceContext<ContentConfig>): Promise<() => Promise<void>> {
  const models = contentModels(ctx.store);
  const builder = courseBuilderOf(ctx);
  await ensureIndexes([...Object.values(models), builder.jobs.model]);
  const uploads = uploadStoreOf(ctx);
  const swept = await uploads.sweepIncoming();
  if (swept) ctx.logger.info({ swept }, 'unfinished uploads removed');
  await moveLocalUploads(ctx, models, uploads);
  const stopSweep = startOrphanSweep(ctx, models, uploads);
  builder.startWorker();
  return async () => {
    stopSweep();
    await builder.close();
  };
}
