import Router from '@koa/router';
import { progressStatsQuerySchema, type ProgressStats } from '@portal/contracts';
import { z } from 'zod';
import {
  clock,
  countFigure,
  lowerBoundsOf,
  parse,
  requireInternal,
  type BaseConfig,
  type ServiceContext,
} from '@portal/service-kit';
import type { ProgressConfig } from '../../config';
import { courseCompletionModel } from '../../models/courseCompletion';

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext<BaseConfig & Partial<Pick<ProgressConfig, 'CLOCK_SEAM'>>>): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));
  const courseCompletions = courseCompletionModel(service.store);

  /**
   * A learner's completed courses, for the dashboard: the course-completion records this service
   * writes when the last lesson of a course is completed, with how many came in the last 30 days
   * and in the 30 before (bounded counts).
   */
  router.get('/stats', async (ctx) => {
    const { userId } = parse(progressStatsQuerySchema, ctx.query);
    const completed = await countFigure(courseCompletions, { userId }, 'completedAt');
    const body: ProgressStats = {
      completedCourses: completed.count,
      change: completed.change,
      ...lowerBoundsOf({ completedCourses: completed }),
    };
    ctx.body = body;
  });

  if (service.config.CLOCK_SEAM === 'on') {
    if (service.config.NODE_ENV === 'production')
      throw new Error('Invalid configuration:\n  - CLOCK_SEAM: the clock cannot be moved in production');
    /** Test stacks only: this service's clock now reads `at` (and runs on from it); `reset` goes back to real time. */
    router.post('/clock', async (ctx) => {
      const body = parse(z.union([z.object({ at: z.iso.datetime() }), z.object({ reset: z.literal(true) })]), ctx.request.body);
      if ('at' in body) clock.set(new Date(body.at));
      else clock.reset();
      ctx.body = { now: clock.now().toISOString() };
    });
  }

  return router;
}
