import type Router from '@koa/router';
import { declaredRouter, implement, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import { analyseQuizAttempts } from '../../commands/analysis';
import type { ProgressDeps } from '../../commands/deps';
import * as declared from './declarations';

/** «Анализ вопросов»: per quiz, for ADMIN and the curators of its course (the command asks content who they are). */
export function analysisRoutes(deps: ProgressDeps): DeclaredHandler[] {
  return [implement(declared.analyzeQuiz, (ctx, { params }) => analyseQuizAttempts(deps, ctx.state.user, params.quizId))];
}

export const analysisRouter = (service: ServiceContext, deps: ProgressDeps): Router =>
  declaredRouter(service, analysisRoutes(deps));
