import type Router from '@koa/router';
import { CONTENT_MSG, TOTAL_COUNT_HEADER } from '@portal/contracts';
import {
  Upstreams,
  declaredRouter,
  implement,
  requireConsent,
  type DeclaredHandler,
  type Principal,
  type ServiceContext,
} from '@portal/service-kit';
import type { Context } from 'koa';
import { listCourses, markedCourses, type CoursePage } from '../../commands/courseLists';
import {
  cardFactsOf,
  copyCourse,
  courseTreeOf,
  createCourse,
  deleteCourse,
  loadVisibleCourse,
  markLearnerActivity,
  updateCourse,
} from '../../commands/courses';
import { catalogueCache } from '../../commands/catalogueCache';
import { sendKeptJson } from '../sendKept';
import { keptVisibleCourse } from '../../commands/keptCourses';
import { CourseDetailCache, courseOutlineCacheOf, type CoursePageCache } from '../../commands/courseDetailCache';
import { readCourseId } from '../../commands/ids';
import { addMark, marksOf, removeMark } from '../../commands/marks';
import type { ContentModels } from '../../models';
import type { CourseDoc } from '../../models/course';
import type { MarkKind } from '../../models/courseMark';
import { canAuthor } from '../../policies/content';
import { presentCourseCards, presentCourseDetail } from '../../presenters/course';
import { authUserDirectory } from '../../clients/users';
import { addCoAuthor, courseAuthors, removeCoAuthor } from '../../commands/coAuthors';
import * as declared from './declarations';

/** /api/courses: the list, one course with its structure, authoring, and each person's favourites and starts. */
export function coursesRouter(service: ServiceContext, models: ContentModels): Router {
  return declaredRouter(service, courseRoutes(service, models));
}

/** The courses' handlers beside their declarations (`declarations.ts`), in the order Koa tries them. */
export function courseRoutes(service: ServiceContext, models: ContentModels): DeclaredHandler[] {
  const { audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });
  const detailCache = new CourseDetailCache(models);
  const outlineCache = courseOutlineCacheOf(models);
  const catalogue = catalogueCache(models.courses.db);
  const directory = authUserDirectory(new Upstreams(service.config.AUTH_URL), service.config.INTERNAL_TOKEN);

  /**
   * One course as a cached page (the whole course, or its outline): the course document (its
   * updatedAt is the page's key, see courseDetailCache) and the person's marks, each kept under its
   * own version (keptCourses, marks); a client holding the page's tag gets 304 without anything
   * being built. The handler writes the answer itself (nothing returned).
   */
  const answerPage = (cache: CoursePageCache) => async (ctx: Context, courseId: string) => {
    const user: Principal = ctx.state.user;
    const id = readCourseId(courseId);
    const [course, marks] = await Promise.all([keptVisibleCourse(models, user, courseId), marksOf(models, user.id, [id])]);
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

  const cards = async (ctx: Context, courses: CourseDoc[]) =>
    presentCourseCards(ctx.state.user, courses, await cardFactsOf(models, ctx.state.user, courses));
  const card = async (ctx: Context, course: CourseDoc) => (await cards(ctx, [course]))[0];
  const detail = async (ctx: Context, course: CourseDoc) =>
    presentCourseDetail(course, await courseTreeOf(models, ctx.state.user, course));

  /** The spec's answer is the list itself: one page of it as an array, the total in a header. */
  const presentPage = async (ctx: Context, { courses, total }: CoursePage) => {
    ctx.set(TOTAL_COUNT_HEADER, String(total));
    return cards(ctx, courses);
  };

  const mark = (kind: MarkKind, add: boolean) => async (ctx: Context, courseId: string) => {
    const course = await loadVisibleCourse(models, ctx.state.user, courseId);
    // A learner starting a course is progress in it: from then on a curator's delete archives it.
    if (add && kind === 'started' && !canAuthor(ctx.state.user)) await markLearnerActivity(models, String(course._id));
    if (add) await addMark(depsOf(ctx), course, kind);
    else await removeMark(depsOf(ctx), course, kind);
    return card(ctx, course);
  };

  return [
    implement(declared.listCourses, async (ctx, { query }) =>
      presentPage(ctx, await listCourses(models, ctx.state.user, query, catalogue)),
    ),
    implement(declared.createCourse, async (ctx, { body }) => {
      const course = await createCourse(depsOf(ctx), body);
      return detail(ctx, course);
    }),
    implement(declared.listFavoriteCourses, async (ctx, { query }) =>
      presentPage(ctx, await markedCourses(models, ctx.state.user, 'favorite', query)),
    ),
    implement(declared.listStartedCourses, async (ctx, { query }) =>
      presentPage(ctx, await markedCourses(models, ctx.state.user, 'started', query)),
    ),
    implement(declared.getCourse, (ctx, { params }) => answerPage(detailCache)(ctx, params.id)),
    implement(declared.updateCourse, async (ctx, { params, body, expected }) => {
      const course = await updateCourse(depsOf(ctx), params.id, body, expected);
      // The card, not the whole course: the editor autosaves this and only checks the id.
      return card(ctx, course);
    }),
    implement(declared.deleteCourse, async (ctx, { params }) => {
      const { course, archived } = await deleteCourse(depsOf(ctx), params.id);
      if (!archived) {
        ctx.status = 204;
        return undefined;
      }
      // Not deleted: learners worked in it. The client says so instead of removing the card silently.
      return { archived: true as const, message: CONTENT_MSG.courseArchivedInstead, course: await card(ctx, course) };
    }),
    implement(declared.getCourseOutline, (ctx, { params }) => answerPage(outlineCache)(ctx, params.id)),
    implement(declared.copyCourse, async (ctx, { params }) => {
      const copy = await copyCourse(depsOf(ctx), params.id);
      return detail(ctx, copy);
    }),
    implement(declared.listCourseAuthors, async (ctx, { params }) =>
      courseAuthors(directory, await loadVisibleCourse(models, ctx.state.user, params.id)),
    ),
    implement(declared.addCourseCoAuthor, async (ctx, { params, body }) =>
      courseAuthors(directory, await addCoAuthor(depsOf(ctx), directory, params.id, body)),
    ),
    implement(declared.removeCourseCoAuthor, async (ctx, { params }) =>
      courseAuthors(directory, await removeCoAuthor(depsOf(ctx), params.id, params.userId)),
    ),
    implement(declared.addFavoriteCourse, (ctx, { params }) => mark('favorite', true)(ctx, params.id)),
    implement(declared.removeFavoriteCourse, (ctx, { params }) => mark('favorite', false)(ctx, params.id)),
    implement(declared.markCourseStarted, async (ctx, { params }) => {
      // Starting a course is learning: it needs the consent to the processing of personal data (the kit's
      // middleware, as a declaration names none; from the token, no store call).
      await requireConsent(ctx, () => Promise.resolve());
      return mark('started', true)(ctx, params.id);
    }),
  ];
}
