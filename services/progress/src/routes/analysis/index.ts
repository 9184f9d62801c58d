import Router from '@koa/router';
import { RESULTS_ALL_ROLES, entityIdField } from '@portal/contracts';
import { parse, requireRole, type ServiceContext } from '@portal/service-kit';
import { analyseQuizAttempts } from '../../commands/analysis';
import type { ProgressDeps } from '../../commands/deps';

/** «Анализ вопросов»: per quiz, for ADMIN and the curators of its course (the command asks content who they are). */
export function analysisRouter(service: ServiceContext, deps: ProgressDeps): Router {
  const router = new Router({ prefix: '/api/results/analysis' });

  router.get('/:quizId', service.authenticate, requireRole(...RESULTS_ALL_ROLES), async (ctx) => {
    const quizId = parse(entityIdField('quizId'), ctx.params.quizId);
    ctx.body = await analyseQuizAttempts(deps, ctx.state.user, quizId);
  });

  return router;
}
