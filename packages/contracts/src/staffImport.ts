import { z } from 'zod';
import './zod-ru';
import { ROLES, ROLE_LABELS, type Role } from './roles';

/**
 * Staff import: an XLSX or CSV with ФИО, email, department, position and role
 * (often exported from 1C:ЗУП). A preview says what each row would do before anything is written;
 * the import then runs idempotently by email, a bounded batch per request.
 */
export const STAFF_IMPORT_COLUMNS = ['ФИО', 'Email', 'Подразделение', 'Должность', 'Роль'] as const;
/** The most rows one file may have. */
export const STAFF_IMPORT_MAX_ROWS = 5_000;
/** Rows written per request of the run (the client asks batch after batch and shows the progress). */
export const STAFF_IMPORT_BATCH = 100;
/** The file's largest size: its base64 must fit the services' 1 MB JSON body (a 5,000-row XLSX is about 250 KB). */
export const STAFF_IMPORT_MAX_BYTES = 700 * 1024;
export const STAFF_IMPORT_MAX_BASE64 = Math.ceil(STAFF_IMPORT_MAX_BYTES / 3) * 4 + 64;

/**
 * Roles a CURATOR's file may name: never more than their own (no ADMIN, no MANAGER). A curator
 * makes new accounts of learners only; a CURATOR row matches an existing curator (theirs, or a
 * peer's left unchanged), since staff roles come from an ADMIN or an approved application.
 */
export const CURATOR_IMPORT_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE', 'CURATOR'];
/** The role of a new person whose «Роль» is blank: registration's default. An existing person keeps theirs. */
export const IMPORT_DEFAULT_ROLE: Role = 'CANDIDATE';

export const IMPORT_MSG = {
  fileMissing: 'Выберите файл XLSX или CSV',
  fileKind: 'Нужен файл XLSX или CSV',
  fileUnreadable: 'Не удалось прочитать файл: сохраните его как XLSX или CSV (UTF-8) и загрузите снова',
  fileTooBig: 'Файл слишком большой: не более 700 КБ',
  columnsMissing: 'В первой строке нужны столбцы: {columns}',
  empty: 'В файле нет строк с сотрудниками',
  tooManyRows: `В файле больше ${STAFF_IMPORT_MAX_ROWS} строк: разделите его на части`,
  nameMissing: 'Не указано ФИО',
  emailMissing: 'Не указан email',
  emailInvalid: 'Некорректный email',
  roleUnknown: 'Неизвестная роль «{role}»: {roles}',
  roleTooHigh: 'Куратор не может назначить роль «{role}»',
  staffAccountAdminOnly: 'Учётную запись с ролью «{role}» создаёт только администратор (или одобренная им заявка)',
  roleDefault: 'Роль не указана: будет «{role}» — роль по умолчанию',
  roleKept: 'Роль не указана: остаётся «{role}»',
  duplicate: 'Email повторяется в строке {row}',
  tooLong: 'Слишком длинное значение в столбце «{column}»',
  importNotFound: 'Импорт не найден или уже завершён: загрузите файл снова',
  fromInvalid: 'Некорректный номер партии',
} as const;

/** What a row does: a new person, a change to one, nothing (already so), or an error. */
export type ImportOutcome = 'new' | 'update' | 'same' | 'error';
export const IMPORT_OUTCOME_LABELS: Record<ImportOutcome, string> = {
  new: 'Новый',
  update: 'Изменение',
  same: 'Без изменений',
  error: 'Ошибка',
};

export interface ImportRow {
  /** The row's number in the file (the header is row 1). */
  row: number;
  fullName: string;
  email: string;
  department: string;
  position: string;
  role: Role | null;
  outcome: ImportOutcome;
  /** Why a row is an error, in Russian. */
  reason?: string;
  /** What the row does that the file did not say (a blank «Роль»), in Russian. */
  note?: string;
}

export interface ImportCounts {
  new: number;
  update: number;
  same: number;
  error: number;
}

/** POST /api/users/import: the preview (nothing is written but the import's own record). */
export interface ImportPreview {
  id: string;
  fileName: string;
  total: number;
  counts: ImportCounts;
  /** Every row with its outcome (at most STAFF_IMPORT_MAX_ROWS). */
  rows: ImportRow[];
}

/** A person created by the import and the one-time link to set their password (listed when there is no mail). */
export interface ImportedPerson {
  email: string;
  fullName: string;
  /** `/auth/reset?token=…`, or null when the link went by mail. */
  link: string | null;
  mailed: boolean;
}

/** POST /api/users/import/{id}/batch: one batch written. */
export interface ImportBatchResult {
  done: number;
  total: number;
  finished: boolean;
  /** What the batch did (rows as written: «same» where the store already had it). */
  counts: ImportCounts;
  created: ImportedPerson[];
}

export const staffImportSchema = z.strictObject({
  fileName: z.string({ error: IMPORT_MSG.fileMissing }).trim().min(1, IMPORT_MSG.fileMissing).max(200, IMPORT_MSG.fileKind),
  content: z
    .string({ error: IMPORT_MSG.fileMissing })
    .min(1, IMPORT_MSG.fileMissing)
    .max(STAFF_IMPORT_MAX_BASE64, IMPORT_MSG.fileTooBig)
    .regex(/^[A-Za-z0-9+/=\s]+$/, IMPORT_MSG.fileUnreadable),
});
export type StaffImportInput = z.infer<typeof staffImportSchema>;

export const staffImportBatchSchema = z.strictObject({
  from: z.number({ error: IMPORT_MSG.fromInvalid }).int(IMPORT_MSG.fromInvalid).min(0, IMPORT_MSG.fromInvalid),
});

export const staffImportTemplateQuerySchema = z.object({
  format: z.enum(['xlsx', 'csv'], { error: 'Формат шаблона: xlsx или csv' }).default('xlsx'),
});

/** A role as a person types it: the code (CURATOR) or the Russian label (Куратор), any case. */
export function roleFromCell(text: string): Role | null {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return null;
  return ROLES.find((r) => r.toLowerCase() === wanted || ROLE_LABELS[r].toLowerCase() === wanted) ?? null;
}
