import { isValidObjectId, type Connection, type Model } from 'mongoose';
import {
  IMPORT_MSG,
  STAFF_IMPORT_BATCH,
  STAFF_IMPORT_COLUMNS,
  type ImportBatchResult,
  type ImportPreview,
} from '@portal/contracts';
import {
  XLSX_MEDIA_TYPE,
  badRequest,
  composeMail,
  implement,
  loadExcel,
  notFound,
  op,
  portalLink,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import { changeEndsSessions, endSessionsOf, issueFirstLinks } from '../../commands/sessions';
import { checkRows, countOutcomes, previewRows, readSheet, writeBatch } from '../../commands/staffImport';
import type { StaffImportDoc } from '../../models/staffImport';
import type { UserDoc } from '../../models/user';
import type { AuthConfig } from '../../config';
import * as declared from './declarations';

const TEMPLATE_ROWS = [
  ['Иванова Мария Сергеевна', 'm.ivanova@example.ru', 'Бухгалтерия', 'Главный бухгалтер', 'Клиент'],
  ['Петров Олег Иванович', 'o.petrov@example.ru', 'Склад', 'Кладовщик', 'Кандидат'],
];
const TEMPLATE_DATE = new Date('2026-11-25T00:00:00Z');
/** A preview nobody ran is dropped after this long (FerretDB has no TTL indexes: swept at each preview). */
const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

const expiry = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Moscow' });

/**
 * The staff import (ADMIN, CURATOR), each route beside its declaration (`declarations.ts`): the template, the preview of a file (POST, nothing written but
 * the import's own record) and its run, a batch per request, idempotent by email. New people get a
 * one-time set-password link: by mail when SMTP is configured, otherwise in the answer for the admin
 * to hand out. The finished import is audited once, with its counts.
 */
export function staffImportRoutes(
  service: ServiceContext<AuthConfig>,
  {
    users,
    imports,
    store,
    announce,
  }: { users: Model<UserDoc>; imports: Model<StaffImportDoc>; store: Connection; announce: (id: string) => Promise<void> },
): DeclaredHandler[] {
  const { mailer, config } = service;

  // Written once per process: the same bytes every time (the zip stamps each part with the time of
  // writing, and exceljs the workbook with the hour).
  let template: Promise<Buffer> | null = null;
  const xlsxTemplate = () => {
    template ??= (async () => {
      const book = new (await loadExcel()).Workbook();
      book.created = book.modified = TEMPLATE_DATE;
      const sheet = book.addWorksheet('Сотрудники');
      sheet.columns = STAFF_IMPORT_COLUMNS.map((header) => ({ header, width: header === 'ФИО' ? 36 : 24 }));
      sheet.getRow(1).font = { bold: true };
      sheet.addRows(TEMPLATE_ROWS);
      return Buffer.from(await book.xlsx.writeBuffer());
    })().catch((err: unknown) => {
      template = null;
      throw err;
    });
    return template;
  };

  const templateRoute = implement(declared.getStaffImportTemplate, async (ctx, { query: { format } }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="staff-import-template.${format}"`);
    if (format === 'csv') {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = `\uFEFF${[STAFF_IMPORT_COLUMNS, ...TEMPLATE_ROWS].map((r) => r.join(';')).join('\r\n')}\r\n`;
      return;
    }
    ctx.type = XLSX_MEDIA_TYPE;
    ctx.body = await xlsxTemplate();
  });

  const previewRoute = implement(declared.previewStaffImport, async (ctx, { body: { fileName, content } }) => {
    const { user } = ctx.state;
    const table = await readSheet(fileName, Buffer.from(content, 'base64'));
    const checked = checkRows(table, user.role);
    if (!checked.length) throw badRequest(IMPORT_MSG.empty, 'content');
    const rows = await previewRows(users, checked, user);
    await imports.deleteMany({ createdAt: op({ $lt: new Date(Date.now() - PREVIEW_TTL_MS) }), finishedAt: null });
    // Kept as the file says them (a blank role stays blank): each batch decides again against the store.
    const valid = checked.filter((_, i) => rows[i].outcome !== 'error');
    const created = await imports.create({
      by: user.id,
      byRole: user.role,
      fileName,
      rows: valid,
      total: valid.length,
      counts: { new: 0, update: 0, same: 0, error: rows.length - valid.length },
    });
    const body: ImportPreview = { id: String(created._id), fileName, total: rows.length, counts: countOutcomes(rows), rows };
    return body;
  });

  const batchRoute = implement(declared.runStaffImportBatch, async (ctx, { params, body: { from }, record }) => {
    const { user } = ctx.state;
    const found = isValidObjectId(params.id)
      ? await imports.findOne({ _id: params.id, by: user.id, finishedAt: null }).lean<StaffImportDoc>()
      : null;
    if (!found) throw notFound(IMPORT_MSG.importNotFound);
    // The batches come in order; one asked again (a retried request) is written again harmlessly.
    if (from > found.done) throw badRequest(IMPORT_MSG.fromInvalid, 'from');
    const batch = found.rows.slice(from, from + STAFF_IMPORT_BATCH);
    const result = await writeBatch(
      {
        users,
        issueLinks: (ids) => issueFirstLinks(store, ids, user.id),
        mail: mailer.enabled
          ? (person, path, expiresAt) =>
              void mailer.send({
                to: person.email,
                subject: 'Доступ к порталу обучения',
                ...composeMail({
                  greetingName: person.fullName,
                  paragraphs: [
                    'Для вас создана учётная запись на портале обучения. Задайте пароль по ссылке ниже, и войдите с ним.',
                    `Ссылка действует один раз, до ${expiry.format(expiresAt)} (МСК).`,
                  ],
                  link: { label: 'Задать пароль', url: portalLink(config, path) },
                }),
              })
          : null,
        changed: async (before, after) => {
          if (changeEndsSessions(before, { email: before.email, role: after.role! }))
            await endSessionsOf(store, String(before._id));
          await announce(String(before._id));
        },
      },
      batch,
      user,
    );
    const done = Math.max(found.done, from + batch.length);
    const finished = done >= found.total;
    const counts = { ...found.counts };
    for (const k of ['new', 'update', 'same', 'error'] as const) counts[k] += result.counts[k];
    // Counted once: a batch asked again, or two requests racing for the same one, move the record only once.
    const moved =
      from === found.done &&
      (
        await imports.updateOne(
          { _id: found._id, done: found.done },
          { $set: { done, counts, ...(finished ? { finishedAt: new Date(), rows: [] } : {}) } },
        )
      ).modifiedCount === 1;
    if (!moved) {
      const answer: ImportBatchResult = {
        done: found.done,
        total: found.total,
        finished: false,
        counts: result.counts,
        created: result.created,
      };
      return answer;
    }
    if (finished) record({ code: 'staff.imported', data: { file: found.fileName, counts }, entityId: String(found._id) });
    const body: ImportBatchResult = { done, total: found.total, finished, counts: result.counts, created: result.created };
    return body;
  });

  return [templateRoute, previewRoute, batchRoute];
}
