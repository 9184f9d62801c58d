import Router from '@koa/router';
import type { Model } from 'mongoose';
import { isStaff } from '@portal/contracts';
import type { ServiceContext } from '@portal/service-kit';
import type { CourseDoc } from '../models/course';
import { presentCourseSummary } from '../presenters/course';

export function coursesRouter(service: ServiceContext, courses: Model<CourseDoc>): Router {
  const router = new Router({ prefix: '/api/courses' });

  /** Staff see every course; learners only published ones. */
  router.get('/', service.authenticate, async (ctx) => {
    const filter = isStaff(ctx.state.user.role) ? {} : { status: 'published' as const };
    const rows = await courses.find(filter).sort({ updatedAt: -1 }).limit(500).lean<CourseDoc[]>();
    ctx.body = rows.map(presentCourseSummary);
  });

  return router;
}
