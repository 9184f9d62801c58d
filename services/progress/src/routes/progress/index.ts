import type Router from '@koa/router';
import type { LessonCompletion, MyCourseProgress } from '@portal/contracts';
import {
  declaredRouter,
  idempotent,
  implement,
  requireConsent,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import { completeLesson, courseProgressFor } from '../../commands/completions';
import type { ProgressDeps } from '../../commands/deps';
import { presentCompletion } from '../../presenters/progress';
import * as declared from './declarations';

/** Lesson completion and course progress (/progress/*): a learner's own, always. */
export function progressRoutes(service: ServiceContext, deps: ProgressDeps): DeclaredHandler[] {
  const { models, content } = deps;
  const once = idempotent(service);

  return [
    // Consent, then Idempotency-Key, as every create of a learner; the answer is 201 or 200, so the handler sets it.
    implement(declared.completeLesson, (ctx, { params, body }) =>
      requireConsent(ctx, () =>
        once(ctx, async () => {
          const course = await content.outlineFor(body.courseId, ctx.state.user);
          const result = await completeLesson(deps, ctx.state.user, course, params.lessonId);
          ctx.status = result.created ? 201 : 200;
          ctx.body = result;
        }),
      ),
    ),

    implement(declared.getCourseProgress, async (ctx, { params }) => {
      const course = await content.outlineFor(params.courseId, ctx.state.user);
      return courseProgressFor(models, ctx.state.user.id, course);
    }),

    implement(declared.listCompletedLessons, async (ctx, { params }) => {
      const rows = await models.completions
        .find({ userId: ctx.state.user.id, courseId: params.courseId })
        .sort({ completedAt: 1 })
        .lean();
      const body: LessonCompletion[] = rows.map(presentCompletion);
      return body;
    }),

    implement(declared.listMyProgress, async (ctx) => {
      const userId = ctx.state.user.id;
      const [rows, courses] = await Promise.all([
        models.completions.find({ userId }).sort({ completedAt: -1 }).lean(),
        models.courseCompletions.find({ userId }).lean(),
      ]);
      const finished = new Map(courses.map((c) => [c.courseId, c.completedAt.toISOString()]));
      const byCourse = new Map<string, MyCourseProgress>();
      for (const row of rows) {
        const entry = byCourse.get(row.courseId) ?? {
          courseId: row.courseId,
          completedLessons: [],
          lastCompletedAt: row.completedAt.toISOString(),
          isCompleted: finished.has(row.courseId),
          completedAt: finished.get(row.courseId) ?? null,
        };
        entry.completedLessons.push(row.lessonId);
        byCourse.set(row.courseId, entry);
      }
      return [...byCourse.values()];
    }),
  ];
}

export const progressRouter = (service: ServiceContext, deps: ProgressDeps): Router =>
  declaredRouter(service, progressRoutes(service, deps));
