import type Router from '@koa/router';
import {
  PROGRESS_MSG,
  RESULTS_CSV_HEADER,
  REVIEW_MSG,
  exportFileName,
  moscowDayStart,
  pageOffset,
  type ResultFilterStatus,
  type ResultStatus,
  type ResultsPage,
  type ResultsSummary,
} from '@portal/contracts';
import {
  declaredRouter,
  escapeRegExp,
  exportColumns,
  exportRows,
  implement,
  op,
  rowsOf,
  sendExport,
  type DeclaredHandler,
  type Principal,
  type ServiceContext,
} from '@portal/service-kit';
import type { ProgressDeps } from '../../commands/deps';
import { finalizeExpired } from '../../commands/attemptExpiry';
import type { AttemptDoc } from '../../models/attempt';
import { resultsScope } from '../../policies/attempts';
import { presentAttemptSummary } from '../../presenters/attempt';
import * as declared from './declarations';

const SUMMARY_FIELDS = { questions: 0, answers: 0, quizDescription: 0 } as const;

interface ResultsFilter {
  search?: string;
  status?: ResultFilterStatus;
  quizId?: string;
  courseId?: string;
  from?: string;
  to?: string;
  userId?: string;
}

const DAY_MS = 86_400_000;

/** The store's condition for each status of the screen: pending is its own, whatever the provisional score. */
const STATUS_FILTER: Record<ResultFilterStatus, Record<string, unknown>> = {
  pending: { awaitingReview: true },
  passed: { status: 'passed', awaitingReview: op({ $ne: true }) },
  failed: { status: 'failed', awaitingReview: op({ $ne: true }) },
};

/**
 * Finished attempts the reader may see, matching the search (name, course or quiz title, any
 * case, taken literally) and the status filter. `scope` leaves the status filter out (the attempts
 * whose time ran out are finalised across it); the list and its summary cards use `list`, so the
 * cards summarise exactly what the filters select.
 */
async function filtersFor(deps: ProgressDeps, user: Principal, q: ResultsFilter) {
  const courses = await deps.content.curatedCourses(user);
  const scope: Record<string, unknown> = { status: op({ $in: ['passed', 'failed'] }), ...resultsScope(user, q.userId, courses) };
  if (q.quizId) scope.quizId = q.quizId;
  if (q.courseId) scope.courseId = q.courseId;
  if (q.from || q.to)
    scope.completedAt = op({
      ...(q.from ? { $gte: moscowDayStart(q.from) } : {}),
      ...(q.to ? { $lt: new Date(moscowDayStart(q.to).getTime() + DAY_MS) } : {}),
    });
  if (q.search) {
    const pattern = new RegExp(escapeRegExp(q.search), 'i');
    scope.$or = [{ userName: pattern }, { courseTitle: pattern }, { quizTitle: pattern }];
  }
  return { scope, list: q.status ? { ...scope, ...STATUS_FILTER[q.status] } : scope };
}

/** Widths (characters) of RESULTS_CSV_HEADER's columns in the XLSX. */
const RESULTS_COLUMN_WIDTHS = [28, 30, 30, 8, 10, 9, 9, 17, 12, 12];

type SummaryGroup = { _id: { status: ResultStatus; percentage: number; awaitingReview?: boolean | null }; count: number };

function summarize(groups: SummaryGroup[]): ResultsSummary {
  let passed = 0;
  let failed = 0;
  let pending = 0;
  let sum = 0;
  for (const { _id, count } of groups) {
    if (_id.awaitingReview) pending += count;
    else if (_id.status === 'passed') passed += count;
    else failed += count;
    sum += _id.percentage * count;
  }
  const total = passed + failed + pending;
  return { total, passed, failed, pending, averagePercentage: total ? Math.round(sum / total) : 0 };
}

/** The status column of the export, as the screen's badge says it. */
const statusText = (a: { status: string; pendingReviews?: number }) =>
  (a.pendingReviews ?? 0) > 0 ? REVIEW_MSG.pending : a.status === 'passed' ? PROGRESS_MSG.passed : PROGRESS_MSG.failed;

/** Quiz results (docs/decisions/037): learners see their own attempts, ADMIN everyone's, a CURATOR those of their courses. */
export function resultRoutes(deps: ProgressDeps): DeclaredHandler[] {
  const { attempts } = deps.models;

  return [
    implement(declared.listResults, async (ctx, { query: q, record }) => {
      const { scope, list } = await filtersFor(deps, ctx.state.user, q);
      await finalizeExpired(deps, scope.userId ? { userId: String(scope.userId) } : {});
      const [rows, groups] = await Promise.all([
        attempts
          .find(list, SUMMARY_FIELDS)
          .sort({ completedAt: -1, _id: -1 })
          .skip(pageOffset(q))
          .limit(q.limit)
          .lean<AttemptDoc[]>(),
        // Grouped by status and percentage (at most 2 × 101 groups) and summed here: FerretDB answers
        // 0 for `$sum: '$field'`, silently, so only `$sum: 1` is used. Its total is the list's count.
        attempts.aggregate<SummaryGroup>([
          { $match: list },
          {
            $group: {
              _id: { status: '$status', percentage: '$percentage', awaitingReview: '$awaitingReview' },
              count: { $sum: 1 },
            },
          },
        ]),
      ]);
      const summary = summarize(groups);
      // 152-FZ: other people's results are personal data; one record per page read, never one per row.
      const others = rows.filter((r) => String(r.userId) !== ctx.state.user.id).length;
      if (others) record({ code: 'results.viewed', data: { page: q.page, rows: others } });
      const body: ResultsPage = {
        data: rows.map(presentAttemptSummary),
        total: summary.total,
        page: q.page,
        limit: q.limit,
        summary,
      };
      return body;
    }),

    /**
     * quiz_results.csv or .xlsx (the shared writer's formats): the rows the table's filters select,
     * within what the reader may see, newest first, read through one cursor up to EXPORT_MAX_ROWS.
     */
    implement(declared.exportResults, async (ctx, { query: q, record }) => {
      const { list } = await filtersFor(deps, ctx.state.user, q);
      const cursor = await exportRows(attempts, list, { completedAt: -1, _id: -1 }, SUMMARY_FIELDS);
      sendExport(ctx, q.format, {
        file: 'results',
        sheet: PROGRESS_MSG.resultsTitle,
        columns: exportColumns(RESULTS_CSV_HEADER, RESULTS_COLUMN_WIDTHS),
        timeZone: q.tz,
        rows: rowsOf(cursor, (doc) => {
          const a = presentAttemptSummary(doc);
          return [
            a.userName,
            a.courseTitle,
            a.quizTitle,
            a.score,
            a.maxScore,
            a.percentage,
            a.attemptNumber,
            a.completedAt ? new Date(a.completedAt) : null,
            statusText(a),
            a.durationMinutes ?? null,
          ];
        }),
      });
      record({ code: 'results.exported', data: { file: exportFileName('results', q.format) } });
    }),
  ];
}

export const resultsRouter = (service: ServiceContext, deps: ProgressDeps): Router => declaredRouter(service, resultRoutes(deps));
