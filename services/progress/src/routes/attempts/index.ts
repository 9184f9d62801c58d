import Router from '@koa/router';
import { STUDY_ROLES, attemptStartSchema, attemptSubmitSchema, entityIdField } from '@portal/contracts';
import { idempotent, parse, requireConsent, requireRole, type ServiceContext } from '@portal/service-kit';
import { detailFor, loadAttempt, quizCard, startAttempt, submitAttempt } from '../../commands/attempts';
import type { ProgressDeps } from '../../commands/deps';

const attemptIdParam = entityIdField('id');
const quizIdParam = entityIdField('quizId');

/**
 * Taking a quiz: start (or resume), submit for grading on the server, read one attempt. The quiz's
 * answers stay here: the browser gets the questions as shown and, after submitting, the results.
 */
export function attemptsRouter(service: ServiceContext, deps: ProgressDeps): Router {
  const router = new Router({ prefix: '/api/attempts' });
  const learner = [service.authenticate, requireRole(...STUDY_ROLES)] as const;

  /** The quiz card of a lesson: the quiz without answers, the latest attempt, whether one may start. */
  router.get('/quiz/:quizId', ...learner, async (ctx) => {
    ctx.body = await quizCard(deps, ctx.state.user, ctx.get('authorization'), parse(quizIdParam, ctx.params.quizId));
  });

  router.post('/', ...learner, requireConsent, idempotent(service), async (ctx) => {
    const input = parse(attemptStartSchema, ctx.request.body);
    const { body, created } = await startAttempt(deps, ctx.state.user, input);
    ctx.status = created ? 201 : 200;
    ctx.body = body;
  });

  router.post('/:id/submit', ...learner, requireConsent, async (ctx) => {
    const id = parse(attemptIdParam, ctx.params.id);
    const { answers } = parse(attemptSubmitSchema, ctx.request.body);
    ctx.body = await submitAttempt(deps, ctx.state.user, id, answers);
  });

  /** Attempt details: a learner's own, or anyone's for ADMIN and CURATOR (others' are 404). */
  router.get('/:id', service.authenticate, async (ctx) => {
    const id = parse(attemptIdParam, ctx.params.id);
    ctx.body = await detailFor(deps, ctx.state.user, await loadAttempt(deps, ctx.state.user, id));
  });

  return router;
}
