import Router from '@koa/router';
import {
  CONTENT_MSG,
  TOTAL_COUNT_HEADER,
  coAuthorAddSchema,
  courseCreateSchema,
  courseListQuerySchema,
  courseUpdateSchema,
  markedCoursesQuerySchema,
} from '@portal/contracts';
import { Upstreams, parse, requireConsent, takeExpectedVersion, type Principal, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import {
  copyCourse,
  courseDetail,
  createCourse,
  deleteCourse,
  listCourses,
  loadVisibleCourse,
  markLearnerActivity,
  markedCourses,
  summarize,
  updateCourse,
  type CoursePage,
} from '../../commands/courses';
import { catalogueCache } from '../../commands/catalogueCache';
import { sendKeptJson } from '../sendKept';
import { CourseDetailCache, courseOutlineCacheOf, type CoursePageCache } from '../../commands/courseDetailCache';
import { readCourseId } from '../../commands/ids';
import { addMark, marksOf, removeMark } from '../../commands/marks';
import type { ContentModels } from '../../models';
import type { MarkKind } from '../../models/courseMark';
import { authorizeAuthoring, canAuthor } from '../../policies/content';
import { authUserDirectory } from '../../clients/users';
import { addCoAuthor, courseAuthors, removeCoAuthor } from '../../commands/coAuthors';

/** /api/courses: the list, one course with its structure, authoring, and each person's favourites and starts. */
export function coursesRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/api/courses' });
  const { authenticate, audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });
  const detailCache = new CourseDetailCache(models);
  const outlineCache = courseOutlineCacheOf(models);
  const catalogue = catalogueCache(models.courses.db);
  const directory = authUserDirectory(new Upstreams(service.config.AUTH_URL), service.config.INTERNAL_TOKEN);

  /**
   * One course as a cached page (the whole course, or its outline): the course document is read
   * every time (its updatedAt is the cache key, see courseDetailCache) and the person's marks
   * alongside; a client holding the page's tag gets 304 without anything being built.
   */
  const answerPage = (cache: CoursePageCache) => async (ctx: Context) => {
    const user: Principal = ctx.state.user;
    const id = readCourseId(ctx.params.id);
    const [course, marks] = await Promise.all([loadVisibleCourse(models, user, ctx.params.id), marksOf(models, user.id, [id])]);
    const flags = { isFavorite: marks.favorite.has(String(id)), isStarted: marks.started.has(String(id)) };
    ctx.status = 200;
    ctx.etag = cache.etagOf(course, user, flags);
    // Authorization-dependent: a browser may keep it for this person, a shared cache must not.
    ctx.set('Cache-Control', 'private, no-cache');
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    await sendKeptJson(
      ctx,
      () => cache.answer(user, course, flags),
      () => cache.answerGzipped(user, course, flags),
    );
  };

  /** The spec's answer is the list itself: one page of it as an array, the total in a header. */
  const presentPage = (ctx: Context, { courses, total }: CoursePage) => {
    ctx.set(TOTAL_COUNT_HEADER, String(total));
    ctx.body = courses;
  };

  router.get('/', authenticate, async (ctx) => {
    const query = parse(courseListQuerySchema, ctx.query);
    presentPage(ctx, await listCourses(models, ctx.state.user, query, catalogue));
  });

  router.get('/favorites/my', authenticate, async (ctx) => {
    const paging = parse(markedCoursesQuerySchema, ctx.query);
    presentPage(ctx, await markedCourses(models, ctx.state.user, 'favorite', paging));
  });

  router.get('/started/my', authenticate, async (ctx) => {
    const paging = parse(markedCoursesQuerySchema, ctx.query);
    presentPage(ctx, await markedCourses(models, ctx.state.user, 'started', paging));
  });

  router.get('/:id', authenticate, answerPage(detailCache));

  /** Not in the spec's table: the structure without lesson content, for the editor and study mode. */
  router.get('/:id/outline', authenticate, answerPage(outlineCache));

  router.post('/', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(courseCreateSchema, ctx.request.body);
    const course = await createCourse(depsOf(ctx), input);
    ctx.status = 201;
    ctx.body = await courseDetail(models, ctx.state.user, course);
  });

  router.patch('/:id', authenticate, authorizeAuthoring, async (ctx) => {
    const expected = takeExpectedVersion(ctx);
    const input = parse(courseUpdateSchema, ctx.request.body);
    const course = await updateCourse(depsOf(ctx), ctx.params.id, input, expected);
    // The card, not the whole course: the editor autosaves this and only checks the id.
    const [summary] = await summarize(models, ctx.state.user, [course]);
    ctx.body = summary;
  });

  router.delete('/:id', authenticate, authorizeAuthoring, async (ctx) => {
    const { course, archived } = await deleteCourse(depsOf(ctx), ctx.params.id);
    if (!archived) {
      ctx.status = 204;
      return;
    }
    // Not deleted: learners worked in it. The client says so instead of removing the card silently.
    const [summary] = await summarize(models, ctx.state.user, [course]);
    ctx.body = { archived: true, message: CONTENT_MSG.courseArchivedInstead, course: summary };
  });

  /** Not in the spec's table: the owner and co-authors; the owner or an ADMIN changes the co-authors. */
  router.get('/:id/authors', authenticate, authorizeAuthoring, async (ctx) => {
    const course = await loadVisibleCourse(models, ctx.state.user, ctx.params.id);
    ctx.body = await courseAuthors(directory, course);
  });

  router.post('/:id/authors', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(coAuthorAddSchema, ctx.request.body);
    ctx.body = await courseAuthors(directory, await addCoAuthor(depsOf(ctx), directory, ctx.params.id, input));
  });

  router.delete('/:id/authors/:userId', authenticate, authorizeAuthoring, async (ctx) => {
    ctx.body = await courseAuthors(directory, await removeCoAuthor(depsOf(ctx), ctx.params.id, ctx.params.userId));
  });

  /** Not in the spec's table: the card's copy action (its behaviour is "not shown"). */
  router.post('/:id/copy', authenticate, authorizeAuthoring, async (ctx) => {
    const copy = await copyCourse(depsOf(ctx), ctx.params.id);
    ctx.status = 201;
    ctx.body = await courseDetail(models, ctx.state.user, copy);
  });

  const mark = (kind: MarkKind, add: boolean) => async (ctx: Context) => {
    const course = await loadVisibleCourse(models, ctx.state.user, ctx.params.id);
    // A learner starting a course is progress in it: from then on a curator's delete archives it.
    if (add && kind === 'started' && !canAuthor(ctx.state.user)) await markLearnerActivity(models, String(course._id));
    if (add) await addMark(depsOf(ctx), course, kind);
    else await removeMark(depsOf(ctx), course, kind);
    const [summary] = await summarize(models, ctx.state.user, [course]);
    ctx.body = summary;
  };
  router.post('/:id/favorite', authenticate, mark('favorite', true));
  router.delete('/:id/favorite', authenticate, mark('favorite', false));
  // Starting a course is learning: it needs the consent to the processing of personal data.
  router.post('/:id/start', authenticate, requireConsent, mark('started', true));

  return router;
}
