import { formatMessage } from './messages';

/**
 * Downloads of a list as a spreadsheet (docs/decisions/071): quiz results, the audit history, organizations
 * with their contacts, the directory. Each takes the query of the list it exports (without the
 * page), plus the format and the reader's time zone, and answers every matching row up to a hard
 * maximum: the store work of one download is bounded whatever the data size. The query fields are
 * in exportQuery.ts: this module is the words and names a page needs, without zod.
 */

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The most rows one download holds; a larger selection is refused before anything is read. */
export const EXPORT_MAX_ROWS = 50_000;

export const EXPORT_MSG = {
  formatInvalid: 'Формат выгрузки: csv или xlsx',
  tooManyRows: 'Слишком много строк для выгрузки: больше {max}, столько в один файл не помещается — уточните поиск или фильтры',
} as const;

export const exportTooManyRows = (): string =>
  formatMessage(EXPORT_MSG.tooManyRows, { max: EXPORT_MAX_ROWS.toLocaleString('ru-RU') });

/** The file names of the downloads, without the extension (`quiz_results.csv` is the spec's). */
export const EXPORT_FILES = {
  results: 'quiz_results',
  audit: 'audit_history',
  organizations: 'organizations',
  users: 'users',
  assignment: 'assignment_report',
  scorm: 'scorm_attempts',
  program: 'program_report',
} as const;
export type ExportFile = keyof typeof EXPORT_FILES;

export const exportFileName = (file: ExportFile, format: ExportFormat): string => `${EXPORT_FILES[file]}.${format}`;

/** Column headers of each download, in order (one row per record; organizations: one per contact). */
/** The SCORM attempts of the lessons a reader sees (GET /api/scorm/attempts/export), one row per attempt. */
export const SCORM_EXPORT_HEADER = [
  'Имя',
  'Курс',
  'Урок',
  'Попытка',
  'Прохождение',
  'Успешность',
  'Баллы',
  'Минимум',
  'Максимум',
  'Доля',
  'Время (мин)',
  'Вопросов',
  'Верных ответов',
  'Начата',
  'Пройдена',
] as const;

export const AUDIT_EXPORT_HEADER = [
  'Дата и время',
  'Действие',
  'Объект',
  'ID объекта',
  'Описание',
  'Пользователь',
  'Email',
] as const;
export const ORGANIZATIONS_EXPORT_HEADER = [
  'Организация',
  'ИНН',
  'Сайт',
  'Статус',
  'Создана',
  'Контакт',
  'Email контакта',
  'Телефон',
  'Должность',
  'Контакт добавлен',
] as const;
export const USERS_EXPORT_HEADER = ['ФИО', 'Email', 'Роль', 'Дата регистрации'] as const;
export const ASSIGNMENT_EXPORT_HEADER = ['ФИО', 'Email', 'Подразделение', 'Статус', 'Срок', 'Дней до срока', 'Завершён'] as const;
