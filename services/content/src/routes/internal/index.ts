import Router from '@koa/router';
import { contentStatsQuerySchema, editableCoursesQuerySchema } from '@portal/contracts';
import { parse, requireInternal, type ServiceContext } from '@portal/service-kit';
import { activityScopeOf } from '../../commands/activityScope';
import { editableCourseIds, markLearnerActivity } from '../../commands/courses';
import { internalQuiz } from '../../commands/quizzes';
import type { ContentModels } from '../../models';
import { lessonBinding } from '../../scorm/packages';
import { courseStats } from './stats';

/** Routes for other services only; the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /** For the dashboard: the course figures, counting what the reader (given as data) can see. */
  router.get('/stats', async (ctx) => {
    ctx.body = await courseStats(models, parse(contentStatsQuerySchema, ctx.query));
  });

  /**
   * For the progress service: the whole quiz, answers included, and the lesson holding it (the one
   * named by ?lessonId= when it does hold it, otherwise the first) with its course.
   */
  router.get('/quizzes/:id', async (ctx) => {
    const lessonId = typeof ctx.query.lessonId === 'string' ? ctx.query.lessonId : undefined;
    // ?drawSeed=: an attempt's seed; the quiz's questions then include that attempt's draw from the bank.
    const drawSeed =
      typeof ctx.query.drawSeed === 'string' && /^[0-9a-f]{8,64}$/.test(ctx.query.drawSeed) ? ctx.query.drawSeed : undefined;
    // ?pin=1: an attempt starts on it, so the version it is read from is kept by every pruning.
    ctx.body = await internalQuiz(models, ctx.params.id, lessonId, drawSeed, ctx.query.pin === '1');
  });

  /**
   * For the progress service: the ids of the courses a CURATOR (given as data) may change, as the
   * content service decides ownership: the review queue and item analysis are theirs.
   */
  router.get('/courses/editable', async (ctx) => {
    ctx.body = { courseIds: await editableCourseIds(models, parse(editableCoursesQuerySchema, ctx.query).userId) };
  });

  /** For the gateway's dashboard: the ids a curator's activity feed may show records about. */
  router.get('/courses/activity-scope', async (ctx) => {
    ctx.body = await activityScopeOf(models, parse(editableCoursesQuerySchema, ctx.query).userId);
  });

  /** For the progress service: a learner started an attempt or recorded progress in this course. */
  router.post('/courses/:id/learner-activity', async (ctx) => {
    const next = await markLearnerActivity(models, ctx.params.id);
    ctx.status = 204;
    // The course's first version (docs/decisions/093) is taken after the answer; if this process stops
    // first, the next learner's beginning takes it.
    if (next) {
      void next
        .firstVersion()
        .catch((err: unknown) =>
          service.logger.warn({ courseId: ctx.params.id, err: (err as Error).message }, 'first version not taken'),
        );
    }
  });

  /** For the progress service: the SCO a lesson plays and whether a new attempt may follow a completed one; 404 without one. */
  router.get('/scorm/lessons/:lessonId', async (ctx) => {
    ctx.body = await lessonBinding(models, ctx.params.lessonId);
  });

  return router;
}
