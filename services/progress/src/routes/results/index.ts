import { Readable } from 'node:stream';
import Router from '@koa/router';
import { stringify } from 'csv-stringify';
import {
  PROGRESS_MSG,
  RESULTS_CSV_HEADER,
  RESULTS_CSV_NAME,
  pageOffset,
  resultsExportQuerySchema,
  resultsQuerySchema,
  type ResultStatus,
  type ResultsPage,
  type ResultsSummary,
} from '@portal/contracts';
import { escapeRegExp, op, parse, type Principal, type ServiceContext } from '@portal/service-kit';
import type { ProgressDeps } from '../../commands/deps';
import { finalizeExpired } from '../../commands/attempts';
import type { AttemptDoc } from '../../models/attempt';
import { resultsOwner } from '../../policies/attempts';
import { presentAttemptSummary } from '../../presenters/attempt';

const SUMMARY_FIELDS = { questions: 0, answers: 0, quizDescription: 0 } as const;

interface ResultsFilter {
  search?: string;
  status?: ResultStatus;
  quizId?: string;
  userId?: string;
}

/**
 * Finished attempts the reader may see, matching the search (name, course or quiz title, any
 * case, taken literally) and the status filter. `scope` leaves the status filter out (the attempts
 * whose time ran out are finalised across it); the list and its summary cards use `list`, so the
 * cards summarise exactly what the filters select.
 */
function filtersFor(user: Principal, q: ResultsFilter) {
  const scope: Record<string, unknown> = { status: op({ $in: ['passed', 'failed'] }) };
  const owner = resultsOwner(user, q.userId);
  if (owner) scope.userId = owner;
  if (q.quizId) scope.quizId = q.quizId;
  if (q.search) {
    const pattern = new RegExp(escapeRegExp(q.search), 'i');
    scope.$or = [{ userName: pattern }, { courseTitle: pattern }, { quizTitle: pattern }];
  }
  return { scope, list: q.status ? { ...scope, status: q.status } : scope };
}

const two = (n: number) => String(n).padStart(2, '0');
/** dd.MM.yyyy HH:mm in the reader's zone (a spreadsheet reads this as a date). */
function dateTimeIn(timeZone: string) {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  return (d: Date) => {
    const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
    return `${two(Number(p.day))}.${two(Number(p.month))}.${p.year} ${two(Number(p.hour))}:${p.minute}`;
  };
}

function summarize(groups: Array<{ _id: { status: ResultStatus; percentage: number }; count: number }>): ResultsSummary {
  let passed = 0;
  let failed = 0;
  let sum = 0;
  for (const { _id, count } of groups) {
    if (_id.status === 'passed') passed += count;
    else failed += count;
    sum += _id.percentage * count;
  }
  const total = passed + failed;
  return { total, passed, failed, averagePercentage: total ? Math.round(sum / total) : 0 };
}

/** Quiz results (spec section 2): learners see their own attempts, ADMIN and CURATOR everyone's. */
export function resultsRouter(service: ServiceContext, deps: ProgressDeps): Router {
  const router = new Router({ prefix: '/api/results' });
  const { attempts } = deps.models;
  router.use(service.authenticate);

  router.get('/', async (ctx) => {
    const q = parse(resultsQuerySchema, ctx.query);
    const { scope, list } = filtersFor(ctx.state.user, q);
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
      attempts.aggregate<{ _id: { status: ResultStatus; percentage: number }; count: number }>([
        { $match: list },
        { $group: { _id: { status: '$status', percentage: '$percentage' }, count: { $sum: 1 } } },
      ]),
    ]);
    const summary = summarize(groups);
    const body: ResultsPage = {
      data: rows.map(presentAttemptSummary),
      total: summary.total,
      page: q.page,
      limit: q.limit,
      summary,
    };
    ctx.body = body;
  });

  /** quiz_results.csv built here from the stored attempts: UTF-8 with a BOM, a header, RFC 4180 quoting. */
  router.get('/export', async (ctx) => {
    const q = parse(resultsExportQuerySchema, ctx.query);
    const { list } = filtersFor(ctx.state.user, q);
    const when = dateTimeIn(q.tz);
    const cursor = attempts.find(list, SUMMARY_FIELDS).sort({ completedAt: -1, _id: -1 }).lean<AttemptDoc[]>().cursor();
    const rows = Readable.from(
      (async function* () {
        for await (const doc of cursor) {
          const a = presentAttemptSummary(doc as unknown as AttemptDoc);
          yield [
            a.userName,
            a.courseTitle,
            a.quizTitle,
            a.score,
            a.maxScore,
            a.percentage,
            a.attemptNumber,
            a.completedAt ? when(new Date(a.completedAt)) : '',
            a.status === 'passed' ? PROGRESS_MSG.passed : PROGRESS_MSG.failed,
            a.durationMinutes ?? '',
          ];
        }
      })(),
    );
    // CRLF between records, and any cell with a line break quoted (the library quotes only the record
    // delimiter itself); escape_formulas: a cell beginning with = + - @ is not run as a formula.
    const csv = stringify({
      bom: true,
      header: true,
      columns: [...RESULTS_CSV_HEADER],
      record_delimiter: 'windows',
      quoted_match: /[\r\n]/,
      escape_formulas: true,
    });
    rows.on('error', (err) => csv.destroy(err));
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${RESULTS_CSV_NAME}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = rows.pipe(csv);
    deps.audit.publish({
      action: 'read',
      entity: 'quiz',
      entityId: null,
      details: `Выгрузка результатов квизов в ${RESULTS_CSV_NAME}`,
      actor: ctx.state.user,
    });
  });

  return router;
}
