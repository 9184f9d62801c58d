import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Model } from 'mongoose';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  AUDIT_EXPORT_HEADER,
  DASHBOARD_MSG,
  STAFF_ROLES,
  activityScopeFor,
  auditExportQuerySchema,
  auditListQuerySchema,
  exportFileName,
  scopedHistorySchema,
  withoutOthersEmail,
  type AuditEvent,
  type AuditListQuery,
  type AuditPage,
} from '@portal/contracts';
import {
  exportColumns,
  exportRows,
  parse,
  requireInternal,
  requireRole,
  rowsOf,
  sendExport,
  VersionedCache,
  type ServiceContext,
} from '@portal/service-kit';
import { TRAIL_VERSION, type AuditRecordDoc } from '../../models/record';
import { listRecords, recordFilter, recordOrder, type RecordScope } from '../../queries/records';

type AuditActor = NonNullable<AuditEvent['actor']>;

/** Widths (characters) of AUDIT_EXPORT_HEADER's columns in the XLSX. */
const AUDIT_COLUMN_WIDTHS = [17, 12, 16, 26, 60, 28, 28];

/**
 * What every history reads through: a page, and the same rows as a file. A page of the history is
 * the same for every reader who asks the same question until the trail is written: under many
 * readers (an incident, a review) each question is read from the store once per write, however
 * many ask it (VersionedCache).
 */
function historyReader(service: ServiceContext, records: Model<AuditRecordDoc>) {
  const pages = new VersionedCache<AuditPage>(records.db, { name: TRAIL_VERSION });
  const page = (query: AuditListQuery, scope?: RecordScope) =>
    pages.get(
      // A curator's ids are many: the question names them by a digest, not one by one.
      { query, actorId: scope?.actorId, entityIds: scope?.entityIds && digestOf(scope.entityIds) },
      () => listRecords(records, query, scope),
    );

  /**
   * The history as a file, with the filters of the history dialog: the rows they select, in the
   * chosen order, read through one cursor up to EXPORT_MAX_ROWS. The download is itself recorded.
   * A curator's file (`reader` given) has no one's email but their own.
   */
  async function exportRecords(ctx: Context, actor: AuditActor, scope?: RecordScope, reader?: string) {
    const query = parse(auditExportQuerySchema, ctx.query);
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
        r.details,
        r.actor?.fullName ?? null,
        reader === undefined || r.actor?.id === reader ? (r.actor?.email ?? null) : null,
      ]),
    });
    service.audit.publish({
      action: 'read',
      entity: 'audit',
      entityId: null,
      details: `Выгрузка журнала действий в ${exportFileName('audit', query.format)}`,
      actor,
    });
  }

  /** A curator's page: their own actions and the records about `entityIds`, no one's email but theirs. */
  const scopedPage = async (query: AuditListQuery, reader: AuditActor, entityIds: readonly string[]) => {
    const answer = await page(query, { actorId: reader.id, entityIds });
    return { ...answer, data: answer.data.map(withoutOthersEmail(reader.id)) };
  };
  const scopedExport = (ctx: Context, reader: AuditActor, entityIds: readonly string[]) =>
    exportRecords(ctx, reader, { actorId: reader.id, entityIds }, reader.id);

  return { page, exportRecords, scopedPage, scopedExport };
}

const digestOf = (ids: readonly string[]) => createHash('sha256').update(ids.join(',')).digest('base64url');

export function auditRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/api/audit' });
  const { page, exportRecords, scopedPage, scopedExport } = historyReader(service, records);
  // The course parts a curator's history covers are named by the content service, which the gateway
  // asks (POST /internal/audit below); asked here, without them, a curator's holds their own actions.
  const wholeTrail = (ctx: Context) => activityScopeFor(ctx.state.user.role) === 'all';

  /** The whole trail for ADMIN; a curator's part of it. */
  router.get('/', service.authenticate, requireRole(...STAFF_ROLES), async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = wholeTrail(ctx) ? await page(query) : await scopedPage(query, ctx.state.user, []);
  });

  router.get('/export', service.authenticate, requireRole(...STAFF_ROLES), (ctx) =>
    wholeTrail(ctx) ? exportRecords(ctx, ctx.state.user) : scopedExport(ctx, ctx.state.user, []),
  );

  /** Anyone's own actions and nobody else's: the activity history of a learner's dashboard. */
  router.get('/my', service.authenticate, async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = await page(query, { actorId: ctx.state.user.id });
  });

  router.get('/my/export', service.authenticate, (ctx) => exportRecords(ctx, ctx.state.user, { actorId: ctx.state.user.id }));

  return router;
}

/**
 * A curator's history, for the gateway only (it never exposes /internal): the query string is the
 * history's, the body names the reader and their courses' parts (too many for an address). The
 * reader's own actions and the records about those parts; no one's email but the reader's.
 */
export function scopedHistoryRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/internal/audit' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));
  const { scopedPage, scopedExport } = historyReader(service, records);

  router.post('/', async (ctx) => {
    const { reader, entityIds } = parse(scopedHistorySchema, ctx.request.body);
    ctx.body = await scopedPage(parse(auditListQuerySchema, ctx.query), reader, entityIds);
  });

  router.post('/export', async (ctx) => {
    const { reader, entityIds } = parse(scopedHistorySchema, ctx.request.body);
    await scopedExport(ctx, reader, entityIds);
  });

  return router;
}
