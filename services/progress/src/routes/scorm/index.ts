import type { Context } from 'koa';
import {
  ANALYSIS_SAMPLE_LIMIT,
  SCORM_EXPORT_HEADER,
  exportFileName,
  pageOffset,
  type Page,
  type ScormAttemptSummary,
} from '@portal/contracts';
import {
  exportColumns,
  exportRows,
  forbidden,
  implement,
  requireConsent,
  rowsOf,
  sendExport,
  type DeclaredHandler,
  type Principal,
} from '@portal/service-kit';
import { curates } from '../../clients/content';
import type { PeopleClient } from '../../clients/people';
import type { ProgressDeps } from '../../commands/deps';
import type { ScormAttemptDoc } from '../../models/scormAttempt';
import { resultsScope } from '../../policies/attempts';
import { commitScormAttempt, loadScormLesson, openScormAttempt } from '../../scorm/attempts';
import { analyzeInteractions } from '../../scorm/analysis';
import { exportRow, presentScormAttemptState, presentScormAttemptSummary } from '../../scorm/present';
import {
  analyzeScormLesson,
  commitScormAttempt as commitRoute,
  exportScormAttempts,
  listScormAttempts,
  openScormAttempt as openRoute,
} from './declarations';

/** Studying needs the consent to the processing of personal data, as every other study route. */
const consented = (ctx: Context) => requireConsent(ctx, () => Promise.resolve());

/** What scorm-again's responseHandler takes for success, stored or already stored. */
const COMMITTED = { result: true, errorCode: 0 } as const;

/** Widths (characters) of SCORM_EXPORT_HEADER's columns in the XLSX. */
const EXPORT_COLUMN_WIDTHS = [28, 30, 30, 8, 14, 12, 8, 9, 9, 8, 11, 10, 15, 17, 17];

interface AttemptFilter {
  courseId?: string;
  lessonId?: string;
  userId?: string;
}

/** The SCORM attempts: the player opens and commits, curators and learners read them. */
export function scormRoutes(deps: ProgressDeps & { people: PeopleClient }): DeclaredHandler[] {
  const { scormAttempts } = deps.models;

  /** People's names as the auth service has them now; the name stored at the start for anyone it no longer knows. */
  async function namesOf(rows: ScormAttemptDoc[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((r) => r.userId))];
    const people = await deps.people.users(ids);
    return new Map(people.map((p) => [p.id, p.fullName]));
  }

  /** The attempts a person reads, by the results' rule (`resultsScope`), within the asked-for course and lesson. */
  async function scopeOf(user: Principal, query: AttemptFilter): Promise<Record<string, unknown>> {
    const courses = await deps.content.curatedCourses(user);
    const filter: Record<string, unknown> = { ...resultsScope(user, query.userId, courses) };
    // A curator's scope narrows by `courseId` already: the asked-for course is a further condition.
    if (query.courseId) filter.$and = [{ courseId: query.courseId }];
    if (query.lessonId) filter.lessonId = query.lessonId;
    return filter;
  }

  return [
    implement(openRoute, async (ctx, { body }) => {
      await consented(ctx);
      const lesson = await loadScormLesson(deps, ctx.state.user, body.courseId, body.lessonId);
      const attempt = await openScormAttempt(deps, ctx.state.user, lesson, body.fresh);
      return presentScormAttemptState(attempt, lesson.binding.allowNewAttempt);
    }),

    implement(commitRoute, async (ctx, { params, query, body }) => {
      await consented(ctx);
      await commitScormAttempt(deps, ctx.state.user, params.id, body, { final: query.final === 'true' });
      return COMMITTED;
    }),

    implement(listScormAttempts, async (ctx, { query }) => {
      const filter = await scopeOf(ctx.state.user, query);
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

    implement(exportScormAttempts, async (ctx, { query, record }) => {
      const filter = await scopeOf(ctx.state.user, query);
      const cursor = await exportRows(scormAttempts, filter, { updatedAt: -1, _id: -1 }, { cmi: 0 });
      sendExport(ctx, query.format, {
        file: 'scorm',
        sheet: 'SCORM',
        columns: exportColumns(SCORM_EXPORT_HEADER, EXPORT_COLUMN_WIDTHS),
        timeZone: query.tz,
        rows: rowsOf(cursor, exportRow),
      });
      record({ code: 'scormResults.exported', data: { file: exportFileName('scorm', query.format) } });
    }),

    implement(analyzeScormLesson, async (ctx, { query }) => {
      const courses = await deps.content.curatedCourses(ctx.state.user);
      if (!curates(courses, query.courseId)) throw forbidden();
      // The latest ANALYSIS_SAMPLE_LIMIT attempts, as a quiz's analysis reads them; the count is of all.
      const filter = { courseId: query.courseId, lessonId: query.lessonId };
      const [rows, attempts] = await Promise.all([
        scormAttempts
          .find(filter, { interactions: 1 })
          .sort({ updatedAt: -1, _id: -1 })
          .limit(ANALYSIS_SAMPLE_LIMIT)
          .lean<Pick<ScormAttemptDoc, 'interactions'>[]>(),
        scormAttempts.countDocuments(filter),
      ]);
      return {
        courseId: query.courseId,
        lessonId: query.lessonId,
        attempts,
        interactions: analyzeInteractions(rows),
      };
    }),
  ];
}
