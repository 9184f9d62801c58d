import type Router from '@koa/router';
import { declaredRouter, implement, versionTag, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import * as quizzes from '../../commands/quizzes';
import type { ContentModels } from '../../models';
import { editableCourseIds } from '../../commands/courses';
import { readsQuizAsAuthor } from '../../commands/ownership';
import { presentQuiz, presentQuizForLearner } from '../../presenters/quiz';
import { createQuiz, deleteQuiz, getQuiz, listQuizzes, updateQuiz } from './declarations';

/**
 * /api/quizzes (not in the spec's table: the original kept quizzes in the browser). Authors list,
 * read, write and delete them; anyone else reads, without the answers, a quiz of a lesson they see.
 */
export function quizzesRouter(service: ServiceContext, models: ContentModels): Router {
  const depsOf = (ctx: Context) => ({ models, audit: service.audit, actor: ctx.state.user });

  return declaredRouter(service, [
    implement(listQuizzes, async (ctx, { query }) => {
      const user = ctx.state.user;
      // A curator lists the quizzes of the courses they author and their own of no course.
      const mine = user.role === 'ADMIN' ? null : { userId: user.id, courseIds: await editableCourseIds(models, user.id) };
      return quizzes.listQuizzes(models, query, mine);
    }),
    implement(createQuiz, async (ctx, { body }) => presentQuiz(await quizzes.createQuiz(depsOf(ctx), body))),
    implement(getQuiz, async (ctx, { params }) => {
      const user = ctx.state.user;
      const stored = await quizzes.loadQuiz(models, params.id);
      // Answer keys only to those who may edit the quiz; anyone else reads it as a learner does.
      if (await readsQuizAsAuthor(models, user, stored)) {
        const quiz = presentQuiz(stored);
        ctx.set('ETag', versionTag(quiz.version));
        return quiz;
      }
      const quiz = await quizzes.loadQuizForLearner(models, user, params.id);
      return presentQuizForLearner(presentQuiz(quiz), await quizzes.learnerShuffleSeed(models, quiz));
    }),
    implement(updateQuiz, async (ctx, { params, body, expected }) =>
      presentQuiz(await quizzes.updateQuiz(depsOf(ctx), params.id, body, expected)),
    ),
    implement(deleteQuiz, async (ctx, { params }) => {
      await quizzes.deleteQuiz(depsOf(ctx), params.id);
    }),
  ]);
}
