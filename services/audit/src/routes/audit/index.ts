import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Model } from 'mongoose';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  AUDIT_EXPORT_HEADER,
  DASHBOARD_MSG,
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

  return { page, exportRecords };
}

const digestOf = (ids: readonly string[]) => createHash('sha256').update(ids.join(',')).digest('base64url');

export function auditRouter(service: ServiceContext, records: Model<AuditRecordDoc>): Router {
  const router = new Router({ prefix: '/api/audit' });
  const { page, exportRecords } = historyReader(service, records);

  /**
   * The whole trail, for ADMIN. A curator's history is their part of it (issue 49.22): the gateway
   * asks the content service for their courses' parts and reads it through POST /internal/audit.
   */
  router.get('/', service.authenticate, requireRole('ADMIN'), async (ctx) => {
    const query = parse(auditListQuerySchema, ctx.query);
    ctx.body = await page(query);
  });

  router.get('/export', service.authenticate, requireRole('ADMIN'), (ctx) => exportRecords(ctx, ctx.state.user));

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
  const { page, exportRecords } = historyReader(service, records);

  router.post('/', async (ctx) => {
    const { reader, entityIds } = parse(scopedHistorySchema, ctx.request.body);
    const query = parse(auditListQuerySchema, ctx.query);
    const answer = await page(query, { actorId: reader.id, entityIds });
    ctx.body = { ...answer, data: answer.data.map(withoutOthersEmail(reader.id)) };
  });

  router.post('/export', async (ctx) => {
    const { reader, entityIds } = parse(scopedHistorySchema, ctx.request.body);
    await exportRecords(ctx, reader, { actorId: reader.id, entityIds }, reader.id);
  });

  return router;
}
