import type Router from '@koa/router';
import { GENERATION_MSG } from '@portal/contracts';
import { HttpError, conflict, declaredRouter, implement, notFound, type ServiceContext } from '@portal/service-kit';
import type { Context } from 'koa';
import type { ContentConfig } from '../../config';
import { courseTreeOf, loadVisibleCourse } from '../../commands/courses';
import { recordAudit, type CommandDeps } from '../../commands/deps';
import { applyProposal, loadRegenerationTarget } from '../../generation/apply';
import type { JobDoc } from '../../models/generationJob';
import { presentCourseDetail } from '../../presenters/course';
import { presentJob } from '../../presenters/generationJob';
import { courseBuilderOf, noticeFor } from '../../generation/service';
import type { ContentModels } from '../../models';
import { canUseJob } from '../../policies/generation';
import { assertCourseEditable } from '../../commands/ownership';
import {
  acceptGeneration,
  cancelGeneration,
  generateCourse,
  getGeneration,
  getGenerationConfig,
  regenerateCoursePart,
} from './declarations';

/** The audit event of a new version asked for, by the part of the course it is of. */
const REQUESTED = {
  lesson: 'lesson.newVersionRequested',
  module: 'module.newVersionRequested',
  quiz: 'quiz.newVersionRequested',
} as const;

/**
 * The course builder: a draft course from a topic, an audience and goals, and regeneration of one
 * module, lesson or quiz as a proposal that changes nothing until accepted. Jobs run in the
 * background on whichever content replica takes them from the queue; clients poll
 * GET /api/generations/{id} on any replica (EventSource cannot send the bearer token).
 */
export function generationsRouter(service: ServiceContext<ContentConfig>, models: ContentModels): Router {
  const { audit } = service;
  const builder = courseBuilderOf(service);
  const { jobs, limits, generator } = builder;
  const depsOf = (ctx: Context): CommandDeps => ({ models, audit, actor: ctx.state.user });

  /** Today's budget (when a provider is used) and the rate limit, in that order: a refused request costs no slot. */
  const admit = async (userId: string) => {
    if (generator.source === 'ai') await limits.assertBudgetForRequest(userId);
    await limits.takeGeneration(userId);
  };

  const loadJob = async (ctx: Context, id: string): Promise<JobDoc> => {
    const record = await jobs.find(id);
    if (!record || !canUseJob(ctx.state.user, record)) throw notFound(GENERATION_MSG.jobNotFound);
    return record;
  };

  return declaredRouter(service, [
    implement(getGenerationConfig, () => builder.info),

    implement(generateCourse, async (ctx, { body }) => {
      await admit(ctx.state.user.id);
      const job = await jobs.start(
        { owner: ctx.state.user, source: generator.source, notice: noticeFor(generator.source), courseId: null, targetId: null },
        { kind: 'course', actor: ctx.state.user, request: body },
      );
      return presentJob(job);
    }),

    implement(regenerateCoursePart, async (ctx, { body }) => {
      const target = await loadRegenerationTarget(models, body.target, body.id);
      await assertCourseEditable(models, ctx.state.user, target.courseId);
      await admit(ctx.state.user.id);
      const deps = depsOf(ctx);
      const targetId = body.id;
      const job = await jobs.start(
        {
          owner: ctx.state.user,
          source: generator.source,
          notice: noticeFor(generator.source),
          courseId: target.courseId,
          targetId,
        },
        { kind: 'node', actor: ctx.state.user, target, instructions: body.instructions },
      );
      recordAudit(deps, {
        code: REQUESTED[body.target],
        data: { title: target.node.title, source: generator.source, courseId: target.courseId },
        entityId: targetId,
      });
      return presentJob(job);
    }),

    implement(getGeneration, async (ctx, { params }) => presentJob(await loadJob(ctx, params.id))),

    /** Running: cancel (nothing kept). With a proposal: reject it (the node stays as it was). */
    implement(cancelGeneration, async (ctx, { params }) => {
      const record = await loadJob(ctx, params.id);
      if (record.status === 'running') return presentJob(await jobs.cancel(record));
      if (await jobs.takeProposal(record)) return presentJob({ ...record, proposal: null, hasProposal: false });
      throw conflict(GENERATION_MSG.alreadyFinished);
    }),

    implement(acceptGeneration, async (ctx, { params }) => {
      const record = await loadJob(ctx, params.id);
      const { proposal, nodeVersion: version, targetId } = record;
      if (!proposal || !version || !targetId) throw conflict(GENERATION_MSG.notAProposal);
      // Rights may have changed since the proposal was asked for (a co-author removed).
      if (record.courseId) await assertCourseEditable(models, ctx.state.user, record.courseId);
      // Taken out first (one conditional update), so a second accept on any replica cannot apply it twice.
      if (!(await jobs.takeProposal(record))) throw conflict(GENERATION_MSG.notAProposal);
      let courseId: Awaited<ReturnType<typeof applyProposal>>;
      try {
        courseId = await applyProposal(depsOf(ctx), targetId, proposal, version);
      } catch (err) {
        // A stale proposal can never apply; anything else (the store was away) may be tried again.
        if (!(err instanceof HttpError && err.statusCode === 409)) await jobs.restoreProposal(record);
        throw err;
      }
      const course = await loadVisibleCourse(models, ctx.state.user, String(courseId));
      return presentCourseDetail(course, await courseTreeOf(models, ctx.state.user, course));
    }),
  ]);
}
