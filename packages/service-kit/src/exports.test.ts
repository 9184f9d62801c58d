import { PassThrough } from 'node:stream';
import { readCsv, readXlsx } from '@portal/devstack/exports';
import { EXPORT_MAX_ROWS } from '@portal/contracts';
import {
  assertExportable,
  csvChunks,
  dateTimeText,
  exportColumns,
  rowsOf,
  writeXlsx,
  type ExportCell,
  type ExportTable,
} from './exports';

const at = new Date('2026-03-03T21:30:00.000Z'); // 4 March 00:30 in Moscow

async function* streamOf<T>(rows: T[]) {
  yield* rows;
}

const table = (rows: ExportCell[][], maxRows?: number): ExportTable => ({
  file: 'users',
  sheet: 'Пользователи',
  columns: [
    { header: 'Имя', width: 30 },
    { header: 'Баллы', width: 8 },
    { header: 'Когда', width: 18 },
  ],
  rows: streamOf(rows),
  timeZone: 'Europe/Moscow',
  maxRows,
});

const tricky: ExportCell[][] = [
  [';=1+2 Анна', 3, at],
  ['=HYPERLINK("http://evil";"x")', 0, null],
  ['Смирнова; Анна "Аня"\nвторая строка', 10, at],
  ['+7 900', -1, undefined],
  ['@SUM(A1)', 1, at],
  ['\tтаб', 1, at],
  ['-1', 1, at],
];

async function csvOf(t: ExportTable): Promise<Buffer> {
  let text = '';
  for await (const chunk of csvChunks(t)) text += chunk;
  return Buffer.from(text, 'utf8');
}

async function xlsxOf(t: ExportTable): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve) => out.on('end', resolve));
  await writeXlsx(t, out);
  await done;
  return Buffer.concat(parts);
}

describe('the CSV of a download', () => {
  it('is a BOM, a header and every field quoted, split by ; into the same cells', async () => {
    const bytes = await csvOf(table(tricky));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('"Имя";"Баллы";"Когда"');
    const rows = readCsv(bytes);
    expect(rows[0]).toEqual(['Имя', 'Баллы', 'Когда']);
    expect(rows).toHaveLength(tricky.length + 1);
    expect(rows[3]).toEqual(['Смирнова; Анна "Аня"\nвторая строка', '10', '04.03.2026 00:30']);
  });

  it('prefixes a text that a spreadsheet would run with an apostrophe, and leaves numbers alone', async () => {
    const rows = readCsv(await csvOf(table(tricky))).slice(1);
    expect(rows.map((r) => r[0])).toEqual([
      ';=1+2 Анна', // starts with ;, which is inside the quotes: not a formula
      `'=HYPERLINK("http://evil";"x")`,
      'Смирнова; Анна "Аня"\nвторая строка',
      "'+7 900",
      "'@SUM(A1)",
      "'\tтаб",
      "'-1",
    ]);
    expect(rows[3][1]).toBe('-1');
    expect(rows[1][2]).toBe('');
  });

  it('fails rather than cut the file short past the hard maximum of rows', async () => {
    expect(readCsv(await csvOf(table(tricky, tricky.length)))).toHaveLength(tricky.length + 1);
    await expect(csvOf(table(tricky, 2))).rejects.toThrow('export exceeds its maximum of 2 rows');
    await expect(xlsxOf(table(tricky, 2))).rejects.toThrow('export exceeds its maximum of 2 rows');
  });
});

describe('the XLSX of a download', () => {
  it('has a bold header, the column widths, numbers as numbers and dates as dates in the reader’s zone', async () => {
    const sheet = await readXlsx(await xlsxOf(table(tricky)));
    expect(sheet.name).toBe('Пользователи');
    expect(sheet.headerBold).toBe(true);
    expect(sheet.widths).toEqual([30, 8, 18]);
    expect(sheet.rows[0]).toEqual(['Имя', 'Баллы', 'Когда']);
    expect(sheet.rows[1]).toEqual([';=1+2 Анна', 3, new Date('2026-03-04T00:30:00.000Z')]);
    expect(sheet.formats[2]).toBe('dd.mm.yyyy hh:mm');
    // A formula-looking name is a text cell, as typed.
    expect(sheet.rows[2][0]).toBe('=HYPERLINK("http://evil";"x")');
    expect(sheet.rows).toHaveLength(tricky.length + 1);
  });
});

describe('bounds and dates', () => {
  it('refuses a selection larger than one file holds, in Russian, counting no further than one past the limit', async () => {
    const limits: number[] = [];
    // A selection of `size` rows, counted as a store counts with a limit.
    const selection = (size: number) => ({
      countDocuments: async (_filter: never, { limit }: { limit: number }) => (limits.push(limit), Math.min(size, limit)),
    });
    await expect(assertExportable(selection(EXPORT_MAX_ROWS), {})).resolves.toBeUndefined();
    await expect(assertExportable(selection(10 * EXPORT_MAX_ROWS), {})).rejects.toThrow(
      /Слишком много строк для выгрузки: больше 50\s000/,
    );
    expect(limits).toEqual([EXPORT_MAX_ROWS + 1, EXPORT_MAX_ROWS + 1]);
  });

  it('writes an instant as the reader’s clock', () => {
    expect(dateTimeText(at, 'UTC')).toBe('03.03.2026 21:30');
    expect(dateTimeText(at, 'Europe/Moscow')).toBe('04.03.2026 00:30');
  });
});

describe('a download built from a cursor', () => {
  it('gives each header its width and each document its row, in order', async () => {
    expect(exportColumns(['Имя', 'Баллы'], [30, 8])).toEqual([
      { header: 'Имя', width: 30 },
      { header: 'Баллы', width: 8 },
    ]);
    const cursor = streamOf([
      { name: 'Анна', score: 3 },
      { name: 'Борис', score: 0 },
    ]);
    const rows: ExportCell[][] = [];
    for await (const row of rowsOf(cursor, (p) => [p.name, p.score])) rows.push(row);
    expect(rows).toEqual([
      ['Анна', 3],
      ['Борис', 0],
    ]);
  });
});
