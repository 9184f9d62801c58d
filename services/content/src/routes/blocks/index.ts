import Router from '@koa/router';
import { blockCreateSchema, blockImportSchema, blockReorderSchema, blockUpdateSchema } from '@portal/contracts';
import { parse, writeRoutes, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import { courseBlocks, createBlock, deleteBlock, inReadingOrder, reorderBlocks, updateBlock } from '../../commands/blocks';
import { loadVisibleCourse } from '../../commands/courses';
import { lessonCacheOf } from '../../commands/lessonCache';
import { sendKeptJson } from '../sendKept';
import { copyLesson, importLessons } from '../../commands/lessonCopies';
import type { ContentModels } from '../../models';
import { authorizeAuthoring, canSeeBlock } from '../../policies/content';
import { readStructure } from '../../commands/outline';
import { presentBlock, presentBlockSummary } from '../../presenters/block';
import { publishedViews, readsPublished, versionRecords } from '../../versions/published';

/** /api/blocks: modules and lessons as block records (a module or lesson is a block with its content serialised). */
export function blocksRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/api/blocks' });
  const { authenticate, audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });
  const lessons = lessonCacheOf(models);

  router.get('/course/:courseId', authenticate, async (ctx) => {
    const course = await loadVisibleCourse(models, ctx.state.user, ctx.params.courseId);
    const view = readsPublished(ctx.state.user, course) ? await publishedViews(models).current(course) : null;
    const blocks = view
      ? await versionRecords(models, course._id, view).then((rows) =>
          inReadingOrder(
            rows.filter((b) => b.type === 'MODULE'),
            rows.filter((b) => b.type === 'LESSON'),
          ),
        )
      : await courseBlocks(models, course._id, (b) => canSeeBlock(ctx.state.user, course, b));
    ctx.body = blocks.map(presentBlock);
  });

  router.post('/reorder', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(blockReorderSchema, ctx.request.body);
    const courseId = await reorderBlocks(depsOf(ctx), input);
    // The new order of every module and lesson, without lesson content (a large course is megabytes).
    const { modules, lessons } = await readStructure(models, courseId);
    ctx.body = inReadingOrder(modules, lessons).map(presentBlockSummary);
  });

  /** Not in the spec's table: the editor's 'Import lessons' (copies of lessons of any course, at the end of a module). */
  router.post('/import', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(blockImportSchema, ctx.request.body);
    const lessons = await importLessons(depsOf(ctx), input);
    ctx.status = 201;
    ctx.body = lessons.map(presentBlock);
  });

  /** Not in the spec's table: the lesson editor's copy, '<title> (копия)' right after the original. */
  router.post('/:id/copy', authenticate, authorizeAuthoring, async (ctx) => {
    const lesson = await copyLesson(depsOf(ctx), ctx.params.id);
    ctx.status = 201;
    ctx.body = presentBlock(lesson);
  });

  /** One block, as study mode opens a lesson: kept per course version (commands/lessonCache.ts). */
  router.get('/:id', authenticate, async (ctx) => {
    const answer = await lessons.answer(ctx.state.user, ctx.params.id);
    ctx.set('ETag', answer.etag);
    // Below 1 KB compressing saves nothing.
    await sendKeptJson(ctx, () => answer.json, answer.json.length >= 1024 ? answer.gzipped : null);
  });

  writeRoutes(router, [authenticate, authorizeAuthoring], depsOf, {
    create: { schema: blockCreateSchema, run: createBlock, present: presentBlock },
    // A summary: the autosave that sends this already holds the content, so it is not sent back.
    update: { schema: blockUpdateSchema, run: updateBlock, present: presentBlockSummary },
    remove: deleteBlock,
  });

  return router;
}
