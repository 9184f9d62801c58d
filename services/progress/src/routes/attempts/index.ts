import type Router from '@koa/router';
import {
  declaredRouter,
  idempotent,
  implement,
  requireConsent,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import { detailFor, loadAttempt, quizCard, saveAnswers, startAttempt, submitAttempt } from '../../commands/attempts';
import type { ProgressDeps } from '../../commands/deps';
import * as declared from './declarations';

/**
 * Taking a quiz: its card, start (or resume), save the answers as one goes, submit for grading on the
 * server, read one attempt. The quiz's answers stay here: the browser gets the questions as shown
 * and, after submitting, the results.
 */
export function attemptsRouter(service: ServiceContext, deps: ProgressDeps): Router {
  return declaredRouter(service, attemptRoutes(service, deps));
}

/** The handlers of the attempts' declared routes. */
export function attemptRoutes(service: ServiceContext, deps: ProgressDeps): DeclaredHandler[] {
  const once = idempotent(service);

  return [
    implement(declared.getQuizCard, (ctx, { params }) => quizCard(deps, ctx.state.user, params.quizId)),

    // Consent, then Idempotency-Key, as every create of a learner; the answer is 201 or 200, so the handler sets it.
    implement(declared.startAttempt, (ctx, { body }) =>
      requireConsent(ctx, () =>
        once(ctx, async () => {
          const started = await startAttempt(deps, ctx.state.user, body);
          ctx.status = started.created ? 201 : 200;
          ctx.body = started.body;
        }),
      ),
    ),

    implement(declared.submitAttempt, async (ctx, { params, body }) => {
      await requireConsent(ctx, () => Promise.resolve());
      return submitAttempt(deps, ctx.state.user, params.id, body.answers);
    }),

    implement(declared.getAttempt, async (ctx, { params }) =>
      detailFor(deps, ctx.state.user, await loadAttempt(deps, ctx.state.user, params.id)),
    ),

    implement(declared.saveAttemptAnswers, async (ctx, { params, body }) => {
      // The consent the submit asks for: from the token, no store call.
      await requireConsent(ctx, () => Promise.resolve());
      return saveAnswers(deps, ctx.state.user, params.id, body.answers);
    }),
  ];
}
