import type Router from '@koa/router';
import { ensureIndexes, type ServiceContext } from '@portal/service-kit';
import type { ContentConfig } from './config';
import { contentModels } from './models';
import { blocksRouter } from './routes/blocks';
import { coursesRouter } from './routes/courses';
import { generationsRouter } from './routes/generations';
import { internalRouter } from './routes/internal';
import { quizzesRouter } from './routes/quizzes';
import { uploadsRouter } from './routes/uploads';
import { courseBuilderOf } from './generation/service';
import { UploadStore } from './uploads/store';

const uploadStoreOf = (config: ContentConfig) =>
  new UploadStore({ dir: config.UPLOAD_DIR, maxBytes: config.UPLOAD_MAX_BYTES, maxFiles: config.UPLOAD_MAX_FILES });

export function contentRouters(ctx: ServiceContext<ContentConfig>): Router[] {
  const models = contentModels(ctx.store);
  const uploads = uploadStoreOf(ctx.config);
  return [
    coursesRouter(ctx, models),
    blocksRouter(ctx, models),
    uploadsRouter(ctx, models, uploads),
    internalRouter(ctx, models),
    quizzesRouter(ctx, models),
    generationsRouter(ctx, models),
  ];
}

/**
 * Indexes (the unique one on marks in particular) exist before the first request leans on them,
 * and scratch files of uploads cut off by an earlier stop are swept. Answers the shutdown hook:
 * running generations are cancelled and take back what they wrote before the store closes.
 */
export async function contentOnStart(ctx: ServiceContext<ContentConfig>): Promise<() => Promise<void>> {
  const models = contentModels(ctx.store);
  const builder = courseBuilderOf(ctx);
  await ensureIndexes([...Object.values(models), builder.jobs.model]);
  const swept = await uploadStoreOf(ctx.config).sweepIncoming();
  if (swept) ctx.logger.info({ swept }, 'unfinished uploads removed');
  builder.startWorker();
  return () => builder.close();
}
