import Router from '@koa/router';
import {
  RESULTS_ALL_ROLES,
  entityIdField,
  reviewInputSchema,
  reviewQuestionIdParam,
  reviewsQuerySchema,
} from '@portal/contracts';
import { parse, requireRole, type ServiceContext } from '@portal/service-kit';
import type { ProgressDeps } from '../../commands/deps';
import { gradeAnswer, listReviews } from '../../commands/reviews';

/**
 * «Проверка ответов»: long_answer and file_upload answers waiting for a person, graded by an ADMIN
 * or a curator of the attempt's course (its owner or a co-author, as the content service decides).
 */
export function reviewsRouter(service: ServiceContext, deps: ProgressDeps): Router {
  const router = new Router({ prefix: '/api/reviews' });
  const reviewer = [service.authenticate, requireRole(...RESULTS_ALL_ROLES)] as const;

  router.get('/', ...reviewer, async (ctx) => {
    ctx.body = await listReviews(deps, ctx.state.user, parse(reviewsQuerySchema, ctx.query));
  });

  router.post('/:attemptId/:questionId', ...reviewer, async (ctx) => {
    const attemptId = parse(entityIdField('attemptId'), ctx.params.attemptId);
    const questionId = parse(reviewQuestionIdParam, ctx.params.questionId);
    const input = parse(reviewInputSchema, ctx.request.body);
    const review = { score: input.score, comment: input.comment ?? '' };
    ctx.body = await gradeAnswer(deps, ctx.state.user, attemptId, questionId, review, ctx.get('authorization'));
  });

  return router;
}
