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
import { authorizeAuthoring, canSeeAnswers } from '../../policies/content';
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
    ctx.body = await listQuizzes(models, query);
  });

  router.get('/:id', authenticate, async (ctx) => {
    const user = ctx.state.user;
    if (canSeeAnswers(user)) {
      const quiz = presentQuiz(await loadQuiz(models, ctx.params.id));
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
