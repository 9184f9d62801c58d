import ExcelJS from 'exceljs';

/**
 * Reads the portal's downloads back as a spreadsheet program would, for tests: CSV split on `;`
 * with quoted fields (which may hold `;`, doubled quotes and line breaks), XLSX through exceljs.
 */

export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GETs a download with a bearer token, as bytes (a BOM stays where it is). */
export async function download(url: string, token?: string): Promise<Download> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const BOM = [0xef, 0xbb, 0xbf];

/** The rows of a CSV download; throws when the BOM is missing or a field is not quoted. */
export function readCsv(bytes: Buffer): string[][] {
  if (!BOM.every((b, i) => bytes[i] === b)) throw new Error('CSV without a UTF-8 BOM');
  const text = bytes.subarray(3).toString('utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') throw new Error(`unquoted field at ${i}: ${JSON.stringify(text.slice(i, i + 20))}`);
    let cell = '';
    i++;
    for (;;) {
      if (i >= text.length) throw new Error('unterminated quoted field');
      if (text[i] === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (text[i] === '"') {
        i++;
        break;
      } else cell += text[i++];
    }
    row.push(cell);
    if (text[i] === ';') i++;
    else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`expected ; or CRLF at ${i}`);
  }
  if (row.length) throw new Error('last record without CRLF');
  return rows;
}

export interface XlsxSheet {
  name: string;
  /** Cell values by row (1-based rows and columns flattened to arrays from 0). */
  rows: ExcelJS.CellValue[][];
  widths: Array<number | undefined>;
  headerBold: boolean;
  /** The number format of each cell of the second row (the first data row). */
  formats: string[];
}

/** The first worksheet of an XLSX download. */
export async function readXlsx(bytes: Buffer): Promise<XlsxSheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow({ includeEmpty: true }, (r, n) => {
    const values = (r.values as ExcelJS.CellValue[]).slice(1);
    while (values.length < sheet.columnCount) values.push(null);
    rows[n - 1] = values.map((v) => v ?? null);
  });
  const columns = sheet.columns ?? [];
  return {
    name: sheet.name,
    rows,
    widths: columns.map((c) => c.width),
    headerBold: !!sheet.getRow(1).font?.bold || !!sheet.getRow(1).getCell(1).font?.bold,
    formats: columns.map((_, i) => sheet.getRow(2).getCell(i + 1).numFmt ?? ''),
  };
}
