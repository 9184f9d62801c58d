import Router from '@koa/router';
import type { Context } from 'koa';
import type { Model } from 'mongoose';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  AUDIT_EXPORT_HEADER,
  DASHBOARD_MSG,
  auditDetailsOf,
  auditExportQuerySchema,
  auditListQuerySchema,
  exportFileName,
  scopedHistorySchema,
  withoutOthersEmail,
  type AuditEvent,
  type AuditExportQuery,
  type AuditListQuery,
  type AuditPage,
} from '@portal/contracts';
import {
  exportColumns,
  exportRows,
  implement,
  parse,
  requireInternal,
  rowsOf,
  sendExport,
  VersionedCache,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import { TRAIL_VERSION, type AuditRecordDoc } from '../../models/record';
import { readsWholeTrail } from '../../policies/trail';
import { cappedTotals, listRecords, recordFilter, recordOrder, type RecordScope } from '../../queries/records';
import { exportAuditEvents, exportMyAuditEvents, listAuditEvents, listMyAuditEvents } from './declarations';

type AuditActor = NonNullable<AuditEvent['actor']>;

/** Widths (characters) of AUDIT_EXPORT_HEADER's columns in the XLSX. */
const AUDIT_COLUMN_WIDTHS = [17, 12, 16, 26, 60, 28, 28];

/**
 * What every history reads through: a page, and the same rows as a file. A page of the history is
 * the same for every reader who asks the same question until the trail is written: under many
 * readers (an incident, a review) each question is read from the store once per write, however
 * many ask it (VersionedCache).
 */
function historyReader(records: Model<AuditRecordDoc>) {
  const pages = new VersionedCache<AuditPage>(records.db, { name: TRAIL_VERSION });
  const totals = cappedTotals(records);
  const page = (query: AuditListQuery, scope?: RecordScope) =>
    pages.get({ query, actorId: scope?.actorId, entityIds: scope?.entityIds }, () => listRecords(records, query, scope, totals));

  /**
   * The history as a file, with the filters of the history dialog: the rows they select, in the
   * chosen order, read through one cursor up to EXPORT_MAX_ROWS. A curator's file (`reader` given)
   * has no one's email but their own.
   */
  async function exportRecords(ctx: Context, query: AuditExportQuery, scope?: RecordScope, reader?: string) {
    const filter = recordFilter(query, scope);
    const cursor = await exportRows(records, filter, recordOrder(query.sort));
    sendExport(ctx, query.format, {
      file: 'audit',
      sheet: DASHBOARD_MSG.history,
      columns: exportColumns(AUDIT_EXPORT_HEADER, AUDIT_COLUMN_WIDTHS),
      timeZone: query.tz,
      rows: rowsOf(cursor, (r) => [
        r.timestamp,
        AUDIT_ACTION_LABELS[r.action],
        AUDIT_ENTITY_LABELS[r.entity],
        r.entityId,
        auditDetailsOf(r),
        r.actor?.fullName ?? null,
        reader === undefined || r.actor?.id === reader ? (r.actor?.email ?? null) : null,
      ]),
    });
  }

  /** A curator's page: their own actions and the records about `entityIds`, no one's email but theirs. */
  const scopedPage = async (query: AuditListQuery, reader: AuditActor, entityIds: readonly string[]) => {
    const answer = await page(query, { actorId: reader.id, entityIds });
    return { ...answer, data: answer.data.map(withoutOthersEmail(reader.id)) };
  };

  return { page, exportRecords, scopedPage };
}

/** The download of the history is itself recorded. */
const exported = (format: AuditExportQuery['format']) =>
  ({ code: 'audit.exported', data: { file: exportFileName('audit', format) } }) as const;

/**
 * The history's public routes, each beside its declaration (`declarations.ts`): the kit has already
 * authenticated, checked the declared policy's roles and parsed the query when the handler runs.
 */
export function auditRoutes(records: Model<AuditRecordDoc>): DeclaredHandler[] {
  const { page, exportRecords, scopedPage } = historyReader(records);
  // The course parts a curator's history covers are named by the content service, which the gateway
  // asks (POST /internal/audit below); asked here, without them, a curator's holds their own actions.
  const reading = (ctx: Context): RecordScope | undefined =>
    readsWholeTrail(ctx.state.user) ? undefined : { actorId: ctx.state.user.id, entityIds: [] };

  return [
    implement(listAuditEvents, (ctx, { query }) =>
      readsWholeTrail(ctx.state.user) ? page(query) : scopedPage(query, ctx.state.user, []),
    ),
    implement(exportAuditEvents, async (ctx, { query, record }) => {
      const scope = reading(ctx);
      await exportRecords(ctx, query, scope, scope && ctx.state.user.id);
      record(exported(query.format));
    }),
    implement(listMyAuditEvents, (ctx, { query }) => page(query, { actorId: ctx.state.user.id })),
    implement(exportMyAuditEvents, async (ctx, { query, record }) => {
      await exportRecords(ctx, query, { actorId: ctx.state.user.id });
      record(exported(query.format));
    }),
  ];
}

/**
 * A curator's history, for the gateway only (it never exposes /internal): the query string is the
 * history's, the body names the reader and their courses' parts (too many for an address). The
 * reader's own actions and the records about those parts; no one's email but the reader's.
 */
export function scopedHistoryRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/internal/audit' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));
  const { scopedPage, exportRecords } = historyReader(records);

  router.post('/', async (ctx) => {
    const { reader, entityIds } = parse(scopedHistorySchema, ctx.request.body);
    ctx.body = await scopedPage(parse(auditListQuerySchema, ctx.query), reader, entityIds);
  });

  router.post('/export', async (ctx) => {
    const { reader, entityIds } = parse(scopedHistorySchema, ctx.request.body);
    const query = parse(auditExportQuerySchema, ctx.query);
    await exportRecords(ctx, query, { actorId: reader.id, entityIds }, reader.id);
    service.audit.publish({ ...exported(query.format), actor: reader });
  });

  return router;
}
