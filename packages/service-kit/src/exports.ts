import { once } from 'node:events';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { Context } from 'koa';
import type { Model, ProjectionType, QueryFilter, SortOrder } from 'mongoose';
import { EXPORT_MAX_ROWS, exportFileName, exportTooManyRows, type ExportFile, type ExportFormat } from '@portal/contracts';
import { badRequest } from './errors';
import { loadExcel } from './heavyLibraries';

/**
 * The one writer of the portal's downloads: a list's rows as CSV for Russian Excel or
 * as XLSX. Rows are pulled from an async iterable (a store cursor) and written as they come, so a
 * download of 50,000 rows never holds them all.
 *
 * CSV: UTF-8 with a BOM, `;` between fields (Russian Excel's list separator, so it opens in
 * columns), CRLF between records, every field quoted, and a text that begins with = + - @, a tab
 * or a CR prefixed with `'`, so a spreadsheet shows it instead of running it (OWASP "CSV
 * injection"). Dates are written `dd.MM.yyyy HH:mm` in the reader's zone, which Excel reads as dates;
 * a calendar day (`exportDay`, a due day) is `dd.MM.yyyy`, the same day in every zone.
 *
 * XLSX: a bold, frozen header row, column widths, numbers as numbers and dates as real dates
 * (shown `dd.mm.yyyy hh:mm`, in the reader's zone; a calendar day as a date `dd.mm.yyyy`, never moved
 * by a zone). A text cell is never a formula there.
 */

/**
 * A date without a time (`YYYY-MM-DD`: a due day). It names a day on the calendar, not an instant,
 * so no time zone moves it: 2026-12-31 reads 31.12.2026 in Kamchatka and in Moscow alike.
 */
export class ExportDay {
  constructor(readonly day: string) {}
}

/** A calendar-day cell from `YYYY-MM-DD`. */
export const exportDay = (day: string): ExportDay => new ExportDay(day);

export type ExportCell = string | number | Date | ExportDay | null | undefined;

export interface ExportColumn {
  header: string;
  /** Width in characters (XLSX). */
  width: number;
}

/** A download's columns: the contract's headers, each with its width (XLSX), in order. */
export const exportColumns = (headers: readonly string[], widths: readonly number[]): ExportColumn[] =>
  headers.map((header, i) => ({ header, width: widths[i] }));

/** A download's rows, one a document of a store cursor, as they are read. */
export async function* rowsOf<T>(cursor: AsyncIterable<T>, row: (doc: T) => ExportCell[]): AsyncGenerator<ExportCell[]> {
  for await (const doc of cursor) yield row(doc);
}

export interface ExportTable {
  file: ExportFile;
  /** The worksheet's name (XLSX). */
  sheet: string;
  columns: readonly ExportColumn[];
  rows: AsyncIterable<ExportCell[]>;
  /** The reader's IANA time zone: dates are shown as their clock there. */
  timeZone: string;
  /** A hard stop however many rows come: the route refuses a larger selection first; a row beyond it fails the download. */
  maxRows?: number;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Refuses, before a row is read, a selection larger than one download may hold. Counts to one past
 * the limit at most: on FerretDB every counted document is read.
 */
export async function assertExportable(
  collection: { countDocuments(filter: never, options: { limit: number }): PromiseLike<number> },
  filter: unknown,
): Promise<void> {
  const count = await collection.countDocuments(filter as never, { limit: EXPORT_MAX_ROWS + 1 });
  if (count > EXPORT_MAX_ROWS) throw badRequest(exportTooManyRows());
}

/**
 * The rows of a download, read through one cursor as they are written: refused first when the
 * selection is larger than one download may hold, then at most EXPORT_MAX_ROWS in `sort` order.
 */
export async function exportRows<T>(
  model: Model<T>,
  filter: QueryFilter<T>,
  sort: Record<string, SortOrder>,
  projection?: ProjectionType<T>,
): Promise<AsyncIterable<T>> {
  await assertExportable(model, filter);
  return model.find(filter, projection).sort(sort).limit(EXPORT_MAX_ROWS).lean<T[]>().cursor({ batchSize: 1000 });
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text a spreadsheet would run as a formula gets a leading `'` (only texts: numbers and dates are data). */
export const formulaSafe = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

const two = (n: number) => String(n).padStart(2, '0');
const clocks = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a zone, as a Date whose UTC fields read that clock. */
export function wallClock(instant: Date, timeZone: string): Date {
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clocks.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, Number(x.value)]));
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, instant.getUTCMilliseconds()));
}

/** `dd.MM.yyyy HH:mm` of an instant in a zone. */
export function dateTimeText(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${two(w.getUTCDate())}.${two(w.getUTCMonth() + 1)}.${w.getUTCFullYear()} ${two(w.getUTCHours())}:${two(w.getUTCMinutes())}`;
}

/** `dd.MM.yyyy` of a calendar day `YYYY-MM-DD`. */
const dayCellText = ({ day }: ExportDay): string => day.split('-').reverse().join('.');

/** The spreadsheet's date of a calendar day: midnight of that day, with no zone (ExcelJS writes UTC fields). */
const dayDate = ({ day }: ExportDay): Date => new Date(`${day}T00:00:00Z`);

const csvField = (cell: ExportCell, timeZone: string): string => {
  const text =
    cell === null || cell === undefined
      ? ''
      : cell instanceof Date
        ? dateTimeText(cell, timeZone)
        : cell instanceof ExportDay
          ? dayCellText(cell)
          : typeof cell === 'number'
            ? // A decimal comma: Russian Excel reads «1.1» as the 1st of January (the XLSX keeps numbers).
              String(cell).replace('.', ',')
            : formulaSafe(cell);
  return `"${text.replace(/"/g, '""')}"`;
};

/** Passes at most `max` rows; one more fails the download instead of cutting it short unseen. */
async function* limited<T>(rows: AsyncIterable<T>, max: number): AsyncGenerator<T> {
  let n = 0;
  for await (const row of rows) {
    if (n++ >= max) throw new Error(`export exceeds its maximum of ${max} rows`);
    yield row;
  }
}

/** The CSV text of a table, chunk by chunk (one chunk per record). */
export async function* csvChunks(table: ExportTable): AsyncGenerator<string> {
  const line = (cells: readonly ExportCell[]) => `${cells.map((c) => csvField(c, table.timeZone)).join(';')}\r\n`;
  yield `\uFEFF${line(table.columns.map((c) => c.header))}`;
  for await (const row of limited(table.rows, table.maxRows ?? EXPORT_MAX_ROWS)) yield line(row);
}

/** Writes a table as an XLSX workbook into `out`, row by row (the workbook is streamed, never held whole). */
export async function writeXlsx(table: ExportTable, out: Writable): Promise<void> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(table.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = table.columns.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const row of limited(table.rows, table.maxRows ?? EXPORT_MAX_ROWS)) {
    // The reader went away: stop reading the store. A slow reader: wait for it, so rows do not pile up here.
    if (out.destroyed) return;
    if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    const written = sheet.addRow(
      row.map((c) => (c instanceof Date ? wallClock(c, table.timeZone) : c instanceof ExportDay ? dayDate(c) : (c ?? null))),
    );
    row.forEach((c, i) => {
      if (c instanceof Date) written.getCell(i + 1).numFmt = 'dd.mm.yyyy hh:mm';
      if (c instanceof ExportDay) written.getCell(i + 1).numFmt = 'dd.mm.yyyy';
    });
    written.commit();
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * Answers a download: headers (name, type, no caching) and the body as a stream. A failure half-way
 * (the store goes away) ends the stream with an error, so the client sees a broken download, never
 * a short file that looks whole.
 */
export function sendExport(ctx: Context, format: ExportFormat, table: ExportTable): void {
  ctx.set('Content-Type', EXPORT_CONTENT_TYPES[format]);
  ctx.set('Content-Disposition', `attachment; filename="${exportFileName(table.file, format)}"`);
  ctx.set('Cache-Control', 'no-store');
  if (format === 'csv') {
    ctx.body = Readable.from(csvChunks(table));
    return;
  }
  const out = new PassThrough();
  writeXlsx(table, out).catch((err: Error) => out.destroy(err));
  ctx.body = out;
}
