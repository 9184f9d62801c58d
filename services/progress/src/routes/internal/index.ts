import Router from '@koa/router';
import { progressStatsQuerySchema, type ProgressStats } from '@portal/contracts';
import { op, parse, requireInternal, type ServiceContext } from '@portal/service-kit';
import { courseCompletionModel } from '../../models/courseCompletion';

const DAY = 86_400_000;

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));
  const courseCompletions = courseCompletionModel(service.store);

  /**
   * A learner's completed courses, for the dashboard: the course-completion records this service
   * writes when the last lesson of a course is completed, with how many came in the last 30 days
   * and in the 30 before.
   */
  router.get('/stats', async (ctx) => {
    const { userId } = parse(progressStatsQuerySchema, ctx.query);
    const now = Date.now();
    const [completedCourses, last30, prev30] = await Promise.all([
      courseCompletions.countDocuments({ userId }),
      courseCompletions.countDocuments({ userId, completedAt: op({ $gte: new Date(now - 30 * DAY) }) }),
      courseCompletions.countDocuments({
        userId,
        completedAt: op({ $gte: new Date(now - 60 * DAY), $lt: new Date(now - 30 * DAY) }),
      }),
    ]);
    const body: ProgressStats = { completedCourses, change: { last30, prev30 } };
    ctx.body = body;
  });

  return router;
}
