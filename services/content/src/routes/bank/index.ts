import type Router from '@koa/router';
import { declaredRouter, implement, versionTag, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import * as bank from '../../commands/bank';
import { readCourseId } from '../../commands/ids';
import { assertCourseReadableAsAuthor } from '../../commands/ownership';
import type { ContentModels } from '../../models';
import { presentBankQuestion } from '../../presenters/quiz';
import { createBankQuestion, deleteBankQuestion, getBankQuestion, listBankQuestions, updateBankQuestion } from './declarations';

/**
 * A course's question bank: those who read the course as its authors (its owner, co-authors, ADMIN)
 * read it; those who may change the course write it. Other curators and learners never see it:
 * drawn questions reach a learner only through an attempt, without answers.
 */
export function bankRouter(service: ServiceContext, models: ContentModels): Router {
  const depsOf = (ctx: Context) => ({ models, audit: service.audit, actor: ctx.state.user });

  return declaredRouter(service, [
    implement(listBankQuestions, async (ctx, { params, query }) => {
      await assertCourseReadableAsAuthor(models, ctx.state.user, readCourseId(params.courseId));
      return bank.listBank(models, params.courseId, query);
    }),
    implement(createBankQuestion, async (ctx, { params, body }) => {
      const doc = await bank.createBankQuestion(depsOf(ctx), params.courseId, body);
      ctx.set('ETag', versionTag(doc.version ?? 0));
      return presentBankQuestion(doc);
    }),
    implement(getBankQuestion, async (ctx, { params }) => {
      await assertCourseReadableAsAuthor(models, ctx.state.user, readCourseId(params.courseId));
      const question = presentBankQuestion(await bank.loadBankQuestion(models, params.courseId, params.questionId));
      ctx.set('ETag', versionTag(question.version));
      return question;
    }),
    implement(updateBankQuestion, async (ctx, { params, body, expected }) => {
      const doc = await bank.updateBankQuestion(depsOf(ctx), params.courseId, params.questionId, body, expected);
      ctx.set('ETag', versionTag(doc.version ?? 0));
      return presentBankQuestion(doc);
    }),
    implement(deleteBankQuestion, async (ctx, { params }) => {
      await bank.deleteBankQuestion(depsOf(ctx), params.courseId, params.questionId);
    }),
  ]);
}
