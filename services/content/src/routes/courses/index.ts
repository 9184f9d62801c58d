import Router from '@koa/router';
import { courseCreateSchema, courseListQuerySchema, courseUpdateSchema } from '@portal/contracts';
import { parse, type Principal, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import {
  copyCourse,
  courseDetail,
  createCourse,
  deleteCourse,
  listCourses,
  loadVisibleCourse,
  markedCourses,
  summarize,
  updateCourse,
} from '../../commands/courses';
import { CourseDetailCache } from '../../commands/courseDetailCache';
import { readCourseId } from '../../commands/ids';
import { addMark, marksOf, removeMark } from '../../commands/marks';
import type { ContentModels } from '../../models';
import type { MarkKind } from '../../models/courseMark';
import { authorizeAuthoring } from '../../policies/content';

/** /api/courses: the list, one course with its structure, authoring, and each person's favourites and starts. */
export function coursesRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/api/courses' });
  const { authenticate, audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });
  const detailCache = new CourseDetailCache(models);

  router.get('/', authenticate, async (ctx) => {
    const query = parse(courseListQuerySchema, ctx.query);
    ctx.body = await listCourses(models, ctx.state.user, query);
  });

  router.get('/favorites/my', authenticate, async (ctx) => {
    ctx.body = await markedCourses(models, ctx.state.user, 'favorite');
  });

  router.get('/started/my', authenticate, async (ctx) => {
    ctx.body = await markedCourses(models, ctx.state.user, 'started');
  });

  router.get('/:id', authenticate, async (ctx) => {
    const user: Principal = ctx.state.user;
    const id = readCourseId(ctx.params.id);
    // The course document is read every time (its updatedAt is the cache key, see courseDetailCache);
    // the person's marks are read alongside rather than after it.
    const [course, marks] = await Promise.all([loadVisibleCourse(models, user, ctx.params.id), marksOf(models, user.id, [id])]);
    const flags = { isFavorite: marks.favorite.has(String(id)), isStarted: marks.started.has(String(id)) };
    ctx.status = 200;
    ctx.etag = CourseDetailCache.etagOf(course, user, flags);
    // Authorization-dependent: a browser may keep it for this person, a shared cache must not.
    ctx.set('Cache-Control', 'private, no-cache');
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = await detailCache.answer(user, course, flags);
    ctx.type = 'application/json';
  });

  router.post('/', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(courseCreateSchema, ctx.request.body);
    const course = await createCourse(depsOf(ctx), input);
    ctx.status = 201;
    ctx.body = await courseDetail(models, ctx.state.user, course);
  });

  router.patch('/:id', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(courseUpdateSchema, ctx.request.body);
    const course = await updateCourse(depsOf(ctx), ctx.params.id, input);
    ctx.body = await courseDetail(models, ctx.state.user, course);
  });

  router.delete('/:id', authenticate, authorizeAuthoring, async (ctx) => {
    await deleteCourse(depsOf(ctx), ctx.params.id);
    ctx.status = 204;
  });

  /** Not in the spec's table: the card's copy action (its behaviour is "not shown"). */
  router.post('/:id/copy', authenticate, authorizeAuthoring, async (ctx) => {
    const copy = await copyCourse(depsOf(ctx), ctx.params.id);
    ctx.status = 201;
    ctx.body = await courseDetail(models, ctx.state.user, copy);
  });

  const mark = (kind: MarkKind, add: boolean) => async (ctx: Context) => {
    const course = await loadVisibleCourse(models, ctx.state.user, ctx.params.id);
    if (add) await addMark(depsOf(ctx), course, kind);
    else await removeMark(depsOf(ctx), course, kind);
    const [summary] = await summarize(models, ctx.state.user, [course]);
    ctx.body = summary;
  };
  router.post('/:id/favorite', authenticate, mark('favorite', true));
  router.delete('/:id/favorite', authenticate, mark('favorite', false));
  router.post('/:id/start', authenticate, mark('started', true));

  return router;
}
