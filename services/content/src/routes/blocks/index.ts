import type Router from '@koa/router';
import { declaredRouter, implement, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import { courseBlocks, createBlock, deleteBlock, inReadingOrder, reorderBlocks, updateBlock } from '../../commands/blocks';
import { loadVisibleCourse } from '../../commands/courses';
import { lessonCacheOf } from '../../commands/lessonCache';
import { sendKeptJson } from '../sendKept';
import { copyLesson, importLessons } from '../../commands/lessonCopies';
import type { ContentModels } from '../../models';
import { canSeeBlock } from '../../policies/content';
import { readStructure } from '../../commands/outline';
import { presentBlock, presentBlockSummary } from '../../presenters/block';
import { publishedViews, readsPublished, versionRecords } from '../../versions/published';
import * as declared from './declarations';

/** /api/blocks: modules and lessons as block records (a module or lesson is a block with its content serialised). */
export function blocksRouter(service: ServiceContext, models: ContentModels): Router {
  return declaredRouter(service, blockRoutes(service, models));
}

/** The blocks' handlers beside their declarations (`declarations.ts`), in the order Koa tries them. */
export function blockRoutes(service: ServiceContext, models: ContentModels): DeclaredHandler[] {
  const { audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });
  const lessons = lessonCacheOf(models);

  return [
    implement(declared.listCourseBlocks, async (ctx, { params }) => {
      const course = await loadVisibleCourse(models, ctx.state.user, params.courseId);
      const view = readsPublished(ctx.state.user, course) ? await publishedViews(models).current(course) : null;
      const blocks = view
        ? await versionRecords(models, course._id, view).then((rows) =>
            inReadingOrder(
              rows.filter((b) => b.type === 'MODULE'),
              rows.filter((b) => b.type === 'LESSON'),
            ),
          )
        : await courseBlocks(models, course._id, (b) => canSeeBlock(ctx.state.user, course, b));
      return blocks.map(presentBlock);
    }),
    implement(declared.createBlock, async (ctx, { body }) => presentBlock(await createBlock(depsOf(ctx), body))),
    implement(declared.reorderBlocks, async (ctx, { body }) => {
      const courseId = await reorderBlocks(depsOf(ctx), body);
      // The new order of every module and lesson, without lesson content (a large course is megabytes).
      const { modules, lessons } = await readStructure(models, courseId);
      return inReadingOrder(modules, lessons).map(presentBlockSummary);
    }),
    implement(declared.importLessons, async (ctx, { body }) => (await importLessons(depsOf(ctx), body)).map(presentBlock)),
    implement(declared.getBlock, async (ctx, { params }) => {
      const answer = await lessons.answer(ctx.state.user, params.id);
      ctx.set('ETag', answer.etag);
      // Below 1 KB compressing saves nothing. The handler writes the answer itself (nothing returned).
      await sendKeptJson(ctx, () => answer.json, answer.json.length >= 1024 ? answer.gzipped : null);
    }),
    implement(declared.updateBlock, async (ctx, { params, body, expected }) =>
      // A summary: the autosave that sends this already holds the content, so it is not sent back.
      presentBlockSummary(await updateBlock(depsOf(ctx), params.id, body, expected)),
    ),
    implement(declared.deleteBlock, async (ctx, { params }) => {
      await deleteBlock(depsOf(ctx), params.id);
    }),
    implement(declared.copyLesson, async (ctx, { params }) => presentBlock(await copyLesson(depsOf(ctx), params.id))),
  ];
}
