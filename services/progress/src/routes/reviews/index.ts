import type Router from '@koa/router';
import { declaredRouter, implement, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import type { ProgressDeps } from '../../commands/deps';
import { gradeAnswer, listReviews } from '../../commands/reviews';
import * as declared from './declarations';

/**
 * «Проверка ответов»: long_answer and file_upload answers waiting for a person, graded by an ADMIN
 * or a curator of the attempt's course (its owner or a co-author, as the content service decides).
 */
export function reviewRoutes(deps: ProgressDeps): DeclaredHandler[] {
  return [
    implement(declared.listReviews, (ctx, { query }) => listReviews(deps, ctx.state.user, query)),
    implement(declared.gradeAnswer, (ctx, { params, body }) =>
      gradeAnswer(deps, ctx.state.user, params.attemptId, params.questionId, { score: body.score, comment: body.comment }),
    ),
  ];
}

export const reviewsRouter = (service: ServiceContext, deps: ProgressDeps): Router => declaredRouter(service, reviewRoutes(deps));
