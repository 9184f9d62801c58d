import Router from '@koa/router';
import type { Model } from 'mongoose';
import type { ServiceContext } from '@portal/service-kit';
import type { CompletionDoc } from '../models/completion';

export function progressRouter(service: ServiceContext, completions: Model<CompletionDoc>): Router {
  const router = new Router({ prefix: '/api/progress' });

  /** The signed-in person's own completed lessons, grouped by course. */
  router.get('/my', service.authenticate, async (ctx) => {
    const rows = await completions.find({ userId: ctx.state.user.id }).sort({ completedAt: -1 }).lean<CompletionDoc[]>();
    const byCourse = new Map<string, string[]>();
    for (const row of rows) byCourse.set(row.courseId, [...(byCourse.get(row.courseId) ?? []), row.lessonId]);
    ctx.body = [...byCourse].map(([courseId, lessonIds]) => ({ courseId, completedLessons: lessonIds }));
  });

  return router;
}
