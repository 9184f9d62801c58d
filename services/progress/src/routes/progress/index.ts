import Router from '@koa/router';
import {
  STUDY_ROLES,
  entityIdField,
  lessonCompleteSchema,
  type LessonCompletion,
  type MyCourseProgress,
} from '@portal/contracts';
import { idempotent, parse, requireConsent, requireRole, type ServiceContext } from '@portal/service-kit';
import { completeLesson, courseProgressFor } from '../../commands/completions';
import type { ProgressDeps } from '../../commands/deps';
import { presentCompletion } from '../../presenters/progress';

const courseIdParam = entityIdField('courseId');
const lessonIdParam = entityIdField('lessonId');

/** Lesson completion and course progress (/progress/*): a learner's own, always. */
export function progressRouter(service: ServiceContext, deps: ProgressDeps): Router {
  const router = new Router({ prefix: '/api/progress' });
  const { models, content } = deps;
  router.use(service.authenticate, requireRole(...STUDY_ROLES));

  /** Completing twice changes nothing (201 the first time, 200 after). */
  router.post('/lesson/:lessonId/complete', requireConsent, idempotent(service), async (ctx) => {
    const lessonId = parse(lessonIdParam, ctx.params.lessonId);
    const { courseId } = parse(lessonCompleteSchema, ctx.request.body);
    const course = await content.getOutline(courseId, ctx.get('authorization'));
    const result = await completeLesson(deps, ctx.state.user, course, lessonId);
    ctx.status = result.created ? 201 : 200;
    ctx.body = result;
  });

  router.get('/course/:courseId', async (ctx) => {
    const courseId = parse(courseIdParam, ctx.params.courseId);
    const course = await content.getOutline(courseId, ctx.get('authorization'));
    ctx.body = await courseProgressFor(models, ctx.state.user.id, course);
  });

  /** The completed-lesson records of one course (spec: a list with lessonId), oldest first. */
  router.get('/course/:courseId/lessons', async (ctx) => {
    const courseId = parse(courseIdParam, ctx.params.courseId);
    const rows = await models.completions.find({ userId: ctx.state.user.id, courseId }).sort({ completedAt: 1 }).lean();
    const body: LessonCompletion[] = rows.map(presentCompletion);
    ctx.body = body;
  });

  /** The signed-in person's own completed lessons, grouped by course, most recent first. */
  router.get('/my', async (ctx) => {
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
    ctx.body = [...byCourse.values()];
  });

  return router;
}
