import Router from '@koa/router';
import {
  CONTENT_MSG,
  contentBlocksOf,
  contentStatsQuerySchema,
  editableCoursesQuerySchema,
  internalAttemptStartSchema,
  internalOutlineQuerySchema,
} from '@portal/contracts';
import { notFound, parse, requireInternal, type Principal, type ServiceContext } from '@portal/service-kit';
import { activityScopeOf } from '../../commands/activityScope';
import { AttemptStarts } from '../../commands/attemptStarts';
import { courseOutlineCacheOf } from '../../commands/courseDetailCache';
import { editableCourseIds, loadVisibleCourse, markLearnerActivity } from '../../commands/courses';
import { keptVisibleCourse } from '../../commands/keptCourses';
import { lessonCacheOf } from '../../commands/lessonCache';
import { internalQuiz } from '../../commands/quizzes';
import type { ContentModels } from '../../models';
import { lessonBinding } from '../../scorm/packages';
import { presentBlock } from '../../presenters/block';
import { sendKeptJson } from '../sendKept';
import { courseStats } from './stats';

/** Routes for other services only; the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));
  const attemptStarts = new AttemptStarts(models);
  const outlines = courseOutlineCacheOf(models);
  const lessons = lessonCacheOf(models);
  const readerOf = (ctx: { query: unknown }): Principal => {
    const query = parse(internalOutlineQuerySchema, ctx.query);
    return { id: query.userId, role: query.role, fullName: '', email: '' };
  };

  /** The course's first version (docs/decisions/093) is taken after the answer: a learner's beginning does not wait for it. */
  const takeFirstVersion = (courseId: string, firstVersion: (() => Promise<void>) | null) => {
    if (!firstVersion) return;
    void firstVersion().catch((err: unknown) =>
      service.logger.warn({ courseId, err: (err as Error).message }, 'first version not taken'),
    );
  };

  /** For the dashboard: the course figures, counting what the reader (given as data) can see. */
  router.get('/stats', async (ctx) => {
    ctx.body = await courseStats(models, parse(contentStatsQuerySchema, ctx.query));
  });

  /**
   * For the progress service: the whole quiz, answers included, and the lesson holding it (the one
   * named by ?lessonId= when it does hold it, otherwise the first) with its course.
   * ?userId=&role=: a person (given as data) who must see the quiz, by the rule of
   * GET /api/quizzes/{id} (its authors always, anyone else only when a lesson they see holds it);
   * 404, as for a quiz that does not exist, when they may not. A quiz's card is then one call.
   */
  router.get('/quizzes/:id', async (ctx) => {
    const lessonId = typeof ctx.query.lessonId === 'string' ? ctx.query.lessonId : undefined;
    // ?drawSeed=: an attempt's seed; the quiz's questions then include that attempt's draw from the bank.
    const drawSeed =
      typeof ctx.query.drawSeed === 'string' && /^[0-9a-f]{8,64}$/.test(ctx.query.drawSeed) ? ctx.query.drawSeed : undefined;
    const reader = ctx.query.userId !== undefined || ctx.query.role !== undefined ? readerOf(ctx) : undefined;
    ctx.body = await internalQuiz(models, ctx.params.id, { lessonId, drawSeed, reader });
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

  /**
   * For the progress service: the course's outline as a person (given as data) reads it, as
   * GET /api/courses/{id}/outline answers them, without their marks (isFavorite, isStarted false).
   */
  router.get('/courses/:id/outline', async (ctx) => {
    const reader = readerOf(ctx);
    const course = await keptVisibleCourse(models, reader, ctx.params.id);
    const flags = { isFavorite: false, isStarted: false };
    await sendKeptJson(
      ctx,
      () => outlines.answer(reader, course, flags),
      () => outlines.answerGzipped(reader, course, flags),
    );
  });

  /**
   * For the progress service: the quiz a lesson of the course holds (its first quiz block's), as a
   * person (given as data) reads the lesson, as GET /api/blocks/{id} answers them; `quizId` null when
   * it holds none, 404 when the lesson is not the course's or the person may not read it.
   */
  router.get('/courses/:id/lessons/:lessonId/quiz', async (ctx) => {
    const reader = readerOf(ctx);
    const course = await loadVisibleCourse(models, reader, ctx.params.id);
    const lesson = await lessons.readableIn(reader, course, ctx.params.lessonId);
    if (!lesson || lesson.type !== 'LESSON') throw notFound(CONTENT_MSG.blockNotFound);
    const quiz = contentBlocksOf(presentBlock(lesson)).find((b) => b.type === 'quiz');
    ctx.body = { quizId: quiz?.type === 'quiz' && typeof quiz.content?.quizId === 'string' ? quiz.content.quizId : null };
  });

  /** For the progress service: a learner started an attempt or recorded progress in this course. */
  router.post('/courses/:id/learner-activity', async (ctx) => {
    const next = await markLearnerActivity(models, ctx.params.id);
    ctx.status = 204;
    // If this process stops before the first version is taken, the next learner's beginning takes it.
    takeFirstVersion(ctx.params.id, next?.firstVersion ?? null);
  });

  /**
   * For the progress service: an attempt's start in one question, the learner given as data. The
   * quiz as the learner takes it (with the attempt's draw, its version pinned), the course and the
   * lesson's outline entry, once the lesson is found in the course, holding the quiz, and the learner
   * may see both (404 with the texts of their own reads otherwise); their first record in the course
   * is noted when asked.
   */
  router.post('/attempt-starts', async (ctx) => {
    const input = parse(internalAttemptStartSchema, ctx.request.body);
    const { answer, firstVersion } = await attemptStarts.start(input);
    ctx.body = answer;
    takeFirstVersion(input.courseId, firstVersion);
  });

  /** For the progress service: the SCO a lesson plays and whether a new attempt may follow a completed one; 404 without one. */
  router.get('/scorm/lessons/:lessonId', async (ctx) => {
    ctx.body = await lessonBinding(models, ctx.params.lessonId);
  });

  return router;
}
