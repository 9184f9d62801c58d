import Router from '@koa/router';
import { quizCreateSchema, quizListQuerySchema, quizUpdateSchema } from '@portal/contracts';
import { parse, versionTag, writeRoutes, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import {
  createQuiz,
  deleteQuiz,
  learnerShuffleSeed,
  listQuizzes,
  loadQuiz,
  loadQuizForLearner,
  updateQuiz,
} from '../../commands/quizzes';
import type { ContentModels } from '../../models';
import { editableCourseIds } from '../../commands/courses';
import { readsQuizAsAuthor } from '../../commands/ownership';
import { authorizeAuthoring } from '../../policies/content';
import { presentQuiz, presentQuizForLearner } from '../../presenters/quiz';

/**
 * /api/quizzes (not in the spec's table: the original kept quizzes in the browser). Authors list,
 * read, write and delete them; anyone else reads, without the answers, a quiz of a lesson they see.
 */
export function quizzesRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/api/quizzes' });
  const { authenticate, audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });

  router.get('/', authenticate, authorizeAuthoring, async (ctx) => {
    const query = parse(quizListQuerySchema, ctx.query);
    const user = ctx.state.user;
    // A curator lists the quizzes of the courses they author and their own of no course.
    const mine = user.role === 'ADMIN' ? null : { userId: user.id, courseIds: await editableCourseIds(models, user.id) };
    ctx.body = await listQuizzes(models, query, mine);
  });

  router.get('/:id', authenticate, async (ctx) => {
    const user = ctx.state.user;
    const stored = await loadQuiz(models, ctx.params.id);
    // Answer keys only to those who may edit the quiz; anyone else reads it as a learner does.
    if (await readsQuizAsAuthor(models, user, stored)) {
      const quiz = presentQuiz(stored);
      ctx.set('ETag', versionTag(quiz.version));
      ctx.body = quiz;
      return;
    }
    const quiz = await loadQuizForLearner(models, user, ctx.params.id);
    ctx.body = presentQuizForLearner(presentQuiz(quiz), await learnerShuffleSeed(models, quiz));
  });

  writeRoutes(router, [authenticate, authorizeAuthoring], depsOf, {
    create: { schema: quizCreateSchema, run: createQuiz, present: presentQuiz },
    update: { schema: quizUpdateSchema, run: updateQuiz, present: presentQuiz },
    remove: deleteQuiz,
  });

  return router;
}
