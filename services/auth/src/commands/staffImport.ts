import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { Model } from 'mongoose';
import { z } from 'zod';
import {
  CURATOR_IMPORT_ROLES,
  IMPORT_DEFAULT_ROLE,
  IMPORT_MSG,
  LEARNER_ROLES,
  RESET_PASSWORD_PATH,
  ROLES,
  ROLE_LABELS,
  STAFF_IMPORT_BATCH,
  STAFF_IMPORT_COLUMNS,
  STAFF_IMPORT_MAX_ROWS,
  MSG,
  formatMessage,
  roleFromCell,
  splitFullName,
  type ImportBatchResult,
  type ImportCounts,
  type ImportRow,
  type ImportedPerson,
  type Role,
} from '@portal/contracts';
import { badRequest, loadExcel, onlyDuplicateKeys, op } from '@portal/service-kit';
import type { UserDoc } from '../models/user';
import { userEditRefusals } from '../policies/users';

const EMAIL = z.email();
const MAX_CELL = 200;

/** A cell as text: rich text, hyperlinks (an email cell often is one) and formulas' results included. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    return '';
  }
  return String(value);
}

/** The file's rows as text, header first: an XLSX's first sheet, or a CSV (comma or semicolon, UTF-8 with or without BOM). */
export async function readSheet(fileName: string, bytes: Buffer): Promise<string[][]> {
  const book = new (await loadExcel()).Workbook();
  const lower = fileName.toLowerCase();
  try {
    if (lower.endsWith('.xlsx')) {
      await book.xlsx.load(bytes as unknown as ArrayBuffer);
    } else if (lower.endsWith('.csv')) {
      const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
      const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
      const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
      await book.csv.read(Readable.from([text]), { parserOptions: { delimiter } });
    } else {
      throw badRequest(IMPORT_MSG.fileKind, 'fileName');
    }
  } catch (err) {
    if (err instanceof Error && 'statusCode' in err) throw err;
    throw badRequest(IMPORT_MSG.fileUnreadable, 'content');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw badRequest(IMPORT_MSG.empty, 'content');
  if (sheet.rowCount > STAFF_IMPORT_MAX_ROWS + 1) throw badRequest(IMPORT_MSG.tooManyRows, 'content');
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const values = (row.values as ExcelJS.CellValue[]).slice(1).map((v) => cellText(v).trim());
    rows[n - 1] = values;
  });
  return Array.from(rows, (r) => r ?? []);
}

const norm = (s: string) => s.trim().toLowerCase().replace(/ё/g, 'е');

/** Reads the header (the columns in any order, by their names) and checks every row; nothing is written. */
export function checkRows(table: string[][], actorRole: Role): ImportRow[] {
  const header = (table[0] ?? []).map(norm);
  const at = STAFF_IMPORT_COLUMNS.map((c) => header.indexOf(norm(c)));
  if (at.some((i) => i < 0))
    throw badRequest(formatMessage(IMPORT_MSG.columnsMissing, { columns: STAFF_IMPORT_COLUMNS.join(', ') }), 'content');
  const seen = new Map<string, number>();
  const rows: ImportRow[] = [];
  table.slice(1).forEach((cells, i) => {
    const [fullName, rawEmail, department, position, roleText] = at.map((c) => (cells[c] ?? '').replace(/\s+/g, ' ').trim());
    if (![fullName, rawEmail, department, position, roleText].some(Boolean)) return; // a blank line
    const email = rawEmail.toLowerCase();
    const role = roleFromCell(roleText);
    const row: ImportRow = { row: i + 2, fullName, email, department, position, role, outcome: 'new' };
    const long = STAFF_IMPORT_COLUMNS.find((_, k) => [fullName, rawEmail, department, position, roleText][k].length > MAX_CELL);
    const reason = long
      ? formatMessage(IMPORT_MSG.tooLong, { column: long })
      : !fullName
        ? IMPORT_MSG.nameMissing
        : !email
          ? IMPORT_MSG.emailMissing
          : !EMAIL.safeParse(email).success
            ? IMPORT_MSG.emailInvalid
            : !role && roleText
              ? formatMessage(IMPORT_MSG.roleUnknown, { role: roleText, roles: ROLES.map((r) => ROLE_LABELS[r]).join(', ') })
              : role && actorRole !== 'ADMIN' && !CURATOR_IMPORT_ROLES.includes(role)
                ? formatMessage(IMPORT_MSG.roleTooHigh, { role: ROLE_LABELS[role] })
                : seen.has(email)
                  ? formatMessage(IMPORT_MSG.duplicate, { row: String(seen.get(email)) })
                  : null;
    if (reason) rows.push({ ...row, outcome: 'error', reason });
    else {
      seen.set(email, row.row);
      rows.push(row);
    }
  });
  return rows;
}

type Existing = Pick<UserDoc, '_id' | 'email' | 'fullName' | 'department' | 'position' | 'role'>;

/** The accounts with these emails, a thousand per query. */
async function existingByEmail(users: Model<UserDoc>, emails: string[]): Promise<Map<string, Existing>> {
  const found = new Map<string, Existing>();
  for (let i = 0; i < emails.length; i += 1000) {
    const page = await users
      .find({ email: op({ $in: emails.slice(i, i + 1000) }) }, { email: 1, fullName: 1, department: 1, position: 1, role: 1 })
      .lean<Existing[]>();
    for (const u of page) found.set(u.email, u);
  }
  return found;
}

/** Who runs the import: their rights over each account are those of PATCH /api/users/{id}. */
export type Importer = { id: string; role: Role };

/**
 * What a checked row would do to the account that has its email (or to none), with the role it
 * ends with: a blank «Роль» gives a new person the default role and leaves an existing one theirs,
 * and says so. Someone other than an ADMIN makes new accounts of learners only, and changes an
 * existing account exactly as userEditRights lets them, every refused field named in the reason.
 */
function outcomeFor(
  row: ImportRow,
  existing: Existing | undefined,
  actor: Importer,
): Pick<ImportRow, 'outcome' | 'reason' | 'note' | 'role'> {
  const role = row.role ?? existing?.role ?? IMPORT_DEFAULT_ROLE;
  const note = row.role
    ? {}
    : { note: formatMessage(existing ? IMPORT_MSG.roleKept : IMPORT_MSG.roleDefault, { role: ROLE_LABELS[role] }) };
  if (!existing) {
    if (actor.role !== 'ADMIN' && !LEARNER_ROLES.includes(role))
      return { role, outcome: 'error', reason: formatMessage(IMPORT_MSG.staffAccountAdminOnly, { role: ROLE_LABELS[role] }) };
    return { role, outcome: 'new', ...note };
  }
  const same =
    existing.fullName === row.fullName &&
    (existing.department ?? '') === row.department &&
    (existing.position ?? '') === row.position &&
    existing.role === role;
  if (same) return { role, outcome: 'same', ...note };
  const refusals = userEditRefusals(actor, existing, {
    fullName: row.fullName,
    email: existing.email,
    role,
    department: row.department,
    position: row.position,
  });
  if (refusals.length) return { role, outcome: 'error', reason: refusals.join('; ') };
  return { role, outcome: 'update', ...note };
}

/** The preview: every row's outcome against the store as it is now. Reads only. */
export async function previewRows(users: Model<UserDoc>, rows: ImportRow[], actor: Importer): Promise<ImportRow[]> {
  const valid = rows.filter((r) => r.outcome !== 'error');
  const existing = await existingByEmail(
    users,
    valid.map((r) => r.email),
  );
  const outcomes = rows.map((r) => (r.outcome === 'error' ? r : { ...r, ...outcomeFor(r, existing.get(r.email), actor) }));
  return keepAnAdmin(users, outcomes, existing);
}

/**
 * The portal keeps an administrator whatever a file says, as an edit of a user does: rows that would
 * take the role of the last ADMIN (counting the file's own earlier demotions) are refused by name.
 */
async function keepAnAdmin(users: Model<UserDoc>, rows: ImportRow[], existing: Map<string, Existing>): Promise<ImportRow[]> {
  const demotes = (row: ImportRow) =>
    row.outcome === 'update' && existing.get(row.email)?.role === 'ADMIN' && row.role !== 'ADMIN';
  if (!rows.some(demotes)) return rows;
  let admins = await users.countDocuments({ role: 'ADMIN' });
  for (const row of rows) {
    if (!demotes(row)) continue;
    if (admins > 1) admins -= 1;
    else Object.assign(row, { outcome: 'error', reason: MSG.lastAdmin, note: undefined });
  }
  return rows;
}

export const countOutcomes = (rows: Pick<ImportRow, 'outcome'>[]): ImportCounts => {
  const counts: ImportCounts = { new: 0, update: 0, same: 0, error: 0 };
  for (const r of rows) counts[r.outcome] += 1;
  return counts;
};

/** A password nobody knows and no hash function produces: the account is entered through its set-password link. */
export const unusablePassword = () => `!unset:${randomBytes(24).toString('base64url')}`;

export interface BatchDeps {
  users: Model<UserDoc>;
  /** Set-password links for accounts just made, in their order: one write for all. */
  issueLinks: (userIds: Array<UserDoc['_id']>) => Promise<Array<{ token: string; expiresAt: Date }>>;
  mail: ((person: { email: string; fullName: string }, path: string, expiresAt: Date) => void) | null;
  /** After a change of an existing person (sessions of a changed role end). */
  changed: (before: Existing, after: ImportRow) => Promise<void>;
}

/**
 * Writes one batch of the rows, checking each against the store again (a run repeated, or a
 * person registered meanwhile, gives «same» or «update», never a second account): idempotent by email.
 * The batch's new accounts are one unordered insert and their links one more, whatever their number
 * (made one by one, three writes a person, 1,000 people took 30 s on FerretDB); an email registered
 * by someone else between the check and the insert fails alone and counts as the same.
 */
export async function writeBatch(
  deps: BatchDeps,
  rows: ImportRow[],
  actor: Importer,
): Promise<Omit<ImportBatchResult, 'done' | 'total' | 'finished'>> {
  const batch = rows.slice(0, STAFF_IMPORT_BATCH);
  const existing = await existingByEmail(
    deps.users,
    batch.map((r) => r.email),
  );
  const outcomes = await keepAnAdmin(
    deps.users,
    batch.map((row) => ({ ...row, ...outcomeFor(row, existing.get(row.email), actor) })),
    existing,
  );

  const fresh = outcomes.filter((row) => row.outcome === 'new');
  const made = await insertNew(deps.users, fresh);
  // A row whose email was taken between the check and the insert made no account: it is the same.
  fresh.forEach((row, i) => {
    if (!made[i]) row.outcome = 'same';
  });
  const madeRows = fresh.filter((row) => row.outcome === 'new');
  const links = await deps.issueLinks(made.flatMap((user) => (user ? [user._id] : [])));
  const created: ImportedPerson[] = madeRows.map((row, i) => {
    const { token, expiresAt } = links[i];
    const path = `${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
    deps.mail?.(row, path, expiresAt);
    return { email: row.email, fullName: row.fullName, link: deps.mail ? null : path, mailed: !!deps.mail };
  });

  for (const row of outcomes) {
    const before = existing.get(row.email);
    if (row.outcome !== 'update' || !before) continue;
    await deps.users.updateOne(
      { _id: before._id },
      {
        $set: {
          fullName: row.fullName,
          ...splitFullName(row.fullName),
          department: row.department,
          position: row.position,
          role: row.role!,
        },
        $inc: { version: 1 },
      },
    );
    await deps.changed(before, row);
  }
  return { counts: countOutcomes(outcomes), created };
}

/** The accounts of `rows` made in one unordered insert: each one's document, or null where its email was taken meanwhile. */
async function insertNew(users: Model<UserDoc>, rows: ImportRow[]): Promise<Array<{ _id: UserDoc['_id'] } | null>> {
  if (!rows.length) return [];
  const docs = rows.map((row) => ({
    email: row.email,
    fullName: row.fullName,
    ...splitFullName(row.fullName),
    department: row.department,
    position: row.position,
    role: row.role!,
    passwordHash: unusablePassword(),
  }));
  try {
    return (await users.insertMany(docs, { ordered: false, throwOnValidationError: true })).map((doc) => ({ _id: doc._id }));
  } catch (err) {
    const results = (err as { results?: unknown[] }).results;
    // Anything but a taken email is a real failure.
    if (!results || !onlyDuplicateKeys(err)) throw err;
    return results.map((result) =>
      result && typeof result === 'object' && '_id' in result ? { _id: result._id as UserDoc['_id'] } : null,
    );
  }
}
