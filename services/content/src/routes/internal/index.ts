import Router from '@koa/router';
import type { ContentStats } from '@portal/contracts';
import { op, requireInternal, type ServiceContext } from '@portal/service-kit';
import { internalQuiz } from '../../commands/quizzes';
import type { ContentModels } from '../../models';

const DAY = 86_400_000;

/** Routes for other services only; the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /** For the dashboard: all courses and published ones, with how many arrived in the last 30 days and the 30 before. */
  router.get('/stats', async (ctx) => {
    const now = Date.now();
    const last30 = op({ $gte: new Date(now - 30 * DAY) });
    const prev30 = op({ $gte: new Date(now - 60 * DAY), $lt: new Date(now - 30 * DAY) });
    const { courses } = models;
    const [totalCourses, activeCourses, totalLast, totalPrev, activeLast, activePrev] = await Promise.all([
      courses.countDocuments({}),
      courses.countDocuments({ status: 'published' }),
      courses.countDocuments({ createdAt: last30 }),
      courses.countDocuments({ createdAt: prev30 }),
      courses.countDocuments({ status: 'published', publishedAt: last30 }),
      courses.countDocuments({ status: 'published', publishedAt: prev30 }),
    ]);
    const body: ContentStats = {
      totalCourses,
      activeCourses,
      change: {
        totalCourses: { last30: totalLast, prev30: totalPrev },
        activeCourses: { last30: activeLast, prev30: activePrev },
      },
    };
    ctx.body = body;
  });

  /**
   * For the progress service: the whole quiz, answers included, and the lesson holding it (the one
   * named by ?lessonId= when it does hold it, otherwise the first) with its course.
   */
  router.get('/quizzes/:id', async (ctx) => {
    const lessonId = typeof ctx.query.lessonId === 'string' ? ctx.query.lessonId : undefined;
    ctx.body = await internalQuiz(models, ctx.params.id, lessonId);
  });

  return router;
}
