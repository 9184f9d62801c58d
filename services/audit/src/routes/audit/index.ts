import Router from '@koa/router';
import type { Context } from 'koa';
import type { Model } from 'mongoose';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  AUDIT_EXPORT_HEADER,
  DASHBOARD_MSG,
  STAFF_ROLES,
  auditExportQuerySchema,
  auditListQuerySchema,
  exportFileName,
  type AuditListQuery,
  type AuditPage,
} from '@portal/contracts';
import {
  exportColumns,
  exportRows,
  parse,
  requireRole,
  rowsOf,
  sendExport,
  VersionedCache,
  type ServiceContext,
} from '@portal/service-kit';
import { TRAIL_VERSION, type AuditRecordDoc } from '../../models/record';
import { listRecords, recordFilter, recordOrder } from '../../queries/records';

/** Widths (characters) of AUDIT_EXPORT_HEADER's columns in the XLSX. */
const AUDIT_COLUMN_WIDTHS = [17, 12, 16, 26, 60, 28, 28];

export function auditRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/api/audit' });
  // A page of the history is the same for every reader who asks the same question until the trail
  // is written: under many readers (an incident, a review) each question is read from the store
  // once per write, however many ask it (VersionedCache).
  const pages = new VersionedCache<AuditPage>(records.db, { name: TRAIL_VERSION });
  const page = (query: AuditListQuery, actorId?: string) =>
    pages.get({ query, actorId }, () => listRecords(records, query, actorId));

  /**
   * The history as a file, with the filters of the history dialog: the rows they select, in the
   * chosen order, read through one cursor up to EXPORT_MAX_ROWS. The download is itself recorded.
   */
  async function exportRecords(ctx: Context, actorId?: string) {
    const query = parse(auditExportQuerySchema, ctx.query);
    const filter = recordFilter(query, actorId);
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
        r.actor?.email ?? null,
      ]),
    });
    service.audit.publish({
      action: 'read',
      entity: 'audit',
      entityId: null,
      details: `Выгрузка журнала действий в ${exportFileName('audit', query.format)}`,
      actor: ctx.state.user,
    });
  }

  /** The whole trail, for ADMIN and CURATOR. */
  router.get('/', service.authenticate, requireRole(...STAFF_ROLES), async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = await page(query);
  });

  router.get('/export', service.authenticate, requireRole(...STAFF_ROLES), (ctx) => exportRecords(ctx));

  /** Anyone's own actions and nobody else's: the activity history of a learner's dashboard. */
  router.get('/my', service.authenticate, async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = await page(query, ctx.state.user.id);
  });

  router.get('/my/export', service.authenticate, (ctx) => exportRecords(ctx, ctx.state.user.id));

  return router;
}
