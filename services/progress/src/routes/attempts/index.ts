import Router from '@koa/router';
import { STUDY_ROLES, attemptStartSchema, attemptSubmitSchema, entityIdField } from '@portal/contracts';
import {
  declaredRouter,
  idempotent,
  implement,
  parse,
  requireConsent,
  requireRole,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import { detailFor, loadAttempt, quizCard, saveAnswers, startAttempt, submitAttempt } from '../../commands/attempts';
import type { ProgressDeps } from '../../commands/deps';
import * as declared from './declarations';

const attemptIdParam = entityIdField('id');
const quizIdParam = entityIdField('quizId');

/**
 * Taking a quiz: start (or resume), submit for grading on the server, read one attempt. The quiz's
 * answers stay here: the browser gets the questions as shown and, after submitting, the results.
 */
export function attemptsRouter(service: ServiceContext, deps: ProgressDeps): Router {
  // The declared routes beside those not yet declared, on one router (the app mounts one per folder).
  const router = new Router();
  router.use(attemptRoutes(service, deps).routes());
  router.use(undeclaredRoutes(service, deps).routes());
  return router;
}

/** The declared routes: saving the answers as the learner goes (docs/decisions/095). */
export function attemptRoutes(service: ServiceContext, deps: ProgressDeps): Router {
  const handlers: DeclaredHandler[] = [
    implement(declared.saveAttemptAnswers, async (ctx, { params, body }) => {
      // The consent the submit asks for (the kit's middleware, as a declaration names none): from the token, no store call.
      await requireConsent(ctx, () => Promise.resolve());
      return saveAnswers(deps, ctx.state.user, params.id, body.answers);
    }),
  ];
  return declaredRouter(service, handlers);
}

function undeclaredRoutes(service: ServiceContext, deps: ProgressDeps): Router {
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
