import Router from '@koa/router';
import { bankListQuerySchema, bankQuestionInputSchema } from '@portal/contracts';
import { parse, takeExpectedVersion, versionTag, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import { createBankQuestion, deleteBankQuestion, listBank, loadBankQuestion, updateBankQuestion } from '../../commands/bank';
import { readCourseId } from '../../commands/ids';
import { assertCourseReadableAsAuthor } from '../../commands/ownership';
import type { ContentModels } from '../../models';
import { authorizeAuthoring } from '../../policies/content';
import { presentBankQuestion } from '../../presenters/quiz';

/**
 * A course's question bank: those who read the course as its authors (its owner, co-authors, ADMIN)
 * read it; those who may change the course write it. Other curators and learners never see it
 *: drawn questions reach a learner only through an attempt, without answers.
 */
export function bankRouter(service: ServiceContext, models: ContentModels): Router {
  const router = new Router({ prefix: '/api/courses/:courseId/bank' });
  const { authenticate, audit } = service;
  const depsOf = (ctx: Context) => ({ models, audit, actor: ctx.state.user });

  router.get('/', authenticate, authorizeAuthoring, async (ctx) => {
    await assertCourseReadableAsAuthor(models, ctx.state.user, readCourseId(ctx.params.courseId));
    ctx.body = await listBank(models, ctx.params.courseId, parse(bankListQuerySchema, ctx.query));
  });

  router.post('/', authenticate, authorizeAuthoring, async (ctx) => {
    const input = parse(bankQuestionInputSchema, ctx.request.body);
    const doc = await createBankQuestion(depsOf(ctx), ctx.params.courseId, input);
    ctx.status = 201;
    ctx.set('ETag', versionTag(doc.version ?? 0));
    ctx.body = presentBankQuestion(doc);
  });

  router.get('/:questionId', authenticate, authorizeAuthoring, async (ctx) => {
    await assertCourseReadableAsAuthor(models, ctx.state.user, readCourseId(ctx.params.courseId));
    const question = presentBankQuestion(await loadBankQuestion(models, ctx.params.courseId, ctx.params.questionId));
    ctx.set('ETag', versionTag(question.version));
    ctx.body = question;
  });

  router.put('/:questionId', authenticate, authorizeAuthoring, async (ctx) => {
    const expected = takeExpectedVersion(ctx);
    const input = parse(bankQuestionInputSchema, ctx.request.body);
    const doc = await updateBankQuestion(depsOf(ctx), ctx.params.courseId, ctx.params.questionId, input, expected);
    ctx.set('ETag', versionTag(doc.version ?? 0));
    ctx.body = presentBankQuestion(doc);
  });

  router.delete('/:questionId', authenticate, authorizeAuthoring, async (ctx) => {
    await deleteBankQuestion(depsOf(ctx), ctx.params.courseId, ctx.params.questionId);
    ctx.status = 204;
  });

  return router;
}
