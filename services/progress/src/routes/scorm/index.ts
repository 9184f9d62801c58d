import type { Context } from 'koa';
import { pageOffset, type Page, type ScormAttemptSummary } from '@portal/contracts';
import { implement, requireConsent, type DeclaredHandler } from '@portal/service-kit';
import type { PeopleClient } from '../../clients/people';
import type { ProgressDeps } from '../../commands/deps';
import type { ScormAttemptDoc } from '../../models/scormAttempt';
import { resultsScope } from '../../policies/attempts';
import { commitScormAttempt, loadScormLesson, openScormAttempt, ownScormAttempt } from '../../scorm/attempts';
import { presentScormAttemptState, presentScormAttemptSummary } from '../../scorm/present';
import { commitScormAttempt as commitRoute, listScormAttempts, openScormAttempt as openRoute } from './declarations';

/** Studying needs the consent to the processing of personal data, as every other study route. */
const consented = (ctx: Context) => requireConsent(ctx, () => Promise.resolve());

/** What scorm-again's responseHandler takes for success, stored or already stored. */
const COMMITTED = { result: true, errorCode: 0 } as const;

/** The SCORM attempts: the player opens and commits, curators and learners read them. */
export function scormRoutes(deps: ProgressDeps & { people: PeopleClient }): DeclaredHandler[] {
  const { scormAttempts } = deps.models;

  /** People's names as the auth service has them now; the name stored at the start for anyone it no longer knows. */
  async function namesOf(rows: ScormAttemptDoc[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((r) => r.userId))];
    const people = await deps.people.users(ids);
    return new Map(people.map((p) => [p.id, p.fullName]));
  }

  return [
    implement(openRoute, async (ctx, { body }) => {
      await consented(ctx);
      const lesson = await loadScormLesson(deps, body.courseId, body.lessonId, ctx.get('authorization'));
      const attempt = await openScormAttempt(deps, ctx.state.user, lesson, body.fresh);
      return presentScormAttemptState(attempt, lesson.binding.allowNewAttempt);
    }),

    implement(commitRoute, async (ctx, { params, query, body }) => {
      await consented(ctx);
      const attempt = await ownScormAttempt(deps, ctx.state.user, params.id);
      await commitScormAttempt(deps, ctx.state.user, attempt, body, {
        final: query.final === 'true',
        authorization: ctx.get('authorization'),
      });
      return COMMITTED;
    }),

    implement(listScormAttempts, async (ctx, { query }) => {
      const user = ctx.state.user;
      const courses = await deps.content.curatedCourses(user);
      const filter: Record<string, unknown> = { ...resultsScope(user, query.userId, courses) };
      // A curator's own courses narrow by `courseId` already; asking for one more keeps both conditions.
      if (query.courseId) filter.$and = [{ courseId: query.courseId }];
      if (query.lessonId) filter.lessonId = query.lessonId;
      const [rows, total] = await Promise.all([
        scormAttempts
          .find(filter)
          .sort({ updatedAt: -1, _id: -1 })
          .skip(pageOffset(query))
          .limit(query.limit)
          .lean<ScormAttemptDoc[]>(),
        scormAttempts.countDocuments(filter),
      ]);
      const names = await namesOf(rows);
      const page: Page<ScormAttemptSummary> = {
        data: rows.map((r) => presentScormAttemptSummary(r, names.get(r.userId) ?? r.userName)),
        total,
        page: query.page,
        limit: query.limit,
      };
      return page;
    }),
  ];
}
